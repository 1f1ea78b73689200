//! `regalloc cc` end to end: a C program compiled through clang-19, our allocator and llc-19 runs and prints what the plain clang-19 build prints; each failing step is reported with its command line.
//!
//! Skips with a notice when clang-19 or llc-19 is missing (CI installs
//! them). x86-64 only: the programs run natively.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn regalloc_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_regalloc"))
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn have(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

fn llvm_present() -> bool {
    let ok = have("clang-19") && have("llc-19") && cfg!(target_arch = "x86_64");
    if !ok {
        println!("skipped: needs clang-19 and llc-19 on an x86-64 host");
    }
    ok
}

fn run(cmd: &mut Command) -> Output {
    cmd.output().expect("the command starts")
}

/// Links `object` with clang-19, runs it and returns what it printed.
fn link_and_run(object: &Path, dir: &Path) -> String {
    let exe = object.with_extension("exe");
    let o = run(Command::new("clang-19").arg(object).arg("-o").arg(&exe));
    assert!(o.status.success(), "link: {}", text(&o.stderr));
    let o = run(Command::new(&exe).current_dir(dir));
    assert!(
        o.status.success(),
        "{} exited with {}",
        exe.display(),
        o.status
    );
    text(&o.stdout)
}

/// The reference: the same program built by clang-19 -O2 alone.
fn reference_output(source: &Path, dir: &Path) -> String {
    let exe = dir.join("reference.exe");
    let o = run(Command::new("clang-19")
        .args(["-O2", "-w"])
        .arg(source)
        .arg("-o")
        .arg(&exe));
    assert!(o.status.success(), "clang: {}", text(&o.stderr));
    let o = run(&mut Command::new(&exe));
    assert!(o.status.success());
    text(&o.stdout)
}

#[test]
fn programs_built_through_every_allocator_run_as_clangs_build() {
    if !llvm_present() {
        return;
    }
    let dir = tempfile::tempdir().expect("a temporary directory");
    let source = workspace().join("examples/c/kernels.c");
    let expected = reference_output(&source, dir.path());
    assert!(expected.contains("mix16 "), "{expected}");
    for (allocator, level) in [
        ("greedy", "-O2"),
        ("basic", "-O2"),
        ("linearscan", "-O2"),
        ("fast", "-O2"),
        ("fast", "-O0"),
        ("greedy", "-O0"),
    ] {
        let object = dir.path().join(format!("kernels-{allocator}{level}.o"));
        let o = run(Command::new(regalloc_bin())
            .args(["cc", "--target", "x86", "--allocator", allocator, level])
            .arg(&source)
            .arg("-o")
            .arg(&object));
        let stderr = text(&o.stderr);
        assert!(o.status.success(), "{allocator} {level}: {stderr}");
        assert!(
            stderr.contains(&format!("8 functions allocated by {allocator} and checked")),
            "{stderr}"
        );
        let got = link_and_run(&object, dir.path());
        assert_eq!(
            got, expected,
            "{allocator} {level}: the program's output differs"
        );
        println!(
            "{allocator} {level}: runs as clang's build; {}",
            stderr.lines().next().unwrap_or("")
        );
    }
}

/// The control, LLVM's own allocation through the same split pipeline,
/// runs as clang's build too: what breaks only with ours is ours.
#[test]
fn the_control_runs_as_clangs_build() {
    if !llvm_present() {
        return;
    }
    let dir = tempfile::tempdir().expect("a temporary directory");
    let source = workspace().join("examples/c/kernels.c");
    let expected = reference_output(&source, dir.path());
    for (allocator, level) in [("greedy", "-O2"), ("basic", "-O2"), ("fast", "-O0")] {
        let object = dir.path().join(format!("control-{allocator}{level}.o"));
        let o = run(Command::new(regalloc_bin())
            .args([
                "cc",
                "--control",
                "--target",
                "x86",
                "--allocator",
                allocator,
                level,
            ])
            .arg(&source)
            .arg("-o")
            .arg(&object));
        let stderr = text(&o.stderr);
        assert!(o.status.success(), "{allocator} {level}: {stderr}");
        assert!(
            stderr.contains(&format!("allocated by LLVM's {allocator} (the control)")),
            "{stderr}"
        );
        assert_eq!(
            link_and_run(&object, dir.path()),
            expected,
            "control {allocator} {level}"
        );
    }
}

#[test]
fn assembly_output_with_dash_s() {
    if !llvm_present() {
        return;
    }
    let dir = tempfile::tempdir().expect("a temporary directory");
    let source = workspace().join("examples/c/kernels.c");
    let asm = dir.path().join("kernels.s");
    let o = run(Command::new(regalloc_bin())
        .args(["cc", "--target", "x86", "-S"])
        .arg(&source)
        .arg("-o")
        .arg(&asm));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let s = std::fs::read_to_string(&asm).expect("assembly written");
    assert!(s.contains("mix16:"), "no mix16 label in the assembly");
}

#[test]
fn targets_without_a_checked_pipeline_are_refused() {
    let o = run(Command::new(regalloc_bin()).args(["cc", "--target", "hexagon", "x.c"]));
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        text(&o.stderr),
        "error: regalloc cc compiles for x86 and aarch64, not hexagon: those are the targets \
         whose split pipeline has been checked against LLVM's own allocation\n"
    );
}

