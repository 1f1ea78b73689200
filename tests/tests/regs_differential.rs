//! Register semantics, differential: tdgen's facts against llvm-tblgen-19's.
//!
//! For each register description, the oracle is `llvm-tblgen-19
//! -gen-register-info` (plus `-dump-json` for the curated descriptions) and
//! `../shared/oracle/facts.py` (see `regalloc_tests::regs_oracle`); tdgen's
//! side is computed in-process: `Loader` -> `TargetModel::build` ->
//! `target::facts::to_json`. The CORE keys (oracle README) must be equal.
//!
//! 1. `corpus_agrees_with_llvm_tblgen`: every `regs/*.td`.
//! 2. `targets_agree_with_llvm_tblgen`: the four `../targets/<t>/registers.td`
//!    through `../targets/oracle/<t>-top.td`.
//! 3. `generated_agree_with_llvm_tblgen`: 200 descriptions from
//!    `regalloc_tests::regs_gen`, seeded by the run (the seed is printed;
//!    `REGS_SEED=n` reproduces a run, `REGS_CASES=n` changes the count).
//!    Generated cases llvm-tblgen rejects, or that it or facts.py cannot
//!    finish, are skipped and counted (the generator aims for none).
//! 4. `preludes_give_identical_facts`: each description evaluated by tdgen
//!    with LLVM's Target.td and with our `tdgen/prelude/regalloc.td` gives
//!    identical facts (all keys, not only the core ones).
//! 5. `err_corpus_rejected_with_snapshots`: each `regs/err/*.td` is rejected
//!    by llvm-tblgen-19 (unless marked `llvm-tblgen-19 accepts this`, see
//!    `regs_prelude.rs`) and by tdgen (the loader or `TargetModel::build`
//!    returns `Err`) under both preludes; the diagnostics rendered under our
//!    prelude must equal `regs/err/NAME.stderr` (`TDGEN_BLESS=1` writes the
//!    snapshots; a missing snapshot fails). Scratch paths in the rendering
//!    are replaced by `<tmp>`.
//!
//! Output: `N/N descriptions agree` per test and, for a mismatch, the first
//! differing fact path (array entries annotated with their names) with both
//! values. Without LLVM 19 or facts.py the oracle tests print a skip notice
//! and pass, unless `CI` is set.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use regalloc_tests::regs_gen;
use regalloc_tests::regs_oracle::{
    LLVM_PRELUDE, OUR_PRELUDE, Oracle, OracleError, first_core_difference, llvm_accepts_marker,
    our_prelude_dir, require_facts_py, scratch_dir, top_text,
};
use regalloc_tests::{
    catch_quietly, enter_tests_dir, first_lines, json_diffs, require_llvm_include_dir,
    require_llvm_tool, run_tool, shorten, td_files,
};
use serde_json::Value;

const REGS_DIR: &str = "regs";
const ERR_DIR: &str = "regs/err";
const TARGETS: &[(&str, &str)] = &[
    ("bpf", "BPF"),
    ("aarch64", "AArch64"),
    ("x86", "X86"),
    ("hexagon", "Hexagon"),
];
const GENERATED_CASES: usize = 200;
/// Generated cases compared under both preludes in `preludes_give_identical_facts`.
const GENERATED_PRELUDE_CASES: usize = 20;
/// How long tdgen may take on one description before the case fails.
const TDGEN_LIMIT: Duration = Duration::from_secs(120);

fn oracle() -> Option<(Oracle, PathBuf)> {
    let tblgen = require_llvm_tool("llvm-tblgen")?;
    let include = require_llvm_include_dir()?;
    let facts_py = require_facts_py()?;
    Some((
        Oracle {
            tblgen,
            facts_py,
            limit: Duration::from_secs(60),
        },
        include,
    ))
}

/// tdgen's facts for `top`, or why there are none (rendered diagnostics, a
/// panic, or a time-out).
fn tdgen_facts(top: &Path, includes: &[&Path]) -> Result<Value, String> {
    match tdgen_outcome(top, includes) {
        TdgenOutcome::Facts(v) => Ok(v),
        TdgenOutcome::Rejected(text) => {
            Err(format!("tdgen rejected it:\n{}", first_lines(&text, 12)))
        }
        TdgenOutcome::Failed(e) => Err(e),
    }
}

