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
