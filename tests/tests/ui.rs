//! trybuild ui cases for the `regalloc!` macro: bad descriptions fail with errors naming the `.td` file, line and column (`ui/fail/`); good ones compile and run using the typed constants (`ui/pass/`).
//!
//! The `.stderr` files are compiler output, which changes between rustc
//! versions; they were written with the rustc recorded in
//! `ui/RUSTC_VERSION`. With another rustc the test prints a notice and
//! skips (the machine's toolchain is the only one, so none is pinned).
//! `TRYBUILD=overwrite` rewrites the `.stderr` files.

use std::process::Command;

fn rustc_version() -> Option<String> {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let out = Command::new(rustc).arg("--version").output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

#[test]
fn ui() {
    let dir = regalloc_tests::tests_dir();
    let recorded = std::fs::read_to_string(dir.join("ui/RUSTC_VERSION")).unwrap_or_default();
    let recorded = recorded.trim();
    let current = rustc_version().unwrap_or_default();
    if current != recorded {
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr(),
            "skipped: the ui .stderr files were written with `{recorded}`, this is `{current}` (see tests/tests/ui.rs)"
        );
        return;
    }
    // trybuild compiles the cases in a crate of its own under the target
    // directory; the macro resolves `ui/...` against this directory instead.
    // SAFETY: set before any thread of this test reads the environment; the
    // variable is read only by the compiler processes trybuild starts.
    unsafe { std::env::set_var("REGALLOC_TD_DIR", &dir) };
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/fail/*.rs");
    t.pass("ui/pass/*.rs");
}
