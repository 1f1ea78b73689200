//! `regalloc alloc|check --allocator pbqp --exact`: refused with another allocator, `--exact-limit` only with `--exact`, and which functions were solved exactly said on standard error.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_regalloc"))
        .args(args)
        .output()
        .expect("regalloc runs")
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn example() -> String {
    workspace()
        .join("examples/bpf/lz4_attach_dictionary.mir")
        .to_string_lossy()
        .into_owned()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn exact_with_another_allocator_is_a_usage_error() {
    let ex = example();
    for (command, allocator) in [("alloc", "greedy"), ("check", "basic"), ("alloc", "fast")] {
        let o = run(&[
            command,
            "--target",
            "bpf",
            "--allocator",
            allocator,
            "--exact",
            &ex,
        ]);
        assert_eq!(o.status.code(), Some(2));
        assert!(o.stdout.is_empty());
        let stderr = text(&o.stderr);
        assert_eq!(
            stderr.lines().next(),
            Some(
                format!(
                    "error: `--exact` solves PBQP problems exactly: it needs `--allocator pbqp` (the allocator is {allocator})"
                )
                .as_str()
            ),
            "{stderr}"
        );
    }
    // The default allocator (greedy) too.
    let o = run(&["alloc", "--target", "bpf", "--exact", &ex]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("(the allocator is greedy)"));
}

#[test]
fn exact_limit_needs_exact() {
    let ex = example();
    let o = run(&[
        "alloc",
        "--target",
        "bpf",
        "--allocator",
        "pbqp",
        "--exact-limit",
        "5",
        &ex,
    ]);
    assert_eq!(o.status.code(), Some(2));
    let stderr = text(&o.stderr);
    assert!(
        stderr
            .starts_with("error: the following required arguments were not provided:\n  --exact\n"),
        "{stderr}"
    );
}

#[test]
fn exact_allocates_checks_and_says_what_it_solved() {
    let ex = example();
    let out = std::env::temp_dir().join(format!("cli_exact_{}.mir", std::process::id()));
    let o = run(&[
        "alloc",
        "--target",
        "bpf",
        "--allocator",
        "pbqp",
        "--exact",
        "--check",
        "--stats",
        "json",
        &ex,
        "-o",
        out.to_str().expect("utf-8 path"),
    ]);
    let _ = std::fs::remove_file(&out);
    let (stdout, stderr) = (text(&o.stdout), text(&o.stderr));
    assert!(o.status.success(), "{stderr}");
    let record: serde_json::Value =
        serde_json::from_str(stdout.lines().next().expect("a record")).expect("JSON");
    assert_eq!(record["function"], "LZ4_attach_dictionary");
    assert_eq!(record["exact"], true);
    assert_eq!(
        stderr,
        "checked: 1 function\npbqp --exact: 1/1 functions solved exactly (every round within 10000 search nodes)\n"
    );
    // Without --exact, no record says "exact" and nothing more is said.
    let o = run(&[
        "alloc",
        "--target",
        "bpf",
        "--allocator",
        "pbqp",
        "--stats",
        "json",
        &ex,
        "-o",
        out.to_str().expect("utf-8 path"),
    ]);
    let _ = std::fs::remove_file(&out);
    assert!(!text(&o.stdout).contains("\"exact\""));
    assert_eq!(text(&o.stderr), "");
}

/// On a corpus file with functions whose search needs more than no node
/// (skipped when the corpus is not built): a limit of 0 keeps the
/// heuristic's solution for them, names them, and still checks.
#[test]
fn a_limit_reached_keeps_the_heuristic_and_names_the_function() {
    let file = workspace().join("bench/out/corpus/bpf/O2/lua/lapi.mir");
    if !file.exists() {
        println!("notice: no BPF corpus at {}", file.display());
        return;
    }
    let file = file.to_string_lossy().into_owned();
    let o = run(&[
        "check",
        "--target",
        "bpf",
        "--allocator",
        "pbqp",
        "--exact",
        "--exact-limit",
        "0",
        &file,
    ]);
    let stderr = text(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    let line = stderr
        .lines()
        .find(|l| l.starts_with("pbqp --exact: "))
        .expect("the summary line");
    assert!(
        line.contains(" functions solved exactly (every round within 0 search nodes); the limit was reached, and the heuristic's solution kept, in: ")
            && line.contains("lua_rotate"),
        "{line}"
    );
    // With the default limit, fewer functions reach it.
    let o = run(&[
        "check",
        "--target",
        "bpf",
        "--allocator",
        "pbqp",
        "--exact",
        &file,
    ]);
    let solved = |s: &str| -> usize {
        let l = s
            .lines()
            .find(|l| l.starts_with("pbqp --exact: "))
            .expect("the summary line");
        l["pbqp --exact: ".len()..]
            .split('/')
            .next()
            .and_then(|n| n.parse().ok())
            .expect("a count")
    };
    assert!(solved(&text(&o.stderr)) > solved(&stderr));
}
