//! Whole programs built through `regalloc cc` run exactly as the clang-19 build: zlib, bzip2, lz4, Lua and SQLite, with every allocator.
//!
//! Each program is a library from the sources the corpus builder vendors
//! (`bench/corpus/build` puts them in `bench/out/build/sources/vendor`)
//! and a driver: our own for zlib, lz4 and Lua (`tests/exec/`), bzip2's
//! own command with its sample files. Every C file is compiled through
//! `regalloc cc` (our allocator, checked, between clang-19 and llc-19),
//! linked by clang-19, and every run's standard output and exit status is
//! compared with the same program built by `clang-19 -O2` alone.
//!
//! SQLite (its amalgamation from `libsqlite3-sys`, with a driver of ours)
//! is in the full matrix only.
//!
//! The default run is CI's subset: x86-64, Greedy, Basic, PBQP, linear
//! scan and Fast at -O2 and Fast at -O0. `REGALLOC_EXEC=full` adds LLVM's own allocation through
//! the same split pipeline (`regalloc cc --control`, which tells pipeline
//! artifacts from allocator bugs; LLVM 19 has no linear scan, so that
//! one has none), `-march=x86-64-v3`, and AArch64 under
//! qemu-user when `qemu-aarch64` and Debian's arm64 cross libc
//! (`gcc-aarch64-linux-gnu`, `libc6-dev-arm64-cross`) are installed;
//! `REGALLOC_EXEC_TARGETS=aarch64` (or `x86`) runs one target only,
//! `REGALLOC_EXEC_PROGRAMS=lua,sqlite` some programs only and
//! `REGALLOC_EXEC_ALLOCATORS=pbqp` some allocators only. It
//! skips with a notice when LLVM 19 or the vendored sources are missing.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;

fn regalloc_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_regalloc"))
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .expect("the workspace")
}

fn vendor() -> PathBuf {
    workspace().join("bench/out/build/sources/vendor")
}

/// One run of a built program: its arguments and standard input.
struct Run {
    args: Vec<String>,
    stdin: Option<PathBuf>,
}

/// A program: C sources, clang flags, libraries to link, and its runs.
struct Program {
    name: &'static str,
    sources: Vec<PathBuf>,
    flags: Vec<String>,
    libs: &'static [&'static str],
    runs: Vec<Run>,
}

fn run_with(args: &[&str]) -> Run {
    Run {
        args: args.iter().map(|s| s.to_string()).collect(),
        stdin: None,
    }
}

/// The C files of `dir` named in `names`.
fn files(dir: &Path, names: &[&str]) -> Vec<PathBuf> {
    names.iter().map(|n| dir.join(format!("{n}.c"))).collect()
}

fn zlib() -> Program {
    let dir = vendor().join("libz-sys-1.1.31/src/zlib");
    let mut sources = files(
        &dir,
        &[
            "adler32", "compress", "crc32", "deflate", "gzclose", "gzlib", "gzread", "gzwrite",
            "infback", "inffast", "inflate", "inftrees", "trees", "uncompr", "zutil",
        ],
    );
    sources.push(workspace().join("tests/exec/zlib_driver.c"));
    Program {
        name: "zlib",
        flags: vec![
            "-DSTDC".into(),
            "-D_LARGEFILE64_SOURCE".into(),
            format!("-I{}", dir.display()),
        ],
        sources,
        libs: &[],
        runs: vec![run_with(&[])],
    }
}

fn bzip2() -> Program {
    let dir = vendor().join("bzip2-sys-0.1.13+1.0.8/bzip2-1.0.8");
    let sources = files(
        &dir,
        &[
            "blocksort",
            "huffman",
            "crctable",
            "randtable",
            "compress",
            "decompress",
            "bzlib",
            "bzip2",
        ],
    );
    // bzip2's own self-test (its Makefile's `test` target): compress each
    // sample at the block size its reference was made with, decompress
    // each reference, and decompress in small-memory mode.
    let mut runs = Vec::new();
    for (k, level) in [(1, "-1"), (2, "-2"), (3, "-3")] {
        runs.push(Run {
            args: vec![level.into(), "-c".into()],
            stdin: Some(dir.join(format!("sample{k}.ref"))),
        });
        runs.push(Run {
            args: vec!["-d".into(), "-c".into()],
            stdin: Some(dir.join(format!("sample{k}.bz2"))),
        });
    }
    runs.push(Run {
        args: vec!["-ds".into(), "-c".into()],
        stdin: Some(dir.join("sample3.bz2")),
    });
    Program {
        name: "bzip2",
        flags: vec!["-D_FILE_OFFSET_BITS=64".into()],
        sources,
        libs: &[],
        runs,
    }
}

