//! The `regalloc alloc` and `regalloc check` commands on the bundled BPF example: allocated MIR written, statistics printed, the checker's verdict per function, failures named with exit code 1.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The `regalloc` binary Cargo built for this test run (same profile).
fn regalloc_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_regalloc"))
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn example() -> PathBuf {
    workspace().join("examples/bpf/lz4_attach_dictionary.mir")
}

fn run(args: &[&str]) -> Output {
    Command::new(regalloc_bin())
        .args(args)
        .output()
        .expect("regalloc runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn alloc_writes_allocated_mir_and_json_stats() {
    let out_path = std::env::temp_dir().join(format!("cli_alloc_{}.mir", std::process::id()));
    let ex = example();
    let o = run(&[
        "alloc",
        "--target",
        "bpf",
        "--allocator",
        "fast",
        "--stats",
        "json",
        "--check",
        ex.to_str().expect("utf-8 path"),
        "-o",
        out_path.to_str().expect("utf-8 path"),
    ]);
    let (stdout, stderr) = (text(&o.stdout), text(&o.stderr));
    if stderr.contains("not available") {
        println!("skipped: the fast allocator is not available yet");
        return;
    }
    assert!(o.status.success(), "stderr: {stderr}");
    let mir = std::fs::read_to_string(&out_path).expect("output written");
    let _ = std::fs::remove_file(&out_path);
    assert!(mir.starts_with("--- |"), "the IR module is kept");
    assert!(mir.contains("name:            LZ4_attach_dictionary"));
    let body = &mir[mir.find("body:").expect("a body")..];
    let virtual_reg = |w: &str| {
        w.strip_prefix('%')
            .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()))
    };
    assert!(
        !body.split([' ', ',', '\n']).any(virtual_reg),
        "virtual registers left:\n{body}"
    );
    let line = stdout.lines().next().expect("one JSON line");
    let v: serde_json::Value = serde_json::from_str(line).expect("JSON");
    assert_eq!(v["function"], "LZ4_attach_dictionary");
    for key in [
        "spills",
        "reloads",
        "folded_reloads",
        "remats",
        "copies",
        "spill_cost",
        "reload_cost",
    ] {
        assert!(v.get(key).is_some(), "{key} missing in {line}");
    }
    println!("{stdout}");
}

#[test]
fn check_prints_a_verdict_per_function() {
    let ex = example();
    let ex = ex.to_str().expect("utf-8 path");
    for allocator in ["fast", "basic"] {
        let o = run(&["check", "--target", "bpf", "--allocator", allocator, ex]);
        let stdout = text(&o.stdout);
        println!("{allocator}: {stdout}");
        if stdout.contains("not available") {
            println!("skipped: the {allocator} allocator is not available yet");
            continue;
        }
        assert!(stdout.contains("LZ4_attach_dictionary: ok"), "{stdout}");
        assert!(stdout.contains("1/1 functions allocated and checked"));
        assert!(o.status.success());
    }
}

#[test]
fn failures_name_the_function_and_exit_with_1() {
    // A function the allocator cannot allocate (here: a PHI, which the
    // fast allocator refuses until phi elimination has run) must be named
    // with exit code 1; the other functions are still allocated and
    // written, and the failed one is written as it was read.
    let ex = std::fs::read_to_string(example()).expect("the example");
    let with_phi = format!(
        "{ex}---\nname:            with_phi\ntracksRegLiveness: true\nbody:             |\n  \
         bb.0:\n    successors: %bb.1(0x80000000)\n\n    %0:gpr = MOV_ri 1\n\n  \
         bb.1:\n    successors: %bb.1(0x40000000), %bb.2(0x40000000)\n\n    \
         %1:gpr = PHI %0, %bb.0, %2, %bb.1\n    %2:gpr = ADD_ri %1, 1\n    \
         JNE_ri %2, 10, %bb.1\n\n  bb.2:\n    $r0 = COPY %2\n    RET implicit $r0\n...\n"
    );
    let path = std::env::temp_dir().join(format!("cli_alloc_phi_{}.mir", std::process::id()));
    std::fs::write(&path, with_phi).expect("write the input");
    let o = run(&[
        "alloc",
        "--target",
        "bpf",
        "--allocator",
        "fast",
        path.to_str().expect("utf-8 path"),
    ]);
    let _ = std::fs::remove_file(&path);
    assert_eq!(o.status.code(), Some(1));
    let stderr = text(&o.stderr);
    assert!(
        stderr.contains(&format!("{}:", path.display()))
            && stderr.contains(": error: unsupported: with_phi, bb.1, instruction 1: PHI instructions must be eliminated before the fast allocator runs"),
        "{stderr}"
    );
    assert!(!stderr.contains("LZ4_attach_dictionary:"), "{stderr}");
    let stdout = text(&o.stdout);
    assert!(stdout.contains("name:            LZ4_attach_dictionary"));
    assert!(
        stdout.contains("%1:gpr = PHI %0, %bb.0, %2, %bb.1"),
        "{stdout}"
    );
}

/// `--time-passes` prints the pass table on standard error: the greedy
/// pipeline's passes, the allocator line and the total, and nothing of a
/// pass that did not run (no checker without `--check`).
#[test]
fn time_passes_prints_the_greedy_pipeline_table() {
    let ex = example();
    let o = run(&[
        "alloc",
        "--target",
        "bpf",
        "--time-passes",
        ex.to_str().expect("utf-8 path"),
        "-o",
        "/dev/null",
    ]);
    let stderr = text(&o.stderr);
    assert!(o.status.success(), "stderr: {stderr}");
    let table: Vec<&str> = stderr
        .lines()
        .skip_while(|l| !l.contains("Register allocation pass timing report"))
        .collect();
    let names: Vec<&str> = table
        .iter()
        .filter(|l| l.starts_with("   0.") || l.starts_with("   1."))
        // Each row has two shares, CPU time's and wall time's; the name
        // follows the second.
        .map(|l| l[l.rfind("%)").expect("a share") + 2..].trim())
        .collect();
    assert_eq!(
        names,
        [
            "Flow analyses (CFG, dominators, loops, frequencies)",
            "Slot indexes and Live Interval Analysis",
            "* Spill weights and hints",
            "* Register Allocator",
            "* Hint recoloring",
            "* Spill hoisting",
            "* Redundant spill removal",
            "Virtual Register Rewriter",
            "* Reload reuse",
            "Allocator line (the passes marked *: LLVM's allocator pass)",
            "Total",
        ],
        "{stderr}"
    );
}
