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
    // A function the allocator cannot allocate (here: one that reads a
    // register nothing defines) must be named with exit code 1; the other
    // functions are still allocated and written, and the failed one is
    // written as it was read.
    let ex = std::fs::read_to_string(example()).expect("the example");
    let with_undefined_read = format!(
        "{ex}---\nname:            with_undefined_read\ntracksRegLiveness: true\n\
         registers:\n  - {{ id: 0, class: gpr }}\nbody:             |\n  \
         bb.0:\n    $r0 = COPY %0\n    RET implicit $r0\n...\n"
    );
    let path = std::env::temp_dir().join(format!("cli_alloc_undefined_{}.mir", std::process::id()));
    std::fs::write(&path, with_undefined_read).expect("write the input");
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
            && stderr.contains(": error: invalid input: with_undefined_read, bb.0, instruction 0: %0 is read before any definition"),
        "{stderr}"
    );
    assert!(!stderr.contains("LZ4_attach_dictionary:"), "{stderr}");
    let stdout = text(&o.stdout);
    assert!(stdout.contains("name:            LZ4_attach_dictionary"));
    assert!(stdout.contains("$r0 = COPY %0"), "{stdout}");
}

/// The names of the rows of the `--time-passes` table in `stderr`.
fn table_names(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .skip_while(|l| !l.contains("Register allocation pass timing report"))
        .filter(|l| l.starts_with("   0.") || l.starts_with("   1."))
        // Each row has two shares, CPU time's and wall time's; the name
        // follows the second.
        .map(|l| l[l.rfind("%)").expect("a share") + 2..].trim())
        .collect()
}

/// A BPF loop in SSA form: a PHI, and a tie (`ADD_ri`) between two
/// registers, as instruction selection leaves them.
const SSA_LOOP: &str = "---\nname:            ssa_loop\ntracksRegLiveness: true\nbody:             |\n  \
     bb.0:\n    successors: %bb.1(0x80000000)\n\n    %0:gpr = MOV_ri 1\n\n  \
     bb.1:\n    successors: %bb.1(0x40000000), %bb.2(0x40000000)\n\n    \
     %1:gpr = PHI %0, %bb.0, %2, %bb.1\n    %2:gpr = ADD_ri %1, 1\n    \
     JNE_ri %2, 10, %bb.1\n\n  bb.2:\n    $r0 = COPY %2\n    RET implicit $r0\n...\n";

/// SSA input is lowered before allocation, each pre-allocation pass on
/// its own `--time-passes` line: LLVM's optimized path for Greedy, its
/// -O0 path (PHI elimination and two-address lowering) for Fast; the
/// checkers (of the passes, then of the allocation) accept both, and no
/// PHI is left in the output.
#[test]
fn ssa_input_is_lowered_and_timed_pass_by_pass() {
    let path = std::env::temp_dir().join(format!("cli_alloc_ssa_{}.mir", std::process::id()));
    std::fs::write(&path, SSA_LOOP).expect("write the input");
    let lowering = |allocator: &str| {
        let o = run(&[
            "alloc",
            "--target",
            "bpf",
            "--allocator",
            allocator,
            "--check",
            "--time-passes",
            path.to_str().expect("utf-8 path"),
        ]);
        let (stdout, stderr) = (text(&o.stdout), text(&o.stderr));
        assert!(o.status.success(), "{allocator}: {stderr}");
        assert!(stderr.contains("checked: 1 function"), "{stderr}");
        assert!(!stdout.contains("PHI"), "{stdout}");
        let names = table_names(&stderr);
        let end = names
            .iter()
            .position(|n| n.starts_with("Flow analyses") || n.starts_with("* Register Allocator"))
            .expect("the allocator's lines");
        names[..end]
            .iter()
            .map(|n| n.to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        lowering("greedy"),
        [
            "Detect Dead Lanes",
            "Process Implicit Definitions",
            "Remove unreachable machine basic blocks",
            "Live Variable Analysis",
            "Eliminate PHI nodes for register allocation",
            "Two-Address instruction pass",
            "Register Coalescer",
        ]
    );
    assert_eq!(
        lowering("fast"),
        [
            "Eliminate PHI nodes for register allocation",
            "Two-Address instruction pass",
        ]
    );
    let _ = std::fs::remove_file(&path);
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
    assert_eq!(
        table_names(&stderr),
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