fn lz4() -> Program {
    let dir = vendor().join("lz4-sys-1.11.1+lz4-1.10.0/liblz4/lib");
    let mut sources = files(&dir, &["lz4", "lz4hc", "lz4frame", "xxhash"]);
    sources.push(workspace().join("tests/exec/lz4_driver.c"));
    Program {
        name: "lz4",
        flags: vec![format!("-I{}", dir.display())],
        sources,
        libs: &[],
        runs: vec![run_with(&[])],
    }
}

fn lua() -> Program {
    let dir = vendor().join("lua-src-551.1.0/lua-5.4.9");
    let mut sources: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "c"))
                .collect()
        })
        .unwrap_or_default();
    sources.sort();
    sources.push(workspace().join("tests/exec/lua_driver.c"));
    let scripts = workspace().join("tests/exec/lua");
    let script = |n: &str| scripts.join(n).display().to_string();
    Program {
        name: "lua",
        flags: vec![
            "-DLUA_COMPAT_5_3".into(),
            "-DLUA_USE_LINUX".into(),
            format!("-I{}", dir.display()),
        ],
        sources,
        libs: &["-lm"],
        runs: vec![Run {
            args: vec![script("language.lua"), script("strings_tables.lua")],
            stdin: None,
        }],
    }
}

/// SQLite 3.46 (the amalgamation bundled by `libsqlite3-sys`, built with
/// that crate's defines) and a driver of ours; the full matrix only: one
/// 250,000-line file takes a while to compile at every configuration.
fn sqlite() -> Option<Program> {
    let dir = vendor().join("libsqlite3-sys-0.30.1/sqlite3");
    if !dir.is_dir() {
        println!(
            "SQLite not run: {} is missing (run bench/corpus/build)",
            dir.display()
        );
        return None;
    }
    let mut flags: Vec<String> = [
        "SQLITE_CORE",
        "SQLITE_DEFAULT_FOREIGN_KEYS=1",
        "SQLITE_ENABLE_API_ARMOR",
        "SQLITE_ENABLE_COLUMN_METADATA",
        "SQLITE_ENABLE_DBSTAT_VTAB",
        "SQLITE_ENABLE_FTS3",
        "SQLITE_ENABLE_FTS5",
        "SQLITE_ENABLE_RTREE",
        "SQLITE_ENABLE_STAT4",
        "SQLITE_SOUNDEX",
        "SQLITE_THREADSAFE=1",
        "SQLITE_USE_URI",
    ]
    .iter()
    .map(|d| format!("-D{d}"))
    .collect();
    flags.push(format!("-I{}", dir.display()));
    Some(Program {
        name: "sqlite",
        sources: vec![
            dir.join("sqlite3.c"),
            workspace().join("tests/exec/sqlite_driver.c"),
        ],
        flags,
        libs: &["-lm"],
        runs: vec![run_with(&[])],
    })
}

/// How a program is built: by clang alone (the reference), or through
/// `regalloc cc` with an allocator, a level, our allocator or LLVM's.
#[derive(Clone)]
struct Config {
    target: Target,
    allocator: &'static str,
    level: &'static str,
    control: bool,
    march: Option<&'static str>,
}

impl Config {
    fn label(&self) -> String {
        format!(
            "{} {}{} {}{}",
            self.target.name,
            if self.control { "llvm-" } else { "" },
            self.allocator,
            self.level,
            self.march
                .map(|m| format!(" -march={m}"))
                .unwrap_or_default()
        )
    }
}

/// A target the programs are built for and run on.
#[derive(Clone, Copy)]
struct Target {
    /// `regalloc cc --target`.
    name: &'static str,
    /// clang's `--target` for the reference build and the link.
    triple: &'static str,
    /// The command a program of this target runs under (empty: natively).
    runner: &'static [&'static str],
}

const X86: Target = Target {
    name: "x86",
    triple: "x86_64-linux-gnu",
    runner: &[],
};

const AARCH64: Target = Target {
    name: "aarch64",
    triple: "aarch64-linux-gnu",
    runner: &["qemu-aarch64", "-L", "/usr/aarch64-linux-gnu"],
};

fn full() -> bool {
    std::env::var("REGALLOC_EXEC").is_ok_and(|v| v == "full")
}