/// What tdgen made of a description.
enum TdgenOutcome {
    Facts(Value),
    Rejected(String),
    Failed(String),
}

/// Runs tdgen on its own thread, so that a hang fails the case instead of the run.
fn tdgen_outcome(top: &Path, includes: &[&Path]) -> TdgenOutcome {
    let top = top.to_path_buf();
    let includes: Vec<PathBuf> = includes.iter().map(|p| p.to_path_buf()).collect();
    let (send, recv) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let outcome = catch_quietly(|| {
            let mut loader = tdgen::Loader::new();
            for dir in &includes {
                loader.include_dir(dir);
            }
            let rk = match loader.records(&top) {
                Ok(rk) => rk,
                Err(diags) => return TdgenOutcome::Rejected(loader.render(&diags)),
            };
            match tdgen::target::TargetModel::build(&rk) {
                Ok(model) => TdgenOutcome::Facts(tdgen::target::facts::to_json(&model)),
                Err(diags) => TdgenOutcome::Rejected(loader.render(&diags)),
            }
        });
        let _ = send.send(
            outcome.unwrap_or_else(|msg| TdgenOutcome::Failed(format!("tdgen panicked: {msg}"))),
        );
    });
    match recv.recv_timeout(TDGEN_LIMIT) {
        Ok(outcome) => outcome,
        Err(_) => TdgenOutcome::Failed(format!(
            "tdgen did not finish within {} s",
            TDGEN_LIMIT.as_secs()
        )),
    }
}

/// One description to compare.
#[derive(Clone)]
struct Case {
    label: String,
    /// The directory holding the description (an include directory).
    dir: PathBuf,
    /// The description's file name.
    file: String,
    target: String,
    /// Ask facts.py to read `-dump-json` too.
    with_json: bool,
}

fn corpus_cases() -> Vec<Case> {
    td_files(REGS_DIR)
        .into_iter()
        .map(|f| {
            let p = Path::new(&f);
            Case {
                label: f.clone(),
                dir: p.parent().expect("in regs/").to_path_buf(),
                file: p
                    .file_name()
                    .expect("a file")
                    .to_string_lossy()
                    .into_owned(),
                target: "T".to_string(),
                with_json: true,
            }
        })
        .collect()
}

fn target_cases() -> Vec<Case> {
    TARGETS
        .iter()
        .map(|(dir, target)| Case {
            label: format!("targets/{dir}/registers.td"),
            dir: Path::new("..").join("targets").join(dir),
            file: "registers.td".to_string(),
            target: target.to_string(),
            with_json: true,
        })
        .collect()
}

/// The run's seed: `REGS_SEED`, else from the clock.
fn run_seed() -> u64 {
    match std::env::var("REGS_SEED") {
        Ok(s) => s
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("REGS_SEED must be a number, not {s:?}")),
        Err(_) => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64 % 1_000_000_007)
            .unwrap_or(1),
    }
}

/// Writes generated descriptions `gen-<i>.td` into `dir`; returns their cases.
fn generated_cases(dir: &Path, seed: u64, count: usize) -> Vec<Case> {
    (0..count)
        .map(|i| {
            let case_seed = regs_gen::case_seed(seed, i as u64);
            let file = format!("gen-{i}.td");
            std::fs::write(dir.join(&file), regs_gen::generate(case_seed))
                .unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
            Case {
                label: format!("generated #{i} (regs_gen::generate({case_seed}))"),
                dir: dir.to_path_buf(),
                file,
                target: "T".to_string(),
                with_json: false,
            }
        })
        .collect()
}

/// What comparing one case gave.
enum Verdict {
    Agree,
    Differ(String),
    /// The oracle had no facts (only tolerated for generated cases).
    NoOracle(OracleError),
}

