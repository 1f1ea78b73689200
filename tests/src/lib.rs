//! Shared helpers for the workspace-level integration tests (locating LLVM 19, running it, comparing outputs).
//!
//! LLVM 19 is the oracle for several test suites. When it cannot be found,
//! a test prints `skipped: LLVM 19 not found` and returns without checking
//! anything, except when the environment variable `CI` is set: then a missing
//! LLVM is a hard failure, so that a CI machine without LLVM cannot pass by
//! skipping. Use [`require_llvm_tool`] / [`require_llvm_include_dir`] for that
//! behaviour, or [`llvm_tool`] / [`llvm_include_dir`] for the plain look-up.

pub mod corpus_alloc;
pub mod random_functions;
pub mod regs_gen;
pub mod regs_oracle;

use std::ffi::OsStr;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// The LLVM major version the oracles must come from.
pub const LLVM_MAJOR: &str = "19";

/// The notice printed when a test skips because LLVM 19 is absent.
pub const SKIP_NOTICE: &str = "skipped: LLVM 19 not found";

/// Finds an LLVM 19 binary: `{name}-19` on `PATH`, else `$(llvm-config-19 --bindir)/{name}`.
pub fn llvm_tool(name: &str) -> Option<PathBuf> {
    let versioned = format!("{name}-{LLVM_MAJOR}");
    if let Some(path) = find_on_path(&versioned) {
        return Some(path);
    }
    let bindir = llvm_config(&["--bindir"])?;
    let candidate = PathBuf::from(bindir).join(exe_name(name));
    is_executable(&candidate).then_some(candidate)
}

/// LLVM 19's include directory (the one holding `llvm/Target/Target.td`):
/// `$(llvm-config-19 --includedir)`, else the Debian location `/usr/lib/llvm-19/include`.
pub fn llvm_include_dir() -> Option<PathBuf> {
    let has_target_td = |dir: &Path| dir.join("llvm").join("Target").join("Target.td").is_file();
    if let Some(dir) = llvm_config(&["--includedir"]).map(PathBuf::from)
        && has_target_td(&dir)
    {
        return Some(dir);
    }
    let debian = PathBuf::from(format!("/usr/lib/llvm-{LLVM_MAJOR}/include"));
    has_target_td(&debian).then_some(debian)
}

/// True when running under CI (the `CI` environment variable is set), where
/// missing oracles are failures rather than skips.
pub fn in_ci() -> bool {
    std::env::var_os("CI").is_some()
}

/// Reports that LLVM 19 (`what`) is missing: prints the skip notice, or panics under CI.
pub fn skip_or_fail(what: &str) {
    if in_ci() {
        panic!("LLVM 19 not found ({what}), and CI is set: install llvm-19 (see DESIGN.md)");
    }
    // Written to the stderr handle directly, not with eprintln!, so that the
    // test harness's output capture does not hide the notice.
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr(), "{SKIP_NOTICE} ({what})");
}

/// [`llvm_tool`], or `None` after [`skip_or_fail`].
pub fn require_llvm_tool(name: &str) -> Option<PathBuf> {
    let found = llvm_tool(name);
    if found.is_none() {
        skip_or_fail(&format!("{name}-{LLVM_MAJOR}"));
    }
    found
}

/// [`llvm_include_dir`], or `None` after [`skip_or_fail`].
pub fn require_llvm_include_dir() -> Option<PathBuf> {
    let found = llvm_include_dir();
    if found.is_none() {
        skip_or_fail("LLVM 19 include directory");
    }
    found
}

