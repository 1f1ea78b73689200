//! A CLI-level fuzz target, bounded in time: mutated MIR through `regalloc alloc --check`, judged by its exit status, by the `-o` file it leaves, and by llc-19's verifier on what it accepts.
//!
//! Seeds are the bundled MIR files (a BPF function, the x86 reproducers of
//! `tests/data/`, the tutorial's toy function) and, when the corpus is
//! built, a few single functions of each target's lz4 build. Each mutant
//! gets one to three text mutations (lines deleted, duplicated or swapped,
//! registers, classes, opcodes and numbers exchanged, characters inserted
//! or deleted, the text cut short) and is allocated by one of the three
//! allocators with the checker on. The oracle:
//!
//! - the process ends by itself within [`RUN_TIMEOUT`] with status 0, 1 or
//!   2 (never a signal, an abort or a panic's 101), and says no `panicked`;
//! - a run that fails leaves no `-o` file (nor a partial one);
//! - when llc-19 is installed and accepts the mutant
//!   (`-run-pass=none -verify-machineinstrs`), an accepted allocation is
//!   accepted by it too.
//!
//! The default run takes at most [`DEFAULT_SECONDS`] seconds and
//! [`DEFAULT_RUNS`] mutants from a fixed seed, so that `cargo test` (and
//! CI, which runs it) explores the same mutants every time. A longer campaign: `REGALLOC_FUZZ_SECONDS=600
//! REGALLOC_FUZZ_SEED=$RANDOM cargo test --release -p regalloc-cli --test
//! fuzz_cli -- --nocapture`. Findings are kept under the test's target
//! temporary directory and named in the failure.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long the default run fuzzes.
const DEFAULT_SECONDS: u64 = 8;

/// At most this many mutants in the default run, so that a fast machine
/// does not wander past the mutants this run was checked on.
const DEFAULT_RUNS: u64 = 40;

/// The seed of the default run (the issue that asked for this target).
const DEFAULT_SEED: u64 = 29;

/// A run that takes longer than this is a hang (every seed allocates in
/// well under a second).
const RUN_TIMEOUT: Duration = Duration::from_secs(20);

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .expect("the workspace")
}

/// splitmix64: a small, seedable generator (no dependency, same stream
/// everywhere).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n` (`n` > 0).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        (!items.is_empty()).then(|| &items[self.below(items.len())])
    }
}

/// A file to mutate: its text, the `--target` to allocate it with and the
/// llc flags that verify it (none for a target llc does not know).
struct Seed {
    name: String,
    text: String,
    target: String,
    llc_flags: Option<&'static [&'static str]>,
}

const BPF_LLC: &[&str] = &["-mtriple=bpf", "-mcpu=v3"];
const X86_LLC: &[&str] = &["-mtriple=x86_64-linux-gnu", "-relocation-model=pic"];
const AARCH64_LLC: &[&str] = &["-mtriple=aarch64-linux-gnu", "-relocation-model=pic"];
const HEXAGON_LLC: &[&str] = &["-mtriple=hexagon"];

fn seeds() -> Vec<Seed> {
    let root = workspace();
    let read = |p: &str| std::fs::read_to_string(root.join(p)).expect("a bundled seed");
    let mut seeds = vec![
        Seed {
            name: "lz4_attach_dictionary".into(),
            text: read("examples/bpf/lz4_attach_dictionary.mir"),
            target: "bpf".into(),
            llc_flags: Some(BPF_LLC),
        },
        Seed {
            name: "toy-sum".into(),
            text: read("docs/toy/sum.mir"),
            target: root.join("docs/toy/toy.td").display().to_string(),
            llc_flags: None,
        },
    ];
    for f in [
        "jt.in.mir",
        "jumptable-lua_rawlen.in.mir",
        "x86-v3-vr256-spill.in.mir",
    ] {
        seeds.push(Seed {
            name: f.into(),
            text: read(&format!("tests/data/{f}")),
            target: "x86".into(),
            llc_flags: Some(X86_LLC),
        });
    }
    for (dir, target, flags) in [
        ("bpf", "bpf", BPF_LLC),
        ("x86_64", "x86", X86_LLC),
        ("aarch64", "aarch64", AARCH64_LLC),
        ("hexagon", "hexagon", HEXAGON_LLC),
    ] {
        let path = root.join(format!("bench/out/corpus/{dir}/O2/lz4/lz4.mir"));
        if let Ok(text) = std::fs::read_to_string(&path) {
            for (k, one) in single_functions(&text, 3).into_iter().enumerate() {
                seeds.push(Seed {
                    name: format!("{dir}-lz4-{k}"),
                    text: one,
                    target: target.into(),
                    llc_flags: Some(flags),
                });
            }
        }
    }
    seeds
}