fn compare(
    oracle: &Oracle,
    llvm_include: &Path,
    work: &Path,
    index: usize,
    case: &Case,
    top: Option<&Path>,
) -> Verdict {
    let top = match top {
        Some(t) => t.to_path_buf(),
        None => {
            let t = work.join(format!("top-{index}.td"));
            std::fs::write(&t, top_text(LLVM_PRELUDE, &case.file, &case.target))
                .unwrap_or_else(|e| panic!("{}: {e}", t.display()));
            t
        }
    };
    let includes: [&Path; 2] = [llvm_include, &case.dir];
    let expected = match oracle.facts(
        &top,
        &case.target,
        &includes,
        work,
        &format!("o{index}"),
        case.with_json,
    ) {
        Ok(v) => v,
        Err(e) => return Verdict::NoOracle(e),
    };
    let actual = match tdgen_facts(&top, &includes) {
        Ok(v) => v,
        Err(e) => return Verdict::Differ(e),
    };
    match first_core_difference(&expected, &actual) {
        None => Verdict::Agree,
        Some(d) => Verdict::Differ(format!("first differing fact {d}")),
    }
}

/// Compares every case on a few worker threads; returns (agreed, failures, skipped).
fn compare_all(
    oracle: &Oracle,
    llvm_include: &Path,
    work: &Path,
    cases: &[Case],
    tops: Option<&[PathBuf]>,
    tolerate_oracle_failure: bool,
) -> (usize, Vec<String>, Vec<String>) {
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    let skipped = Mutex::new(Vec::new());
    let agreed = AtomicUsize::new(0);
    let workers = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2)
        .clamp(1, 4);
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(case) = cases.get(i) else { break };
                    let top = tops.map(|t| t[i].as_path());
                    match compare(oracle, llvm_include, work, i, case, top) {
                        Verdict::Agree => {
                            agreed.fetch_add(1, Ordering::Relaxed);
                        }
                        Verdict::Differ(d) => failures
                            .lock()
                            .unwrap()
                            .push((i, format!("{}: {}", case.label, indent(&d)))),
                        Verdict::NoOracle(e) if tolerate_oracle_failure => skipped
                            .lock()
                            .unwrap()
                            .push((i, format!("{}: {e}", case.label))),
                        Verdict::NoOracle(e) => failures.lock().unwrap().push((
                            i,
                            format!("{}: corpus error, {}", case.label, indent(&e.to_string())),
                        )),
                    }
                }
            });
        }
    });
    let sorted = |m: Mutex<Vec<(usize, String)>>| {
        let mut v = m.into_inner().unwrap();
        v.sort();
        v.into_iter().map(|(_, s)| s).collect::<Vec<_>>()
    };
    (agreed.into_inner(), sorted(failures), sorted(skipped))
}

fn indent(text: &str) -> String {
    text.lines().collect::<Vec<_>>().join("\n    ")
}

fn report(what: &str, agreed: usize, failures: &[String]) {
    let compared = agreed + failures.len();
    println!("{agreed}/{compared} descriptions agree ({what})");
    for f in failures {
        println!("  {}", shorten(f, 2000));
    }
    assert!(
        failures.is_empty(),
        "{} of {compared} descriptions differ from llvm-tblgen ({what}; see above)",
        failures.len()
    );
}

#[test]
fn corpus_agrees_with_llvm_tblgen() {
    enter_tests_dir();
    let Some((oracle, include)) = oracle() else {
        return;
    };
    let work = scratch_dir("regs-corpus");
    let cases = corpus_cases();
    let (agreed, failures, _) = compare_all(&oracle, &include, &work, &cases, None, false);
    let _ = std::fs::remove_dir_all(&work);
    report("regs/*.td", agreed, &failures);
}

