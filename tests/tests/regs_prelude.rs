//! The register corpus and our prelude, held against llvm-tblgen-19 alone
//! (no tdgen involved, so these run before tdgen's target layer exists).
//!
//! 1. `corpus_is_well_formed`: at least 45 `regs/*.td` descriptions and one
//!    `regs/err/*.td` case per validation error, each opening with a `//`
//!    comment saying what it tests.
//! 2. `our_prelude_is_equivalent_for_llvm_tblgen`: every `regs/*.td`
//!    description and the four targets' `registers.td`, run through
//!    `llvm-tblgen-19 -gen-register-info` once with LLVM's Target.td and once
//!    with `tdgen/prelude/regalloc.td` as prelude, give identical core facts
//!    (facts.py): evidence that our prelude's classes, fields and defaults
//!    mean what LLVM's do.
//! 3. `err_corpus_oracle_behaviour`: llvm-tblgen-19 rejects every
//!    `regs/err/*.td` case (non-zero exit with an `error:` line), except the
//!    ones marked `llvm-tblgen-19 accepts this` in their leading comments
//!    (where tdgen is stricter than LLVM), which it must accept.
//!
//! Output: `N/N descriptions agree across preludes`, `N/N error cases behave
//! as marked`. Without LLVM 19 or facts.py the oracle tests print a skip
//! notice and pass, unless `CI` is set.

use std::path::{Path, PathBuf};
use std::time::Duration;

use regalloc_tests::regs_oracle::{
    LLVM_PRELUDE, OUR_PRELUDE, Oracle, first_core_difference, llvm_accepts_marker, our_prelude_dir,
    require_facts_py, scratch_dir, top_text,
};
use regalloc_tests::{
    enter_tests_dir, first_lines, require_llvm_include_dir, require_llvm_tool, run_tool, td_files,
};

const REGS_DIR: &str = "regs";
const ERR_DIR: &str = "regs/err";
/// The four targets: directory under `../targets` and target (namespace) name.
const TARGETS: &[(&str, &str)] = &[
    ("bpf", "BPF"),
    ("aarch64", "AArch64"),
    ("x86", "X86"),
    ("hexagon", "Hexagon"),
];

fn oracle() -> Option<(Oracle, PathBuf)> {
    let tblgen = require_llvm_tool("llvm-tblgen")?;
    let include = require_llvm_include_dir()?;
    let facts_py = require_facts_py()?;
    Some((
        Oracle {
            tblgen,
            facts_py,
            limit: Duration::from_secs(120),
        },
        include,
    ))
}

/// A description to run: its label, directory, file name and target name.
struct Description {
    label: String,
    dir: PathBuf,
    file: String,
    target: String,
}

fn descriptions() -> Vec<Description> {
    let mut out: Vec<Description> = td_files(REGS_DIR)
        .into_iter()
        .map(|f| {
            let p = Path::new(&f);
            Description {
                label: f.clone(),
                dir: p.parent().expect("in regs/").to_path_buf(),
                file: p
                    .file_name()
                    .expect("a file")
                    .to_string_lossy()
                    .into_owned(),
                target: "T".to_string(),
            }
        })
        .collect();
    for (dir, target) in TARGETS {
        out.push(Description {
            label: format!("targets/{dir}/registers.td"),
            dir: Path::new("..").join("targets").join(dir),
            file: "registers.td".to_string(),
            target: target.to_string(),
        });
    }
    out
}

#[test]
fn corpus_is_well_formed() {
    enter_tests_dir();
    let files = td_files(REGS_DIR);
    assert!(
        files.len() >= 45,
        "expected at least 45 register descriptions in {REGS_DIR}, found {}",
        files.len()
    );
    let errs = td_files(ERR_DIR);
    assert!(
        errs.len() >= 11,
        "expected one error case per validation error in {ERR_DIR}, found {}",
        errs.len()
    );
    for file in files.iter().chain(&errs) {
        let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert!(
            text.starts_with("//"),
            "{file}: the first line must be a // comment saying what it tests"
        );
        assert!(
            !text.contains("include \""),
            "{file}: a description holds registers only; the top file includes the prelude"
        );
    }
}