#[test]
fn linear_scan_has_no_control() {
    let o = run(Command::new(regalloc_bin()).args([
        "cc",
        "--target",
        "x86",
        "--allocator",
        "linearscan",
        "--control",
        "-O2",
        "x.c",
    ]));
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        text(&o.stderr),
        "error: --control: LLVM 19 has no linear-scan allocator (its -regalloc offers fast, \
         basic, greedy and pbqp)\n"
    );
}

#[test]
fn a_missing_input_is_named() {
    let o = run(Command::new(regalloc_bin()).args(["cc", "--target", "x86", "no/such.c"]));
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        text(&o.stderr),
        "error: cannot read no/such.c: no such file\n"
    );
}

/// A step that fails names itself and its command line, keeps the
/// intermediate files and writes no output.
#[test]
fn a_failing_step_is_named_and_leaves_no_output() {
    if !llvm_present() {
        return;
    }
    let dir = tempfile::tempdir().expect("a temporary directory");
    let source = dir.path().join("broken.c");
    std::fs::write(&source, "int f(void) { return undeclared; }\n").expect("write");
    let object = dir.path().join("broken.o");
    let temps = dir.path().join("temps");
    let o = run(Command::new(regalloc_bin())
        .args(["cc", "--target", "x86", "--save-temps"])
        .arg(&temps)
        .arg(&source)
        .arg("-o")
        .arg(&object));
    assert_eq!(o.status.code(), Some(2));
    let stderr = text(&o.stderr);
    assert!(
        stderr.starts_with("error: clang failed (exit status: 1): clang-19 -O2 -S -emit-llvm"),
        "{stderr}"
    );
    assert!(
        stderr.contains("use of undeclared identifier 'undeclared'"),
        "{stderr}"
    );
    assert!(
        stderr.ends_with(&format!("intermediate files kept in {}\n", temps.display())),
        "{stderr}"
    );
    assert!(!object.exists(), "no object is written when a step fails");

    let o = run(Command::new(regalloc_bin())
        .args(["cc", "--target", "x86", "--llc", "/nonexistent/llc"])
        .arg(workspace().join("examples/c/kernels.c"))
        .arg("-o")
        .arg(&object));
    assert_eq!(o.status.code(), Some(2));
    let stderr = text(&o.stderr);
    assert!(
        stderr.starts_with(
            "error: llc (to the allocator's input): cannot run /nonexistent/llc: No such file or directory (os error 2) (regalloc cc needs LLVM 19: apt-get install clang-19 llvm-19)\n"
        ),
        "{stderr}"
    );
    assert!(!object.exists());
}