#[test]
fn targets_agree_with_llvm_tblgen() {
    enter_tests_dir();
    let Some((oracle, include)) = oracle() else {
        return;
    };
    let work = scratch_dir("regs-targets");
    let cases = target_cases();
    let tops: Vec<PathBuf> = TARGETS
        .iter()
        .map(|(dir, _)| {
            Path::new("..")
                .join("targets")
                .join("oracle")
                .join(format!("{dir}-top.td"))
        })
        .collect();
    let (agreed, failures, _) = compare_all(&oracle, &include, &work, &cases, Some(&tops), false);
    let _ = std::fs::remove_dir_all(&work);
    report("the four targets", agreed, &failures);
}

#[test]
fn generated_agree_with_llvm_tblgen() {
    enter_tests_dir();
    let Some((oracle, include)) = oracle() else {
        return;
    };
    let seed = run_seed();
    let count = std::env::var("REGS_CASES")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(GENERATED_CASES);
    println!(
        "generated register descriptions: seed {seed} (REGS_SEED={seed} reproduces), {count} cases"
    );
    let work = scratch_dir("regs-generated");
    let cases = generated_cases(&work, seed, count);
    let (agreed, failures, skipped) = compare_all(&oracle, &include, &work, &cases, None, true);
    println!(
        "{} of {count} generated cases skipped (llvm-tblgen or facts.py could not handle them)",
        skipped.len()
    );
    for s in skipped.iter().take(5) {
        println!("  skipped {}", shorten(s, 300));
    }
    if failures.is_empty() {
        let _ = std::fs::remove_dir_all(&work);
    } else {
        println!("generated files kept in {}", work.display());
    }
    report(&format!("generated, seed {seed}"), agreed, &failures);
}

#[test]
fn preludes_give_identical_facts() {
    enter_tests_dir();
    let Some(llvm_include) = require_llvm_include_dir() else {
        return;
    };
    let ours = our_prelude_dir();
    let work = scratch_dir("regs-preludes");
    let mut cases = corpus_cases();
    cases.extend(target_cases());
    cases.extend(generated_cases(&work, run_seed(), GENERATED_PRELUDE_CASES));
    let mut failures = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        let llvm_top = work.join(format!("top{i}-llvm.td"));
        let our_top = work.join(format!("top{i}-ours.td"));
        std::fs::write(&llvm_top, top_text(LLVM_PRELUDE, &case.file, &case.target)).unwrap();
        std::fs::write(&our_top, top_text(OUR_PRELUDE, &case.file, &case.target)).unwrap();
        let with_llvm = tdgen_facts(&llvm_top, &[&llvm_include, &case.dir]);
        let with_ours = tdgen_facts(&our_top, &[&ours, &case.dir]);
        match (with_llvm, with_ours) {
            (Ok(a), Ok(b)) => {
                if let Some(d) = json_diffs(&a, &b, 1).first() {
                    failures.push(format!(
                        "{}: {}",
                        case.label,
                        d.describe("with Target.td", "with regalloc.td", 300)
                    ));
                }
            }
            (Err(e), _) => failures.push(format!("{} with Target.td: {}", case.label, indent(&e))),
            (_, Err(e)) => {
                failures.push(format!("{} with regalloc.td: {}", case.label, indent(&e)))
            }
        }
    }
    let _ = std::fs::remove_dir_all(&work);
    println!(
        "{}/{} descriptions give identical facts under both preludes",
        cases.len() - failures.len(),
        cases.len()
    );
    for f in &failures {
        println!("  {}", shorten(f, 2000));
    }
    assert!(
        failures.is_empty(),
        "{} descriptions differ between preludes (see above)",
        failures.len()
    );
}

fn blessing() -> bool {
    std::env::var_os("TDGEN_BLESS").is_some_and(|v| !v.is_empty() && v != "0")
}