/// The targets to build for: x86-64 always; AArch64 in the full matrix when
/// qemu-user and the cross libc are there. `REGALLOC_EXEC_TARGETS` (a
/// comma-separated list of `x86`, `aarch64`) runs only those, so the two
/// halves of the full matrix, an hour or more each, can run apart.
fn targets() -> Vec<Target> {
    let mut t = vec![X86];
    if full() {
        if have("qemu-aarch64") && Path::new("/usr/aarch64-linux-gnu/lib").is_dir() {
            t.push(AARCH64);
        } else {
            println!(
                "AArch64 not run: needs qemu-user, gcc-aarch64-linux-gnu and libc6-dev-arm64-cross"
            );
        }
    }
    if let Ok(wanted) = std::env::var("REGALLOC_EXEC_TARGETS") {
        let wanted: Vec<&str> = wanted.split(',').map(str::trim).collect();
        for name in &wanted {
            assert!(
                [X86.name, AARCH64.name].contains(name),
                "REGALLOC_EXEC_TARGETS: unknown target `{name}` (expected x86 or aarch64)"
            );
        }
        t.retain(|target| wanted.contains(&target.name));
    }
    t
}

fn configs(target: Target) -> Vec<Config> {
    let ours = |allocator, level| Config {
        target,
        allocator,
        level,
        control: false,
        march: None,
    };
    let mut c = vec![
        ours("greedy", "-O2"),
        ours("basic", "-O2"),
        ours("pbqp", "-O2"),
        ours("linearscan", "-O2"),
        ours("fast", "-O2"),
        ours("fast", "-O0"),
    ];
    if full() {
        // LLVM 19 has no linear scan to be the control.
        for base in c
            .clone()
            .into_iter()
            .filter(|b| b.allocator != "linearscan")
        {
            c.push(Config {
                control: true,
                ..base
            });
        }
        for allocator in ["greedy", "basic", "pbqp", "linearscan", "fast"] {
            for control in [false, true] {
                if control && allocator == "linearscan" {
                    continue;
                }
                if target.name != "x86" {
                    continue;
                }
                c.push(Config {
                    target,
                    allocator,
                    level: "-O2",
                    control,
                    march: Some("x86-64-v3"),
                });
            }
        }
    }
    if let Ok(wanted) = std::env::var("REGALLOC_EXEC_ALLOCATORS") {
        let wanted: Vec<&str> = wanted.split(',').map(str::trim).collect();
        c.retain(|cfg| wanted.contains(&cfg.allocator));
    }
    c
}

fn have(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Runs `jobs` on up to `available_parallelism` threads; the first error
/// (in job order) wins.
fn parallel<T: Send>(
    jobs: Vec<T>,
    work: impl Fn(T) -> Result<(), String> + Sync,
) -> Result<(), String> {
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let queue = Mutex::new(jobs.into_iter().enumerate().collect::<Vec<_>>());
    let errors = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                loop {
                    let Some((i, job)) = queue.lock().expect("queue").pop() else {
                        break;
                    };
                    if let Err(e) = work(job) {
                        errors.lock().expect("errors").push((i, e));
                    }
                }
            });
        }
    });
    let mut errors = errors.into_inner().expect("errors");
    errors.sort_by_key(|(i, _)| *i);
    match errors.into_iter().next() {
        Some((_, e)) => Err(e),
        None => Ok(()),
    }
}

/// Compiles every source of `p` for `target` (through `regalloc cc` unless
/// `config` is `None`: then clang-19 -O2 alone) and links the program into
/// `dir`.
fn build(
    p: &Program,
    target: Target,
    config: Option<&Config>,
    dir: &Path,
) -> Result<PathBuf, String> {
    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    let objects: Vec<PathBuf> = p
        .sources
        .iter()
        .map(|s| {
            dir.join(s.file_stem().expect("a file name"))
                .with_extension("o")
        })
        .collect();
    let jobs: Vec<(&PathBuf, &PathBuf)> = p.sources.iter().zip(&objects).collect();
    parallel(jobs, |(source, object)| {
        let mut cmd = match config {
            None => {
                let mut c = Command::new("clang-19");
                c.arg(format!("--target={}", target.triple));
                c.args(["-O2", "-w", "-c"]).args(&p.flags);
                c
            }
            Some(cfg) => {
                let mut c = Command::new(regalloc_bin());
                c.args([
                    "cc",
                    "--target",
                    target.name,
                    "--allocator",
                    cfg.allocator,
                    cfg.level,
                ]);
                if cfg.control {
                    c.arg("--control");
                }
                c.arg(source).arg("-o").arg(object).arg("--").args(&p.flags);
                if let Some(m) = cfg.march {
                    c.arg(format!("-march={m}"));
                }
                c
            }
        };
        if config.is_none() {
            cmd.arg(source).arg("-o").arg(object);
        }
        let o = cmd.output().map_err(|e| format!("cannot run: {e}"))?;
        if o.status.success() {
            Ok(())
        } else {
            Err(format!(
                "{} failed to build {}:\n{}",
                p.name,
                source.display(),
                String::from_utf8_lossy(&o.stderr)
            ))
        }
    })?;
    let exe = dir.join(p.name);
    let o = Command::new("clang-19")
        .arg(format!("--target={}", target.triple))
        .args(&objects)
        .args(p.libs)
        .arg("-o")
        .arg(&exe)
        .output()
        .map_err(|e| format!("cannot run clang-19: {e}"))?;
    if !o.status.success() {
        return Err(format!(
            "linking {}: {}",
            p.name,
            String::from_utf8_lossy(&o.stderr)
        ));
    }
    Ok(exe)
}

