//! The register-facts oracle: llvm-tblgen-19 `-gen-register-info` (and
//! optionally `-dump-json`) plus `shared/oracle/facts.py`, and the helpers the
//! `regs_*` tests share (top files, core-key projection, readable fact paths).
//!
//! `facts.py` lives in the `shared/` directory beside the repository
//! (`../../shared` from the tests crate) or wherever `TDGEN_SHARED` points.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Map, Value};

use crate::{JsonDiff, first_lines, in_ci, json_diffs, shorten, tests_dir};

/// `shared/oracle/facts.py`: `$TDGEN_SHARED/oracle/facts.py`, else
/// `../../shared/oracle/facts.py` relative to the tests crate.
pub fn facts_py() -> Option<PathBuf> {
    let shared = match std::env::var_os("TDGEN_SHARED") {
        Some(dir) => PathBuf::from(dir),
        None => tests_dir().join("..").join("..").join("shared"),
    };
    let script = shared.join("oracle").join("facts.py");
    script.is_file().then_some(script)
}

/// [`facts_py`], or `None` after printing a skip notice (a panic under CI).
pub fn require_facts_py() -> Option<PathBuf> {
    let found = facts_py();
    if found.is_none() {
        if in_ci() {
            panic!("shared/oracle/facts.py not found (set TDGEN_SHARED), and CI is set");
        }
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr(),
            "skipped: shared/oracle/facts.py not found (set TDGEN_SHARED to the shared directory)"
        );
    }
    found
}

/// The text of a three-line top file: a prelude include, the description, the target.
pub fn top_text(prelude: &str, description: &str, target: &str) -> String {
    format!("include \"{prelude}\"\ninclude \"{description}\"\ndef {target} : Target;\n")
}

/// LLVM's prelude, as a top file includes it.
pub const LLVM_PRELUDE: &str = "llvm/Target/Target.td";
/// Our prelude, as a top file includes it (with `-I ../tdgen/prelude`).
pub const OUR_PRELUDE: &str = "regalloc.td";

/// `tdgen/prelude`, relative to the tests crate.
pub fn our_prelude_dir() -> PathBuf {
    tests_dir().join("..").join("tdgen").join("prelude")
}

/// A fresh scratch directory for one test (removed first if it exists).
pub fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("regalloc-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    dir
}

/// How an external command ended.
#[derive(Debug)]
pub enum Outcome {
    /// Exited with this status (None: killed by a signal), with its stderr.
    Exited(Option<i32>, String),
    /// Still running after the time limit; killed.
    TimedOut,
}

/// Runs a command with stdout sent to `stdout_to` (or discarded), killing it
/// after `limit`.
pub fn run_limited(cmd: &mut Command, stdout_to: Option<&Path>, limit: Duration) -> Outcome {
    let stdout = match stdout_to {
        Some(p) => {
            Stdio::from(std::fs::File::create(p).unwrap_or_else(|e| panic!("{}: {e}", p.display())))
        }
        None => Stdio::null(),
    };
    let err_file = tempfile_path("stderr");
    let stderr = Stdio::from(
        std::fs::File::create(&err_file).unwrap_or_else(|e| panic!("{}: {e}", err_file.display())),
    );
    let mut child = cmd
        .stdout(stdout)
        .stderr(stderr)
        .current_dir(tests_dir())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                let err = std::fs::read_to_string(&err_file).unwrap_or_default();
                let _ = std::fs::remove_file(&err_file);
                return Outcome::Exited(status.code(), err);
            }
            Ok(None) if start.elapsed() > limit => {
                let _ = child.kill();
                let _ = child.wait();
                let _ = std::fs::remove_file(&err_file);
                return Outcome::TimedOut;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => panic!("waiting for {cmd:?}: {e}"),
        }
    }
}

fn tempfile_path(what: &str) -> PathBuf {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!("regalloc-{}-{n}.{what}", std::process::id()))
}