/// The `tests` crate directory. Cargo runs integration tests with this as the
/// working directory; paths in the corpus are relative to it.
pub fn tests_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Makes the `tests` crate directory the working directory (it already is under
/// `cargo test`; this makes other runners behave the same). Every test in this
/// crate wants the same directory, so setting it from parallel tests is harmless.
pub fn enter_tests_dir() {
    let dir = tests_dir();
    if std::env::current_dir().ok().as_deref() != Some(dir.as_path()) {
        std::env::set_current_dir(&dir).expect("cannot enter the tests crate directory");
    }
}

/// The `*.td` files directly inside `dir` (relative to the tests crate), sorted,
/// as paths relative to the tests crate with `/` separators, e.g. `tablegen/ok/foo.td`.
pub fn td_files(dir: &str) -> Vec<String> {
    let abs = tests_dir().join(dir);
    let mut files: Vec<String> = std::fs::read_dir(&abs)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", abs.display()))
        .filter_map(|entry| {
            let path = entry.ok()?.path();
            if !path.is_file() || path.extension() != Some(OsStr::new("td")) {
                return None;
            }
            Some(format!("{dir}/{}", path.file_name()?.to_str()?))
        })
        .collect();
    files.sort();
    files
}

/// What an oracle run produced.
#[derive(Debug, Clone)]
pub struct ToolRun {
    /// The exit code, or `None` if the process was killed by a signal (a crash).
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl ToolRun {
    /// True if the tool crashed: killed by a signal, or LLVM's crash banner on stderr.
    pub fn crashed(&self) -> bool {
        self.code.is_none()
            || self.stderr.contains("Stack dump")
            || self.stderr.contains("PLEASE submit a bug report")
    }

    /// Exited with status 0.
    pub fn succeeded(&self) -> bool {
        self.code == Some(0)
    }

    /// Rejected the input cleanly: exit status 1, no crash.
    pub fn rejected_cleanly(&self) -> bool {
        self.code == Some(1) && !self.crashed()
    }
}

/// Runs `tool args...` with the tests crate as working directory.
pub fn run_tool<I, S>(tool: &Path, args: I) -> ToolRun
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let out = Command::new(tool)
        .args(args)
        .current_dir(tests_dir())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", tool.display()));
    ToolRun {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Runs `llvm-tblgen -dump-json -I dir... file` (file and dirs as given, relative
/// to the tests crate) and parses its output.
pub fn llvm_tblgen_json(tblgen: &Path, file: &str, include_dirs: &[&str]) -> Result<Value, String> {
    let mut args: Vec<&str> = vec!["-dump-json"];
    for dir in include_dirs {
        args.push("-I");
        args.push(dir);
    }
    args.push(file);
    let run = run_tool(tblgen, &args);
    if !run.succeeded() || run.crashed() {
        return Err(format!(
            "llvm-tblgen exited with {:?}:\n{}",
            run.code,
            first_lines(&run.stderr, 8)
        ));
    }
    serde_json::from_str(&run.stdout).map_err(|e| format!("llvm-tblgen printed invalid JSON: {e}"))
}

/// One difference between two JSON documents.
#[derive(Debug, Clone, PartialEq)]
pub struct JsonDiff {
    /// A JSON Pointer (RFC 6901) to the differing value, e.g. `/R0/!locs/0`.
    pub path: String,
    /// The value on the left (expected) side, or `None` if absent there.
    pub left: Option<Value>,
    /// The value on the right (actual) side, or `None` if absent there.
    pub right: Option<Value>,
}

impl JsonDiff {
    /// `path: left = ..., right = ...`, values shortened to `max` characters.
    pub fn describe(&self, left_name: &str, right_name: &str, max: usize) -> String {
        let show = |v: &Option<Value>| match v {
            None => "<absent>".to_string(),
            Some(v) => shorten(&v.to_string(), max),
        };
        format!(
            "{}: {left_name} = {}, {right_name} = {}",
            if self.path.is_empty() {
                "/"
            } else {
                &self.path
            },
            show(&self.left),
            show(&self.right)
        )
    }
}

/// The differences between two JSON values, in document order (object keys
/// sorted), at most `limit` of them. Object key order is irrelevant; arrays are
/// compared element by element (a length difference is reported at the first
/// index present on one side only).
pub fn json_diffs(left: &Value, right: &Value, limit: usize) -> Vec<JsonDiff> {
    let mut out = Vec::new();
    diff_into(left, right, &mut String::new(), &mut out, limit);
    out
}

fn diff_into(
    left: &Value,
    right: &Value,
    path: &mut String,
    out: &mut Vec<JsonDiff>,
    limit: usize,
) {
    if out.len() >= limit || left == right {
        return;
    }
    match (left, right) {
        (Value::Object(l), Value::Object(r)) => {
            let mut keys: Vec<&String> = l
                .keys()
                .chain(r.keys().filter(|k| !l.contains_key(*k)))
                .collect();
            keys.sort();
            for key in keys {
                if out.len() >= limit {
                    return;
                }
                let len = path.len();
                path.push('/');
                path.push_str(&key.replace('~', "~0").replace('/', "~1"));
                match (l.get(key), r.get(key)) {
                    (Some(a), Some(b)) => diff_into(a, b, path, out, limit),
                    (a, b) => out.push(JsonDiff {
                        path: path.clone(),
                        left: a.cloned(),
                        right: b.cloned(),
                    }),
                }
                path.truncate(len);
            }
        }
        (Value::Array(l), Value::Array(r)) => {
            for i in 0..l.len().max(r.len()) {
                if out.len() >= limit {
                    return;
                }
                let len = path.len();
                let _ = write!(path, "/{i}");
                match (l.get(i), r.get(i)) {
                    (Some(a), Some(b)) => diff_into(a, b, path, out, limit),
                    (a, b) => {
                        out.push(JsonDiff {
                            path: path.clone(),
                            left: a.cloned(),
                            right: b.cloned(),
                        });
                        path.truncate(len);
                        return; // one report for a length mismatch is enough
                    }
                }
                path.truncate(len);
            }
        }
        _ => out.push(JsonDiff {
            path: path.clone(),
            left: Some(left.clone()),
            right: Some(right.clone()),
        }),
    }
}

/// `s` cut to `max` characters, with `...` when cut.
pub fn shorten(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let cut: String = s.chars().take(max).collect();
        format!("{cut}...")
    }
}

/// The first `n` lines of `s`.
pub fn first_lines(s: &str, n: usize) -> String {
    s.lines().take(n).collect::<Vec<_>>().join("\n")
}

thread_local! {
    static QUIET_PANICS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f`, turning a panic into `Err(message)` without the default panic
/// report (and backtrace) on stderr, so that one crashing case among hundreds
/// stays one line of output. Panics on other threads, and outside `f`, are
/// reported as usual.
pub fn catch_quietly<R>(f: impl FnOnce() -> R) -> Result<R, String> {
    static INSTALL: std::sync::Once = std::sync::Once::new();
    INSTALL.call_once(|| {
        let default_hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !QUIET_PANICS.with(|q| q.get()) {
                default_hook(info);
            }
        }));
    });
    let was_quiet = QUIET_PANICS.with(|q| q.replace(true));
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    QUIET_PANICS.with(|q| q.set(was_quiet));
    outcome.map_err(|payload| panic_message(&*payload))
}

/// The message of a caught panic payload.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "<non-string panic payload>".to_string()
    }
}

fn llvm_config(args: &[&str]) -> Option<String> {
    let config = find_on_path(&format!("llvm-config-{LLVM_MAJOR}"))?;
    let out = Command::new(config).args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?;
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_string())
}

fn find_on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(exe_name(name)))
        .find(|candidate| is_executable(candidate))
}

fn exe_name(name: &str) -> String {
    format!("{name}{}", std::env::consts::EXE_SUFFIX)
}

fn is_executable(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        path.metadata()
            .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
            .unwrap_or(false)
    }
    #[cfg(not(unix))]
    {
        path.is_file()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn equal_documents_have_no_diffs() {
        let a = json!({"b": [1, 2, {"c": null}], "a": "x"});
        let b = json!({"a": "x", "b": [1, 2, {"c": null}]});
        assert!(json_diffs(&a, &b, 3).is_empty());
    }

    #[test]
    fn diffs_report_paths_and_limit() {
        let a = json!({"r": {"!locs": ["a.td:3"], "x": 1, "y": [1, 2]}, "a/b": 1});
        let b = json!({"r": {"!locs": ["a.td:4"], "y": [1, 2, 3], "z": 0}, "a/b": 2});
        let d = json_diffs(&a, &b, 10);
        let paths: Vec<&str> = d.iter().map(|d| d.path.as_str()).collect();
        assert_eq!(paths, ["/a~1b", "/r/!locs/0", "/r/x", "/r/y/2", "/r/z"]);
        assert_eq!(d[2].right, None);
        assert_eq!(json_diffs(&a, &b, 3).len(), 3);
        assert_eq!(
            d[1].describe("llvm", "tdgen", 40),
            r#"/r/!locs/0: llvm = "a.td:3", tdgen = "a.td:4""#
        );
    }

    #[test]
    fn root_type_mismatch() {
        let d = json_diffs(&json!(1), &json!("1"), 3);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].describe("l", "r", 10), r#"/: l = 1, r = "1""#);
    }
}