/// Up to `count` files of one function each (with the file's IR module,
/// which llc needs), of the sizes at the quartiles of the file's
/// functions: small enough to allocate and verify quickly, large enough to
/// spill.
fn single_functions(text: &str, count: usize) -> Vec<String> {
    let mut docs = text.split("\n---\n");
    let Some(module) = docs.next() else {
        return Vec::new();
    };
    let mut functions: Vec<&str> = docs.filter(|d| d.contains("\nbody:")).collect();
    functions.sort_by_key(|d| d.len());
    (1..=count)
        .filter_map(|q| functions.get(functions.len() * q / (count + 1)))
        .map(|f| {
            let mut one = format!("{module}\n---\n{f}");
            if !one.ends_with('\n') {
                one.push('\n');
            }
            one
        })
        .collect()
}

/// Words of `text` that start with `sigil` followed by a word character
/// (`%5`, `$r1`, `:gpr`): the vocabulary mutations exchange.
fn words_after(text: &str, sigil: char) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(sigil) {
        let tail = &rest[at + sigil.len_utf8()..];
        let len = tail
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(tail.len());
        if len > 0 {
            out.push(format!("{sigil}{}", &tail[..len]));
        }
        rest = tail;
    }
    out.sort();
    out.dedup();
    out
}

/// Opcode-like words: upper-case identifiers right after ` = ` or at the
/// start of an instruction line.
fn opcodes(body: &str) -> Vec<String> {
    let mut out: Vec<String> = body
        .lines()
        .filter_map(|l| {
            let l = l.trim_start();
            let inst = l.rsplit_once(" = ").map_or(l, |(_, r)| r);
            let word: String = inst
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            (word.len() > 1 && word.chars().next().is_some_and(|c| c.is_ascii_uppercase()))
                .then_some(word)
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Numbers a mutation writes: edges of the small integers, of what fits a
/// register's bits, and of virtual register numbers (llc takes up to
/// 4294967294; the reader's memory must follow the registers used).
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "-1",
    "7",
    "31",
    "32",
    "63",
    "64",
    "255",
    "256",
    "4095",
    "65535",
    "-32768",
    "2147483647",
    "-2147483648",
    "20000000",
    "4294967294",
    "4294967295",
    "9223372036854775807",
];

/// Characters an insertion writes: MIR's punctuation and sigils.
const CHARACTERS: &[char] = &[
    '%', '$', ',', ':', '(', ')', '{', '}', '[', ']', '\'', '"', ' ', '\n', '-', '.', '@', '#',
    '0', 'x',
];

/// The byte offset where the first function's document starts (after the
/// IR module, which the mutations leave alone: llc would reject the whole
/// file for an IR error, and the IR is not what is fuzzed here).
fn body_start(text: &str) -> usize {
    if text.starts_with("--- |") {
        text.find("\n---\n").map_or(0, |at| at + 1)
    } else {
        0
    }
}

/// `text` with one mutation applied to its function documents.
fn mutate(rng: &mut Rng, text: &str) -> String {
    let start = body_start(text);
    let (head, body) = text.split_at(start);
    let mut lines: Vec<String> = body.lines().map(str::to_string).collect();
    if lines.is_empty() {
        return text.to_string();
    }
    let line = rng.below(lines.len());
    // A word of `vocabulary` in a line that has one becomes another.
    let exchange = |rng: &mut Rng, lines: &mut Vec<String>, vocabulary: Vec<String>| {
        let having: Vec<usize> = (0..lines.len())
            .filter(|&k| vocabulary.iter().any(|w| lines[k].contains(w.as_str())))
            .collect();
        let Some(&at) = rng.pick(&having) else {
            return;
        };
        let present: Vec<String> = vocabulary
            .iter()
            .filter(|w| lines[at].contains(w.as_str()))
            .cloned()
            .collect();
        if let (Some(from), Some(to)) = (rng.pick(&present).cloned(), rng.pick(&vocabulary)) {
            lines[at] = lines[at].replacen(&from, to, 1);
        }
    };
    match rng.below(10) {
        0 => {
            lines.remove(line);
        }
        1 => {
            let copy = lines[line].clone();
            lines.insert(rng.below(lines.len() + 1), copy);
        }
        2 => {
            let other = rng.below(lines.len());
            lines.swap(line, other);
        }
        3 => exchange(rng, &mut lines, words_after(body, '%')),
        4 => exchange(rng, &mut lines, words_after(body, '$')),
        5 => exchange(rng, &mut lines, words_after(body, ':')),
        6 => exchange(rng, &mut lines, opcodes(body)),
        7 => {
            // A number in a line that has one becomes another.
            let having: Vec<usize> = (0..lines.len())
                .filter(|&k| lines[k].contains(|c: char| c.is_ascii_digit()))
                .collect();
            let line = rng.pick(&having).copied().unwrap_or(line);
            let l = &lines[line];
            let digits: Vec<usize> = l
                .char_indices()
                .filter(|&(i, c)| {
                    // The start of a number (virtual register numbers
                    // included: a huge one must cost no more than a small).
                    c.is_ascii_digit() && (i == 0 || !l.as_bytes()[i - 1].is_ascii_alphanumeric())
                })
                .map(|(i, _)| i)
                .collect();
            if let Some(&at) = rng.pick(&digits) {
                let end = l[at..]
                    .find(|c: char| !c.is_ascii_digit())
                    .map_or(l.len(), |e| at + e);
                let to = rng.pick(NUMBERS).expect("numbers");
                lines[line] = format!("{}{to}{}", &l[..at], &l[end..]);
            }
        }
        8 => {
            // A character inserted or deleted.
            let l = &mut lines[line];
            let boundaries: Vec<usize> = (0..=l.len()).filter(|&i| l.is_char_boundary(i)).collect();
            let at = *rng.pick(&boundaries).expect("a boundary");
            if rng.below(2) == 0 || at == l.len() {
                l.insert(at, *rng.pick(CHARACTERS).expect("characters"));
            } else {
                l.remove(at);
            }
        }
        _ => {
            // The text cut short.
            lines.truncate(line.max(1));
            let mut cut = format!("{head}{}", lines.join("\n"));
            if rng.below(2) == 0 {
                cut.push('\n');
            }
            return cut;
        }
    }
    format!("{head}{}\n", lines.join("\n"))
}

/// What a run of the command did.
struct Run {
    status: Option<i32>,
    stderr: String,
    timed_out: bool,
}

/// Runs `program args` in `dir`, killing it after [`RUN_TIMEOUT`].
fn run_bounded(program: &Path, args: &[String], dir: &Path) -> Run {
    let mut child = Command::new(program)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the command starts");
    let mut stderr_pipe = child.stderr.take().expect("stderr is piped");
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr_pipe, &mut s);
        s
    });
    let start = Instant::now();
    let mut timed_out = false;
    let status = loop {
        if let Some(st) = child.try_wait().expect("wait") {
            break st;
        }
        if start.elapsed() > RUN_TIMEOUT {
            timed_out = true;
            let _ = child.kill();
            break child.wait().expect("wait after kill");
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    Run {
        status: status.code(),
        stderr: reader.join().unwrap_or_default(),
        timed_out,
    }
}

/// Whether llc-19 parses and verifies `file` (with `flags`).
fn llc_accepts(flags: &[&str], file: &Path) -> bool {
    Command::new("llc-19")
        .args([
            "-O0",
            "-run-pass=none",
            "-verify-machineinstrs",
            "-o",
            "/dev/null",
        ])
        .args(flags)
        .arg(file)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn llc_present() -> bool {
    Command::new("llc-19")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// What the oracle finds wrong with one run, if anything.
fn judge(run: &Run, dir: &Path) -> Option<String> {
    if run.timed_out {
        return Some(format!("no end within {RUN_TIMEOUT:?}"));
    }
    match run.status {
        Some(0..=2) => {}
        Some(code) => return Some(format!("exit status {code}")),
        None => return Some("ended by a signal".into()),
    }
    if run.stderr.contains("panicked") {
        return Some("a panic".into());
    }
    let left: Vec<String> = std::fs::read_dir(dir)
        .expect("the run's directory")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n != "in.mir")
        .collect();
    match run.status {
        Some(0) if left != ["out.mir"] => Some(format!("a successful run left {left:?}")),
        Some(1 | 2) if !left.is_empty() => Some(format!("a failing run left {left:?}")),
        _ => None,
    }
}

#[test]
fn mutated_mir_through_alloc_check_never_crashes_and_what_it_accepts_verifies() {
    let seconds = std::env::var("REGALLOC_FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(DEFAULT_SECONDS);
    // A campaign (REGALLOC_FUZZ_SECONDS given) runs until its time is up.
    let max_runs = match std::env::var("REGALLOC_FUZZ_SECONDS") {
        Ok(_) => u64::MAX,
        Err(_) => DEFAULT_RUNS,
    };
    let seed = std::env::var("REGALLOC_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(DEFAULT_SEED);
    let seeds = seeds();
    let llc = llc_present();
    if !llc {
        println!("notice: llc-19 not found; accepted output is not verified");
    }
    let regalloc = PathBuf::from(env!("CARGO_BIN_EXE_regalloc"));
    let findings_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz_cli");
    let mut rng = Rng(seed);
    let mut findings = Vec::new();
    let (mut runs, mut accepted, mut verified) = (0u64, 0u64, 0u64);
    let deadline = Instant::now() + Duration::from_secs(seconds);
    while Instant::now() < deadline && runs < max_runs && findings.len() < 5 {
        let s = &seeds[rng.below(seeds.len())];
        let mut text = s.text.clone();
        for _ in 0..=rng.below(3) {
            text = mutate(&mut rng, &text);
        }
        let allocator = ["fast", "basic", "greedy"][rng.below(3)];
        let dir = tempfile::tempdir().expect("a temporary directory");
        let input = dir.path().join("in.mir");
        std::fs::write(&input, &text).expect("write the mutant");
        let args: Vec<String> = [
            "alloc",
            "--target",
            &s.target,
            "--allocator",
            allocator,
            "--check",
            "in.mir",
            "-o",
            "out.mir",
        ]
        .map(String::from)
        .to_vec();
        let run = run_bounded(&regalloc, &args, dir.path());
        runs += 1;
        let mut wrong = judge(&run, dir.path());
        if wrong.is_none()
            && run.status == Some(0)
            && llc
            && let Some(flags) = s.llc_flags
        {
            accepted += 1;
            // Only input LLVM itself takes is held to LLVM's verdict.
            if llc_accepts(flags, &input) {
                verified += 1;
                if !llc_accepts(flags, &dir.path().join("out.mir")) {
                    wrong = Some("llc-19 -verify-machineinstrs rejects the allocated MIR".into());
                }
            }
        }
        if let Some(what) = wrong {
            std::fs::create_dir_all(&findings_dir).expect("the findings directory");
            let kept = findings_dir.join(format!("{}-{seed}-{runs}.mir", s.name));
            std::fs::write(&kept, &text).expect("keep the finding");
            findings.push(format!(
                "{what}: regalloc {} (input kept as {}); stderr:\n{}",
                args.join(" ")
                    .replace("in.mir", &kept.display().to_string()),
                kept.display(),
                run.stderr.lines().take(12).collect::<Vec<_>>().join("\n")
            ));
        }
    }
    println!(
        "fuzz_cli: seed {seed}, {seconds} s, {} seeds: {runs} runs, {accepted} accepted, {verified} of them on input llc accepts, all verified; {} findings",
        seeds.len(),
        findings.len()
    );
    assert!(runs > 0, "at least one mutant ran");
    assert!(findings.is_empty(), "{}", findings.join("\n\n"));
}

#[test]
fn mutations_change_the_text_and_keep_the_ir_module() {
    // The mutator itself: every operator applies to a real seed, none
    // touches the IR module, and the stream depends on the seed alone.
    let seeds = seeds();
    let s = &seeds[0];
    let start = body_start(&s.text);
    assert!(start > 0, "the BPF example has an IR module");
    let mut rng = Rng(DEFAULT_SEED);
    let mut changed = 0;
    for _ in 0..200 {
        let m = mutate(&mut rng, &s.text);
        assert!(m.starts_with(&s.text[..start]), "the IR module is kept");
        changed += usize::from(m != s.text);
    }
    assert!(
        changed > 150,
        "{changed} of 200 mutants differ from the seed"
    );
    let (mut a, mut b) = (Rng(7), Rng(7));
    assert_eq!(mutate(&mut a, &s.text), mutate(&mut b, &s.text));
}