/// Why the oracle produced no facts.
#[derive(Debug)]
pub enum OracleError {
    /// llvm-tblgen rejected the description (exit status, first lines of stderr).
    Rejected(String),
    /// llvm-tblgen ran past the time limit.
    TimedOut,
    /// facts.py failed (its own self-check, or a layout it does not know).
    Facts(String),
}

impl std::fmt::Display for OracleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OracleError::Rejected(e) => write!(f, "llvm-tblgen rejected it: {e}"),
            OracleError::TimedOut => write!(f, "llvm-tblgen did not finish in time"),
            OracleError::Facts(e) => write!(f, "facts.py failed: {e}"),
        }
    }
}

/// The oracle's tools.
#[derive(Clone, Debug)]
pub struct Oracle {
    /// llvm-tblgen-19.
    pub tblgen: PathBuf,
    /// facts.py.
    pub facts_py: PathBuf,
    /// The time limit for one llvm-tblgen run.
    pub limit: Duration,
}

impl Oracle {
    /// The facts of `top` (target `target`, include directories `includes`),
    /// computed in `work` (files `<stem>.inc`, `<stem>.json`). With
    /// `with_json`, facts.py also reads the `-dump-json` records (which adds
    /// only non-core keys, at a cost of about two seconds per description
    /// that includes LLVM's Target.td).
    pub fn facts(
        &self,
        top: &Path,
        target: &str,
        includes: &[&Path],
        work: &Path,
        stem: &str,
        with_json: bool,
    ) -> Result<Value, OracleError> {
        let inc = work.join(format!("{stem}.inc"));
        let json = work.join(format!("{stem}.json"));
        let tblgen = |mode: &str| {
            let mut cmd = Command::new(&self.tblgen);
            cmd.arg(mode);
            for dir in includes {
                cmd.arg("-I").arg(dir);
            }
            cmd.arg(top);
            cmd
        };
        let mut gen_cmd = tblgen("-gen-register-info");
        gen_cmd.arg("-o").arg(&inc);
        match run_limited(&mut gen_cmd, None, self.limit) {
            Outcome::TimedOut => return Err(OracleError::TimedOut),
            Outcome::Exited(Some(0), _) => {}
            Outcome::Exited(code, err) => {
                return Err(OracleError::Rejected(format!(
                    "exit {code:?}: {}",
                    first_lines(&err, 6)
                )));
            }
        }
        let mut args = vec![target.to_string(), inc.display().to_string()];
        if with_json {
            match run_limited(&mut tblgen("-dump-json"), Some(&json), self.limit) {
                Outcome::TimedOut => return Err(OracleError::TimedOut),
                Outcome::Exited(Some(0), _) => {}
                Outcome::Exited(code, err) => {
                    return Err(OracleError::Rejected(format!(
                        "-dump-json exit {code:?}: {}",
                        first_lines(&err, 6)
                    )));
                }
            }
            args.push(json.display().to_string());
        }
        let out = Command::new("python3")
            .arg(&self.facts_py)
            .args(&args)
            .current_dir(tests_dir())
            .output()
            .map_err(|e| OracleError::Facts(format!("cannot run python3: {e}")))?;
        if !out.status.success() {
            return Err(OracleError::Facts(first_lines(
                &String::from_utf8_lossy(&out.stderr),
                6,
            )));
        }
        serde_json::from_slice(&out.stdout)
            .map_err(|e| OracleError::Facts(format!("facts.py printed invalid JSON: {e}")))
    }
}

/// The core keys of each part of the facts document (see the oracle README).
/// `None` keeps every key of the entries.
pub const CORE_KEYS: &[(&str, Option<&[&str]>)] = &[
    (
        "registers",
        Some(&[
            "name",
            "enum",
            "subregs",
            "super_regs",
            "units",
            "is_constant",
            "cost_per_use",
            "in_allocatable_class",
        ]),
    ),
    ("register_units", Some(&["unit", "roots", "weight"])),
    (
        "subreg_indices",
        Some(&["name", "lane_mask", "compose", "range_by_mode"]),
    ),
    (
        "register_classes",
        Some(&[
            "name",
            "id",
            "members",
            "order",
            "alt_orders",
            "copy_cost",
            "allocatable",
            "by_mode",
            "sub_classes",
            "super_classes",
        ]),
    ),
    ("callee_saved", Some(&["name", "save_list", "reg_mask"])),
];

