//! Inputs the fuzzer found to crash or hang tdgen: each must now finish quickly, without a panic, and be accepted or rejected as llvm-tblgen-19 does.
use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

#[test]
fn fuzz_regressions_finish_without_panic_and_agree_on_acceptance() {
    let dir = Path::new("tablegen/fuzz-regressions");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("regression directory exists")
        .flatten()
        .map(|e| e.path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no regression inputs found");
    let tblgen = regalloc_tests::llvm_tool("llvm-tblgen");
    let mut failures = Vec::new();
    for f in &files {
        let path = f.clone();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let ok = std::panic::catch_unwind(|| {
                let mut loader = tdgen::Loader::new();
                loader.records(&path).is_ok()
            });
            let _ = tx.send(ok);
        });
        let accepted = match rx.recv_timeout(Duration::from_secs(20)) {
            Ok(Ok(a)) => a,
            Ok(Err(_)) => {
                failures.push(format!("{}: tdgen panicked", f.display()));
                continue;
            }
            Err(_) => {
                failures.push(format!("{}: tdgen did not finish within 20 s", f.display()));
                continue;
            }
        };
        if let Some(t) = &tblgen {
            let out = std::process::Command::new(t)
                .arg(f)
                .output()
                .expect("llvm-tblgen runs");
            if out.status.success() != accepted {
                failures.push(format!(
                    "{}: tdgen accepted={accepted}, llvm-tblgen accepted={}",
                    f.display(),
                    out.status.success()
                ));
            }
        }
    }
    println!(
        "{}/{} fuzz regressions pass",
        files.len() - failures.len(),
        files.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