#[test]
fn our_prelude_is_equivalent_for_llvm_tblgen() {
    enter_tests_dir();
    let Some((oracle, llvm_include)) = oracle() else {
        return;
    };
    let work = scratch_dir("regs-prelude");
    let ours = our_prelude_dir();
    let cases = descriptions();
    let mut failures = Vec::new();
    for (i, d) in cases.iter().enumerate() {
        let llvm_top = work.join(format!("top{i}-llvm.td"));
        let our_top = work.join(format!("top{i}-ours.td"));
        std::fs::write(&llvm_top, top_text(LLVM_PRELUDE, &d.file, &d.target)).unwrap();
        std::fs::write(&our_top, top_text(OUR_PRELUDE, &d.file, &d.target)).unwrap();
        let expected = oracle.facts(
            &llvm_top,
            &d.target,
            &[&llvm_include, &d.dir],
            &work,
            &format!("c{i}-llvm"),
            false,
        );
        let actual = oracle.facts(
            &our_top,
            &d.target,
            &[&ours, &d.dir],
            &work,
            &format!("c{i}-ours"),
            false,
        );
        match (expected, actual) {
            (Ok(e), Ok(a)) => {
                if let Some(diff) = first_core_difference(&e, &a) {
                    failures.push(format!(
                        "{}: facts differ\n    {}",
                        d.label,
                        diff.replace("tdgen =", "with regalloc.td =")
                    ));
                }
            }
            (Err(e), _) => failures.push(format!("{}: with Target.td, {e}", d.label)),
            (_, Err(e)) => failures.push(format!("{}: with regalloc.td, {e}", d.label)),
        }
    }
    let _ = std::fs::remove_dir_all(&work);
    println!(
        "{}/{} descriptions agree across preludes",
        cases.len() - failures.len(),
        cases.len()
    );
    for f in &failures {
        println!("  {f}");
    }
    assert!(
        failures.is_empty(),
        "{} descriptions differ (see above)",
        failures.len()
    );
}

#[test]
fn err_corpus_oracle_behaviour() {
    enter_tests_dir();
    let Some(tblgen) = require_llvm_tool("llvm-tblgen") else {
        return;
    };
    let Some(include) = require_llvm_include_dir() else {
        return;
    };
    let work = scratch_dir("regs-err-oracle");
    let files = td_files(ERR_DIR);
    let mut failures = Vec::new();
    for file in &files {
        let path = Path::new(file);
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let top = work.join(format!("top-{name}"));
        std::fs::write(&top, top_text(LLVM_PRELUDE, &name, "T")).unwrap();
        let text = std::fs::read_to_string(file).unwrap();
        let run = run_tool(
            &tblgen,
            [
                "-gen-register-info".as_ref(),
                "-I".as_ref(),
                include.as_os_str(),
                "-I".as_ref(),
                path.parent().unwrap().as_os_str(),
                top.as_os_str(),
                "-o".as_ref(),
                work.join("out.inc").as_os_str(),
            ],
        );
        let rejected = !run.succeeded() && run.stderr.contains("error:");
        if llvm_accepts_marker(&text) {
            if !run.succeeded() {
                failures.push(format!(
                    "{file}: marked as accepted by llvm-tblgen-19, but it exited with {:?}\n    {}",
                    run.code,
                    first_lines(&run.stderr, 4)
                ));
            }
        } else if !rejected {
            failures.push(format!(
                "{file}: llvm-tblgen-19 did not reject it (exit {:?}); mark it \"llvm-tblgen-19 accepts this\" if tdgen is meant to be stricter",
                run.code
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&work);
    println!(
        "{}/{} error cases behave as marked",
        files.len() - failures.len(),
        files.len()
    );
    for f in &failures {
        println!("  {f}");
    }
    assert!(
        failures.is_empty(),
        "{} error cases misbehave (see above)",
        failures.len()
    );
}
