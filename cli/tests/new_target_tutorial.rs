//! docs/new-target.md, step by step: the toy description checks, its register bank is what the tutorial prints, a broken constraint gives the error it shows, and the `regalloc` command allocates docs/toy/sum.mir as it says.
//!
//! Every text the tutorial shows as output is taken from the tutorial
//! itself and compared with what the tools print, so the two cannot drift.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn tutorial() -> String {
    std::fs::read_to_string(root().join("docs/new-target.md")).expect("docs/new-target.md")
}

/// The fenced blocks of the tutorial, in order.
fn blocks(doc: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur: Option<String> = None;
    for line in doc.lines() {
        if line.starts_with("```") {
            match cur.take() {
                Some(b) => out.push(b),
                None => cur = Some(String::new()),
            }
        } else if let Some(b) = cur.as_mut() {
            b.push_str(line);
            b.push('\n');
        }
    }
    out
}

/// The block that follows the paragraph containing `marker`.
fn block_after(doc: &str, marker: &str) -> String {
    let at = doc
        .find(marker)
        .unwrap_or_else(|| panic!("tutorial mentions {marker:?}"));
    blocks(&doc[at..])
        .into_iter()
        .next()
        .expect("a block follows")
}

fn toy_td() -> String {
    std::fs::read_to_string(root().join("docs/toy/toy.td")).expect("docs/toy/toy.td")
}

/// `tdgen check`/`tdgen regs` on a description given as text named `name`:
/// the summary's first line, or the rendered diagnostics.
fn tdgen_regs(name: &str, text: &str) -> Result<String, String> {
    let mut loader = tdgen::Loader::new();
    loader.include_dir(root().join("docs/toy"));
    loader.include_dir(tdgen::emit::prelude_dir());
    let rk = loader
        .records_from_str(name, text)
        .map_err(|d| loader.render(&d))?;
    let m = tdgen::target::TargetModel::build(&rk).map_err(|d| loader.render(&d))?;
    Ok(tdgen::target::summary(&m)
        .lines()
        .next()
        .unwrap_or("")
        .to_string())
}

fn regalloc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_regalloc"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("regalloc runs")
}

#[test]
fn the_toy_description_checks_and_has_the_bank_the_tutorial_prints() {
    let doc = tutorial();
    let first = tdgen_regs("docs/toy/toy.td", &toy_td()).unwrap_or_else(|e| panic!("{e}"));
    let shown = block_after(&doc, "`regs` prints the register bank");
    assert_eq!(shown.trim(), first, "the tutorial's `tdgen regs` line");
}

#[test]
fn a_broken_constraint_gives_the_error_the_tutorial_shows() {
    let doc = tutorial();
    let broken = toy_td().replace(
        r#"let Constraints = "$dst = $a";"#,
        r#"let Constraints = "$dst = $c";"#,
    );
    let err =
        tdgen_regs("docs/toy/toy.td", &broken).expect_err("the broken description is rejected");
    let shown = block_after(&doc, "and `check` says:");
    assert!(
        err.starts_with(shown.trim_end()),
        "tdgen says:\n{err}\nthe tutorial shows:\n{shown}"
    );
}

