//! `regalloc alloc -j N`: a file's functions allocated on N threads give the same output as on one, byte for byte (MIR, statistics and errors in file order, exit status), on a generated BPF file and on corpus files where the corpus is built.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The `regalloc` binary Cargo built for this test run (same profile).
fn regalloc_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_regalloc"))
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
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

/// A function keeping `n` values live across a call and into a second
/// block: BPF has too few registers for more than a handful, so the larger
/// ones spill.
fn pressure(name: &str, n: usize) -> String {
    let mut s = format!("---\nname: {name}\ntracksRegLiveness: true\nregisters:\n");
    for v in 0..=n {
        s += &format!("  - {{ id: {v}, class: gpr }}\n");
    }
    s +=
        "liveins:\n  - { reg: '$r1' }\nbody: |\n  bb.0:\n    successors: %bb.1\n    liveins: $r1\n";
    for v in 0..n {
        s += &format!("    %{v}:gpr = COPY $r1\n    %{v}:gpr = ADD_ri %{v}, {v}\n");
    }
    s += "    JAL @g, csr, implicit-def $r0\n    JMP %bb.1\n  bb.1:\n";
    s += &format!("    %{n}:gpr = COPY %0\n");
    for v in 1..n {
        s += &format!("    %{n}:gpr = ADD_rr %{n}, %{v}\n");
    }
    s += &format!("    $r0 = COPY %{n}\n    RET implicit $r0\n...\n");
    s
}

/// A function every allocator refuses: it reads a register nothing
/// defines.
fn undefined_use(name: &str) -> String {
    format!(
        "---\nname: {name}\ntracksRegLiveness: true\nregisters:\n  - {{ id: 0, class: gpr }}\n\
         body: |\n  bb.0:\n    $r0 = COPY %0\n    RET implicit $r0\n...\n"
    )
}

/// The bundled example, then functions of growing and shrinking size with
/// two failing ones among them.
fn generated_file() -> String {
    let example = workspace().join("examples/bpf/lz4_attach_dictionary.mir");
    let mut s = std::fs::read_to_string(example).expect("the example");
    for (k, n) in [2, 9, 4, 12, 1, 7, 15, 3].into_iter().enumerate() {
        s += &pressure(&format!("p{k}"), n);
        if k == 2 {
            s += &undefined_use("bad_first");
        }
        if k == 5 {
            s += &undefined_use("bad_second");
        }
    }
    s
}

/// `alloc` of `input` with `jobs` threads and the other arguments.
fn alloc(target: &str, allocator: &str, input: &Path, jobs: &str, extra: &[&str]) -> Output {
    let mut args = vec![
        "alloc",
        "--target",
        target,
        "--allocator",
        allocator,
        "--stats",
        "json",
        "-j",
        jobs,
    ];
    args.extend_from_slice(extra);
    args.push(input.to_str().expect("utf-8 path"));
    run(&args)
}

/// Asserts that `-j 1` and `-j N` give the same standard output, standard
/// error and exit status; returns the single-thread run.
fn same_for_every_jobs(target: &str, allocator: &str, input: &Path, extra: &[&str]) -> Output {
    let one = alloc(target, allocator, input, "1", extra);
    for jobs in ["2", "5"] {
        let many = alloc(target, allocator, input, jobs, extra);
        let what = format!("{allocator} -j {jobs} on {}", input.display());
        assert_eq!(many.status.code(), one.status.code(), "{what}: exit status");
        assert!(
            many.stdout == one.stdout,
            "{what}: standard output differs from -j 1"
        );
        assert_eq!(
            text(&many.stderr),
            text(&one.stderr),
            "{what}: standard error"
        );
    }
    one
}