/// What one run showed the world: its exit status and standard output.
#[derive(PartialEq, Eq)]
struct Observed {
    status: Option<i32>,
    stdout: Vec<u8>,
}

fn execute(target: Target, exe: &Path, run: &Run, cwd: &Path) -> Result<Observed, String> {
    let mut cmd = match target.runner.split_first() {
        Some((program, args)) => {
            let mut c = Command::new(program);
            c.args(args).arg(exe);
            c
        }
        None => Command::new(exe),
    };
    cmd.args(&run.args).current_dir(cwd);
    match &run.stdin {
        Some(p) => {
            let f = std::fs::File::open(p).map_err(|e| format!("{}: {e}", p.display()))?;
            cmd.stdin(Stdio::from(f));
        }
        None => {
            cmd.stdin(Stdio::null());
        }
    }
    let o = cmd
        .output()
        .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    Ok(Observed {
        status: o.status.code(),
        stdout: o.stdout,
    })
}

/// The first line where two outputs differ, for the failure message.
/// The first line of a (long) failure message.
fn first_line(message: &str) -> &str {
    message.lines().next().unwrap_or("")
}

fn first_difference(a: &[u8], b: &[u8]) -> String {
    let (a, b) = (String::from_utf8_lossy(a), String::from_utf8_lossy(b));
    for (k, (x, y)) in a.lines().zip(b.lines()).enumerate() {
        if x != y {
            return format!("line {}: expected `{x}`, got `{y}`", k + 1);
        }
    }
    format!(
        "lengths differ: {} bytes expected, {} got",
        a.len(),
        b.len()
    )
}

#[test]
fn programs_built_through_our_allocators_run_as_clangs_build() {
    if !cfg!(target_arch = "x86_64") || !have("clang-19") || !have("llc-19") {
        println!("skipped: needs clang-19 and llc-19 on an x86-64 host");
        return;
    }
    if !vendor().is_dir() {
        println!(
            "skipped: no vendored sources at {} (run bench/corpus/build)",
            vendor().display()
        );
        return;
    }
    let root = tempfile::tempdir().expect("a temporary directory");
    let mut programs = vec![zlib(), bzip2(), lz4(), lua()];
    if full() {
        programs.extend(sqlite());
    }
    if let Ok(wanted) = std::env::var("REGALLOC_EXEC_PROGRAMS") {
        let wanted: Vec<&str> = wanted.split(',').map(str::trim).collect();
        for name in &wanted {
            assert!(
                programs.iter().any(|p| p.name == *name),
                "REGALLOC_EXEC_PROGRAMS: unknown program `{name}` (expected one of zlib, bzip2, lz4, lua{})",
                if full() { ", sqlite" } else { "" }
            );
        }
        programs.retain(|p| wanted.contains(&p.name));
    }
    let mut failures = Failures::default();
    for target in targets() {
        for p in &programs {
            run_program(p, target, root.path(), &mut failures);
        }
    }
    if !failures.control.is_empty() {
        println!(
            "LLVM's own allocation through the same split pipeline (the control) failed in {} \
             configuration(s); these tell what the pipeline cannot carry, not what our \
             allocators do:\n  {}",
            failures.control.len(),
            failures.control.join("\n  ")
        );
    }
    if !failures.pipeline.is_empty() {
        println!(
            "Our allocation failed where LLVM's own fails the same run through the same split \
             pipeline ({} configuration(s)); the pipeline breaks these programs:\n  {}",
            failures.pipeline.len(),
            failures.pipeline.join("\n  ")
        );
    }
    assert!(failures.ours.is_empty(), "{}", failures.ours.join("\n"));
}