/// The core-key projection of a facts document: the parts in [`CORE_KEYS`],
/// each entry reduced to its core keys (keys absent in the input stay absent).
pub fn core_facts(facts: &Value) -> Value {
    let mut out = Map::new();
    for (part, keys) in CORE_KEYS {
        let Some(entries) = facts.get(*part) else {
            continue;
        };
        let projected = match (entries, keys) {
            (Value::Array(items), Some(keys)) => Value::Array(
                items
                    .iter()
                    .map(|item| match item {
                        Value::Object(obj) => Value::Object(
                            keys.iter()
                                .filter_map(|k| obj.get(*k).map(|v| (k.to_string(), v.clone())))
                                .collect(),
                        ),
                        other => other.clone(),
                    })
                    .collect(),
            ),
            (other, _) => other.clone(),
        };
        out.insert(part.to_string(), projected);
    }
    Value::Object(out)
}

/// The first difference between the core facts of `expected` (llvm-tblgen)
/// and `actual` (tdgen), as `path: llvm-tblgen = ..., tdgen = ...`, where the
/// path names entries, e.g. `/registers/4(AX)/units`.
pub fn first_core_difference(expected: &Value, actual: &Value) -> Option<String> {
    let (e, a) = (core_facts(expected), core_facts(actual));
    let diff = json_diffs(&e, &a, 1).into_iter().next()?;
    Some(describe(&e, &diff))
}

fn describe(doc: &Value, diff: &JsonDiff) -> String {
    // Annotate array indices with the entry's name where it has one.
    let mut named = String::new();
    let mut node = Some(doc);
    for seg in diff.path.split('/').skip(1) {
        named.push('/');
        named.push_str(seg);
        node = match node {
            Some(Value::Array(items)) => {
                let item = seg.parse::<usize>().ok().and_then(|i| items.get(i));
                if let Some(name) = item.and_then(|v| v.get("name")).and_then(Value::as_str) {
                    named.push_str(&format!("({name})"));
                }
                item
            }
            Some(Value::Object(obj)) => obj.get(&seg.replace("~1", "/").replace("~0", "~")),
            _ => None,
        };
    }
    let show = |v: &Option<Value>| match v {
        None => "<absent>".to_string(),
        Some(v) => shorten(&v.to_string(), 300),
    };
    format!(
        "{named}: llvm-tblgen = {}, tdgen = {}",
        show(&diff.left),
        show(&diff.right)
    )
}

/// The marker an error case carries (in its leading comments) when llvm-tblgen 19
/// does not reject it: tdgen is stricter there.
pub const LLVM_ACCEPTS_MARKER: &str = "llvm-tblgen-19 accepts this";

/// True if an error case says llvm-tblgen 19 accepts it.
pub fn llvm_accepts_marker(text: &str) -> bool {
    text.lines()
        .take_while(|l| l.starts_with("//"))
        .any(|l| l.contains(LLVM_ACCEPTS_MARKER))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn core_projection_and_named_paths() {
        let e = json!({"target": "T", "registers": [
            {"name": "R0", "enum": 1, "units": [0], "asm_name": "r0"},
            {"name": "R1", "enum": 2, "units": [1], "asm_name": "r1"}]});
        let a = json!({"registers": [
            {"name": "R0", "enum": 1, "units": [0]},
            {"name": "R1", "enum": 2, "units": [2]}]});
        assert_eq!(
            first_core_difference(&e, &a).unwrap(),
            "/registers/1(R1)/units/0: llvm-tblgen = 1, tdgen = 2"
        );
        assert!(first_core_difference(&e, &e).is_none());
    }

    #[test]
    fn marker() {
        assert!(llvm_accepts_marker(
            "// Error: x.\n// llvm-tblgen-19 accepts this (tdgen is stricter).\nlet ..."
        ));
        assert!(!llvm_accepts_marker("// Error: x.\nlet ..."));
    }
}