#[test]
fn generated_file_allocates_alike_on_any_number_of_threads() {
    let path = std::env::temp_dir().join(format!("cli_jobs_{}.mir", std::process::id()));
    std::fs::write(&path, generated_file()).expect("write the input");
    for allocator in ["fast", "basic", "greedy"] {
        let one = same_for_every_jobs("bpf", allocator, &path, &["--check"]);
        // The failures, and only they, are reported, in file order, and
        // the statistics rows of the others follow the file too.
        assert_eq!(one.status.code(), Some(1), "{allocator}");
        let stderr = text(&one.stderr);
        let failed: Vec<&str> = stderr
            .lines()
            // `FILE:LINE:COL: error: KIND: FUNCTION, bb.N, ...` (not the
            // JSON statistics records, which quote the same errors)
            .filter(|l| !l.starts_with('{'))
            .filter_map(|l| l.split_once(": error: "))
            .filter_map(|(_, rest)| rest.split_once(": "))
            .filter_map(|(_, rest)| rest.split(',').next())
            .filter(|f| f.starts_with("bad_"))
            .collect();
        assert_eq!(failed, ["bad_first", "bad_second"], "{stderr}");
        let rows: Vec<String> = stderr
            .lines()
            .filter_map(|l| l.strip_prefix("{\"function\":\""))
            .map(|l| l[..l.find('"').expect("a name")].to_string())
            .collect();
        // A function that failed has its record too, in its place.
        let mut expected = vec!["LZ4_attach_dictionary".to_string()];
        for k in 0..8 {
            expected.push(format!("p{k}"));
            if k == 2 {
                expected.push("bad_first".into());
            }
            if k == 5 {
                expected.push("bad_second".into());
            }
        }
        assert_eq!(rows, expected, "{stderr}");
        let failed_records = stderr
            .lines()
            .filter(|l| l.contains("\"failed\":true,\"errors\":[\""))
            .count();
        assert_eq!(failed_records, 2, "{stderr}");
        assert!(
            stderr.contains("{\"total\":true,\"functions\":11,\"failed\":2,"),
            "{stderr}"
        );
        let spilled = stderr
            .lines()
            .filter(|l| l.contains("\"function\":\"p6\""))
            .any(|l| !l.contains("\"spills\":0,"));
        assert!(
            spilled,
            "{allocator}: the largest function spills: {stderr}"
        );
    }
    let _ = std::fs::remove_file(&path);
}

#[test]
fn time_passes_with_threads_prints_one_table() {
    let path = std::env::temp_dir().join(format!("cli_jobs_time_{}.mir", std::process::id()));
    std::fs::write(&path, generated_file()).expect("write the input");
    let o = alloc(
        "bpf",
        "greedy",
        &path,
        "3",
        &["--time-passes", "-o", "/dev/null"],
    );
    let _ = std::fs::remove_file(&path);
    let stderr = text(&o.stderr);
    assert_eq!(
        stderr
            .matches("Register allocation pass timing report")
            .count(),
        1,
        "{stderr}"
    );
    assert!(stderr.contains("* Register Allocator\n"), "{stderr}");
}

#[test]
fn zero_jobs_is_refused() {
    let example = workspace().join("examples/bpf/lz4_attach_dictionary.mir");
    let o = alloc("bpf", "greedy", &example, "0", &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("invalid value '0' for '--jobs <JOBS>'"),
        "{}",
        text(&o.stderr)
    );
}

/// The corpus file of `dir` with the most functions, if the corpus is
/// built.
fn most_functions(dir: &Path) -> Option<PathBuf> {
    let entries = std::fs::read_dir(dir).ok()?;
    entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "mir"))
        .max_by_key(|p| {
            std::fs::read_to_string(p)
                .map(|s| s.matches("\nname:").count())
                .unwrap_or(0)
        })
}

#[test]
fn corpus_files_allocate_alike_on_two_threads() {
    let corpus = workspace().join("bench/out/corpus/x86_64");
    let mut ran = 0;
    for (level, allocator) in [("O2", "greedy"), ("O0", "fast")] {
        let Some(file) = most_functions(&corpus.join(level).join("lua")) else {
            continue;
        };
        let one = same_for_every_jobs("x86", allocator, &file, &[]);
        assert!(
            text(&one.stderr).matches("{\"function\":").count() > 20,
            "{}",
            file.display()
        );
        ran += 1;
    }
    if ran == 0 {
        println!("notice: no corpus at {}; skipped", corpus.display());
    }
}