#[test]
fn err_corpus_rejected_with_snapshots() {
    enter_tests_dir();
    let files = td_files(ERR_DIR);
    assert!(!files.is_empty(), "no .td files in {ERR_DIR}");
    let tblgen = require_llvm_tool("llvm-tblgen");
    let llvm_include = require_llvm_include_dir();
    let ours = our_prelude_dir();
    let bless = blessing();
    let work = scratch_dir("regs-err");
    let work_text = work.display().to_string();
    let mut failures = Vec::new();
    let (mut both, mut snapshots_ok) = (0, 0);

    for file in &files {
        let path = Path::new(file);
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let dir = path.parent().unwrap();
        let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{file}: {e}"));
        let llvm_top = work.join(format!("llvm-{name}"));
        let our_top = work.join(format!("ours-{name}"));
        std::fs::write(&llvm_top, top_text(LLVM_PRELUDE, &name, "T")).unwrap();
        std::fs::write(&our_top, top_text(OUR_PRELUDE, &name, "T")).unwrap();

        // The oracle: rejects, unless the case says llvm-tblgen accepts it.
        let mut oracle_ok = true;
        if let (Some(tblgen), Some(include)) = (&tblgen, &llvm_include) {
            let run = run_tool(
                tblgen,
                [
                    "-gen-register-info".as_ref(),
                    "-I".as_ref(),
                    include.as_os_str(),
                    "-I".as_ref(),
                    dir.as_os_str(),
                    llvm_top.as_os_str(),
                    "-o".as_ref(),
                    work.join("out.inc").as_os_str(),
                ],
            );
            let rejected = !run.succeeded() && run.stderr.contains("error:");
            let marked = llvm_accepts_marker(&text);
            if marked == rejected || (marked && !run.succeeded()) {
                oracle_ok = false;
                failures.push(format!(
                    "{file}: corpus error, llvm-tblgen-19 {} it (exit {:?})",
                    if rejected {
                        "rejected"
                    } else {
                        "did not reject"
                    },
                    run.code
                ));
            }
        }

        // tdgen must reject it under both preludes.
        if let Some(include) = &llvm_include {
            match tdgen_outcome(&llvm_top, &[include, dir]) {
                TdgenOutcome::Rejected(_) => {}
                TdgenOutcome::Facts(_) => {
                    failures.push(format!("{file}: tdgen accepted it with LLVM's Target.td"));
                }
                TdgenOutcome::Failed(e) => failures.push(format!("{file}: {e}")),
            }
        }
        let rendered = match tdgen_outcome(&our_top, &[&ours, dir]) {
            TdgenOutcome::Rejected(r) => r.replace(&work_text, "<tmp>"),
            TdgenOutcome::Facts(_) => {
                failures.push(format!("{file}: tdgen accepted it with regalloc.td"));
                continue;
            }
            TdgenOutcome::Failed(e) => {
                failures.push(format!("{file}: {e}"));
                continue;
            }
        };
        if oracle_ok {
            both += 1;
        }
        let snapshot = path.with_extension("stderr");
        if bless {
            std::fs::write(&snapshot, &rendered)
                .unwrap_or_else(|e| panic!("{}: {e}", snapshot.display()));
            snapshots_ok += 1;
            continue;
        }
        match std::fs::read_to_string(&snapshot) {
            Ok(expected) if expected == rendered => snapshots_ok += 1,
            Ok(expected) => {
                let line = expected
                    .lines()
                    .zip(rendered.lines())
                    .position(|(a, b)| a != b)
                    .map_or_else(|| "length".to_string(), |n| format!("line {}", n + 1));
                failures.push(format!(
                    "{file}: rendering differs from {} (first at {line}); rerun with TDGEN_BLESS=1 if the new text is right\n    tdgen: {}",
                    snapshot.display(),
                    indent(&first_lines(&rendered, 8))
                ));
            }
            Err(_) => failures.push(format!(
                "{file}: snapshot {} is missing (run with TDGEN_BLESS=1 to write it)",
                snapshot.display()
            )),
        }
    }
    let _ = std::fs::remove_dir_all(&work);

    let n = files.len();
    if tblgen.is_some() {
        println!("{both}/{n} error cases rejected by both (or as marked)");
    } else {
        println!("llvm-tblgen not run; tdgen checked alone");
    }
    println!(
        "{snapshots_ok}/{n} snapshots {}",
        if bless { "written" } else { "match" }
    );
    for f in &failures {
        println!("  {f}");
    }
    assert!(
        failures.is_empty(),
        "{} error-case failures (see above)",
        failures.len()
    );
}