/// The configurations whose builds or runs failed: ours fail the test;
/// the control's (LLVM's allocators through the same split pipeline) are
/// reported: they say what the split pipeline cannot carry (LLVM 19's
/// fast allocator on -O2 code leaves code its own verifier rejects, as in
/// zlib's `inflate` and bzip2's `BZ2_blockSort` at `-march=x86-64-v3`).
///
/// A run of ours that fails where the control fails the same run is
/// counted apart too (`pipeline`), and named in the output.
#[derive(Default)]
struct Failures {
    ours: Vec<String>,
    control: Vec<String>,
    pipeline: Vec<String>,
}

/// Builds `p` for `target` with clang alone and with every configuration,
/// runs each build, and notes every configuration whose runs differ.
fn run_program(p: &Program, target: Target, root: &Path, failures: &mut Failures) {
    let base = root.join(target.name).join(p.name);
    let reference = build(p, target, None, &base.join("clang"))
        .unwrap_or_else(|e| panic!("the reference build failed: {e}"));
    let expected: Vec<Observed> = p
        .runs
        .iter()
        .map(|r| execute(target, &reference, r, root).expect("the reference runs"))
        .collect();
    assert!(
        expected.iter().all(|o| o.status == Some(0)),
        "{} {}: the reference build fails its own runs",
        target.name,
        p.name
    );
    let verdicts: Vec<(Config, Result<(), Failure>)> = configs(target)
        .into_iter()
        .map(|cfg| {
            let dir = base.join(cfg.label().replace([' ', '='], "_"));
            let verdict = build_and_run(p, target, &cfg, &dir, &expected, root);
            (cfg, verdict)
        })
        .collect();
    for (cfg, verdict) in &verdicts {
        let e = match verdict {
            Ok(()) => {
                println!(
                    "{:<6} {:<36} {} run(s) identical to clang-19 -O2's",
                    p.name,
                    cfg.label(),
                    p.runs.len()
                );
                continue;
            }
            Err(e) => e,
        };
        println!("{:<6} {:<36} FAILED: {}", p.name, cfg.label(), e.text);
        let line = format!("{} {}: {}", p.name, cfg.label(), first_line(&e.text));
        if cfg.control {
            failures.control.push(line);
        } else if control_fails_alike(&verdicts, cfg, e) {
            failures.pipeline.push(line);
        } else {
            failures
                .ours
                .push(format!("{} {}: {}", p.name, cfg.label(), e.text));
        }
    }
}

/// Why a configuration failed: its build, or run `run` of its program.
struct Failure {
    run: Option<usize>,
    text: String,
}

/// Builds `p` with `cfg` in `dir` and runs it, comparing every run with
/// `expected` (the clang build's).
fn build_and_run(
    p: &Program,
    target: Target,
    cfg: &Config,
    dir: &Path,
    expected: &[Observed],
    root: &Path,
) -> Result<(), Failure> {
    let exe = build(p, target, Some(cfg), dir).map_err(|text| Failure { run: None, text })?;
    for (k, (run, want)) in p.runs.iter().zip(expected).enumerate() {
        let failed = |text| Failure { run: Some(k), text };
        let got = execute(target, &exe, run, root).map_err(failed)?;
        if got != *want {
            return Err(failed(format!(
                "run {k} ({}): exit {:?} (expected {:?}); {}",
                run.args.join(" "),
                got.status,
                want.status,
                first_difference(&want.stdout, &got.stdout)
            )));
        }
    }
    Ok(())
}

/// Whether LLVM's own allocator, in the same configuration through the
/// same split pipeline, fails the same run of a build that `ours` also
/// fails at run time: then the pipeline, not our allocator, breaks the
/// program (AArch64's local stack block, which MIR does not carry, in
/// SQLite at -O2). A build failure of ours is never excused this way.
fn control_fails_alike(
    verdicts: &[(Config, Result<(), Failure>)],
    ours: &Config,
    failure: &Failure,
) -> bool {
    failure.run.is_some()
        && verdicts.iter().any(|(cfg, verdict)| {
            cfg.control
                && cfg.allocator == ours.allocator
                && cfg.level == ours.level
                && cfg.march == ours.march
                && matches!(verdict, Err(f) if f.run == failure.run)
        })
}