#[test]
fn basic_and_fast_allocate_the_toy_function_and_the_checker_accepts() {
    let doc = tutorial();
    let o = regalloc(&[
        "alloc",
        "--target",
        "docs/toy/toy.td",
        "--allocator",
        "basic",
        "--check",
        "docs/toy/sum.mir",
    ]);
    let mir = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success(),
        "regalloc alloc failed:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let body = mir.split("body:").nth(1).unwrap_or_default();
    let virtual_left = body
        .split('%')
        .skip(1)
        .any(|rest| rest.starts_with(|c: char| c.is_ascii_digit()));
    assert!(!virtual_left, "no virtual register is left:\n{mir}");
    let shown = block_after(&doc, "instead of keeping them in registers:");
    for line in shown.lines() {
        assert!(mir.contains(line), "the allocated MIR has {line:?}:\n{mir}");
    }
    let o = regalloc(&[
        "alloc",
        "--target",
        "docs/toy/toy.td",
        "--allocator",
        "fast",
        "--check",
        "docs/toy/sum.mir",
    ]);
    assert!(
        o.status.success(),
        "regalloc alloc --allocator fast failed:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn a_tie_between_two_registers_is_refused_as_the_tutorial_shows() {
    let doc = tutorial();
    let mir = std::fs::read_to_string(root().join("docs/toy/sum.mir")).expect("sum.mir");
    let bad = mir.replace(
        "    %5:gpr = COPY %0\n    %5:gpr = ADDrr %5, %1\n",
        "    %5:gpr = ADDrr %0, %1\n",
    );
    assert_ne!(bad, mir, "the tutorial's function has the two-address pair");
    let dir = std::env::temp_dir().join(format!("toy-sum-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let path = dir.join("sum.mir");
    std::fs::write(&path, bad).expect("write the broken function");
    let o = regalloc(&[
        "alloc",
        "--target",
        "docs/toy/toy.td",
        "--allocator",
        "basic",
        path.to_str().expect("utf-8 path"),
    ]);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(!o.status.success(), "the function is refused");
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    let shown = block_after(&doc, "copies `%0` into `%5`'s register");
    assert!(
        err.contains(shown.trim()),
        "regalloc says:\n{err}\nthe tutorial shows:\n{shown}"
    );
}

/// Section 7: the build script's `tdgen::Builder` call, as the tutorial
/// writes it, produces `<stem>.rs` with the items its comments name; and
/// a broken description fails with the rendered diagnostic the script
/// prints.
#[test]
fn the_build_script_of_section_7_writes_the_items_the_tutorial_names() {
    let doc = tutorial();
    let script = block_after(&doc, "`build.rs`:");
    assert!(
        script.contains(r#"tdgen::Builder::new("src/toy.td").build()"#),
        "{script}"
    );
    let lib = block_after(&doc, "`src/lib.rs`:");
    assert!(
        lib.contains(r#"include!(concat!(env!("OUT_DIR"), "/toy.rs"));"#),
        "{lib}"
    );
    // A package whose src/ holds toy.td; the build script runs in the
    // package root, which `Builder` resolves relative paths against (here
    // given as the absolute path, since a test cannot change directory).
    let package = tempfile::tempdir().expect("a temporary directory");
    let out_dir = package.path().join("out");
    std::fs::create_dir_all(package.path().join("src")).expect("src/");
    std::fs::create_dir_all(&out_dir).expect("out/");
    let toy = package.path().join("src/toy.td");
    std::fs::write(&toy, toy_td()).expect("src/toy.td");
    let written = tdgen::Builder::new(&toy)
        .out_dir(&out_dir)
        .cargo_directives(false)
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(written, out_dir.join("toy.rs"));
    let source = std::fs::read_to_string(&written).expect("toy.rs");
    for item in [
        "pub use self::tables::TARGET;",
        "pub const W0: Reg",
        "pub const GPR: RegClass",
        "pub const CSR_Toy: CalleeSavedSet",
    ] {
        assert!(source.contains(item), "{item} in toy.rs");
    }
    let broken = toy_td().replace(
        r#"let Constraints = "$dst = $a";"#,
        r#"let Constraints = "$dst = $c";"#,
    );
    std::fs::write(&toy, broken).expect("src/toy.td");
    let err = tdgen::Builder::new(&toy)
        .out_dir(&out_dir)
        .cargo_directives(false)
        .build()
        .expect_err("the broken description fails the build script");
    assert!(
        err.starts_with(
            "error: bad constraint '$dst = $c' in Constraints of 'ADDrr': no operand named '$c'"
        ),
        "{err}"
    );
}

/// The `$xN` registers a MIR text names, in its function bodies.
fn registers_named(mir: &str) -> std::collections::BTreeSet<u32> {
    mir.split("\nbody:")
        .skip(1)
        .flat_map(|body| body.split("$x").skip(1))
        .filter_map(|rest| {
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            digits.parse().ok()
        })
        .collect()
}

/// `regalloc alloc --target docs/toy/rvc.td --check` with `extra`
/// arguments and allocator `allocator`: the allocated MIR, and the
/// registers it names that the input did not.
fn allocate_rvc(allocator: &str, extra: &[&str]) -> (String, Vec<u32>) {
    let mut args = vec![
        "alloc",
        "--target",
        "docs/toy/rvc.td",
        "--allocator",
        allocator,
        "--check",
    ];
    args.extend_from_slice(extra);
    args.push("docs/toy/rvc.mir");
    let o = regalloc(&args);
    assert!(
        o.status.success(),
        "regalloc {args:?} failed:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let mir = String::from_utf8_lossy(&o.stdout).into_owned();
    let input = std::fs::read_to_string(root().join("docs/toy/rvc.mir")).expect("rvc.mir");
    let before = registers_named(&input);
    let added = registers_named(&mir).difference(&before).copied().collect();
    (mir, added)
}

/// Whether llc-19 accepts `mir` as riscv64 MIR with the machine verifier
/// on (`None` when llc-19 is not installed).
fn llc_verifies(mir: &str, name: &str) -> Option<Result<(), String>> {
    let path = std::env::temp_dir().join(format!("{name}-{}.mir", std::process::id()));
    std::fs::write(&path, mir).expect("write the allocated MIR");
    let o = Command::new("llc-19")
        .args([
            "-mtriple=riscv64",
            "-run-pass=none",
            "-verify-machineinstrs",
            "-o",
            "/dev/null",
        ])
        .arg(&path)
        .output()
        .ok();
    let _ = std::fs::remove_file(&path);
    let o = o?;
    Some(if o.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&o.stderr).into_owned())
    })
}

#[test]
fn the_compressed_order_applies_with_c_and_the_full_order_without() {
    let compressed: Vec<u32> = (8..=15).collect();
    for allocator in ["greedy", "basic", "fast"] {
        let (with_c, added) = allocate_rvc(allocator, &[]);
        assert!(
            added.iter().all(|r| compressed.contains(r)),
            "{allocator}: with +c the allocation adds only x8-x15, not {added:?}"
        );
        let (without_c, added) = allocate_rvc(allocator, &["--mattr=-c"]);
        assert!(
            added.iter().any(|r| !compressed.contains(r)),
            "{allocator}: with -c the full order is used, but only {added:?} were added"
        );
        if allocator == "greedy" {
            // What the tutorial says of the default allocator.
            for r in [16, 17, 5, 6, 7, 28, 29] {
                assert!(added.contains(&r), "greedy -c takes x{r}: {added:?}");
            }
        }
        for (mir, name) in [(with_c, "with-c"), (without_c, "without-c")] {
            if let Some(Err(e)) = llc_verifies(&mir, &format!("rvc-{allocator}-{name}")) {
                panic!("llc-19 rejects the {allocator} {name} allocation:\n{e}");
            }
        }
    }
}

#[test]
fn an_order_index_out_of_range_gives_the_error_the_tutorial_shows() {
    let doc = tutorial();
    let td = std::fs::read_to_string(root().join("docs/toy/rvc.td")).expect("rvc.td");
    let broken = td.replace(
        r#"if func.has_feature("c") { 1 } else { 0 }"#,
        r#"if func.has_feature("c") { 2 } else { 0 }"#,
    );
    assert_ne!(broken, td, "the tutorial's fragment is in rvc.td");
    let path = std::env::temp_dir().join(format!("rvc-broken-{}.td", std::process::id()));
    std::fs::write(&path, broken).expect("write the broken description");
    let o = Command::new(env!("CARGO_BIN_EXE_regalloc"))
        .args(["alloc", "--target"])
        .arg(&path)
        .arg("docs/toy/rvc.mir")
        .current_dir(root())
        .output()
        .expect("regalloc runs");
    let _ = std::fs::remove_file(&path);
    assert!(!o.status.success(), "the description is refused");
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    let shown = block_after(&doc, "and `tdgen check` says:");
    assert!(
        err.contains(shown.trim()),
        "regalloc says:\n{err}\nthe tutorial shows:\n{shown}"
    );
}
