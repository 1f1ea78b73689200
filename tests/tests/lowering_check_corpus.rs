//! The lowering checker (`check::check_lowering`) on the SSA corpus (`bench/out/ssa`, made by `bench/corpus/ssa`): every function our pre-allocation passes lower up to the register coalescer must be proved against its SSA form.
//!
//! The default test takes one file per library and target; the ignored
//! one every file (`cargo test --release -p regalloc-tests --test
//! lowering_check_corpus -- --ignored --nocapture`). Both print, per
//! target, the functions checked, proved, refused by a pass (not the
//! checker's business) and rejected, with the first errors.
use std::path::{Path, PathBuf};

use regalloc::mir::FunctionDoc;
use regalloc::passes::{self, Pass};
use regalloc_tests::corpus_alloc::ssa_targets;

/// The SSA files of a target: `<lib>/<name>.mir` without a pass suffix,
/// all or the first of each library.
fn ssa_files(dir: &Path, all: bool) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(libs) = std::fs::read_dir(dir) else {
        return out;
    };
    let mut libs: Vec<PathBuf> = libs.flatten().map(|l| l.path()).collect();
    libs.sort();
    for lib in libs {
        let Ok(files) = std::fs::read_dir(&lib) else {
            continue;
        };
        let mut files: Vec<PathBuf> = files
            .flatten()
            .map(|f| f.path())
            .filter(|p| {
                let name = p.file_name().unwrap_or_default().to_string_lossy();
                name.ends_with(".mir") && name.matches('.').count() == 1
            })
            .collect();
        files.sort();
        if !all {
            files.truncate(1);
        }
        out.extend(files);
    }
    out
}

#[derive(Default)]
struct Count {
    functions: usize,
    proved: usize,
    refused: usize,
    rejected: Vec<String>,
}

fn run(all: bool) -> Vec<(String, Count)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../bench/out/ssa");
    let mut report = Vec::new();
    for (dir, t, _) in ssa_targets() {
        let files = ssa_files(&root.join(dir), all);
        if files.is_empty() {
            continue;
        }
        let mut c = Count::default();
        for path in &files {
            let text = std::fs::read_to_string(path).expect("a MIR file");
            let file = regalloc::mir::read(t, &path.display().to_string(), &text);
            for doc in &file.functions {
                let FunctionDoc::Read(f) = doc else { continue };
                c.functions += 1;
                let mut lowered = f.clone();
                let record =
                    match passes::run_until_recorded(t, &mut lowered, Pass::RegisterCoalescer) {
                        Ok((_, record)) => record,
                        Err(_) => {
                            c.refused += 1;
                            continue;
                        }
                    };
                match regalloc::check::check_lowering(t, f, &lowered, &record) {
                    Ok(()) => c.proved += 1,
                    Err(errors) => c.rejected.push(format!(
                        "{} {}: {} errors, first: {}",
                        path.display(),
                        f.name,
                        errors.len(),
                        errors[0]
                    )),
                }
            }
        }
        report.push((dir.to_string(), c));
    }
    if report.is_empty() {
        println!("skipped: no SSA corpus at {}", root.display());
    }
    for (dir, c) in &report {
        println!(
            "{dir:8} {:5} functions: proved {:5}, refused by a pass {:3}, rejected {:3}",
            c.functions,
            c.proved,
            c.refused,
            c.rejected.len()
        );
        for r in c.rejected.iter().take(5) {
            println!("  {r}");
        }
    }
    report
}

fn assert_all_proved(report: &[(String, Count)]) {
    let rejected: usize = report.iter().map(|(_, c)| c.rejected.len()).sum();
    assert_eq!(
        rejected, 0,
        "functions the lowering checker rejects (listed above)"
    );
}

#[test]
fn a_file_per_library_is_proved() {
    assert_all_proved(&run(false));
}

#[test]
#[ignore = "the whole SSA corpus: minutes"]
fn the_whole_ssa_corpus_is_proved() {
    assert_all_proved(&run(true));
}
