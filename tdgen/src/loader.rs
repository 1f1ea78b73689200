//! The front-end driver: reads a `.td` file and its includes, parses, evaluates, and collects diagnostics.

use crate::diag::{Diagnostic, FileId, Kind, SourceMap};
use crate::records::RecordKeeper;
use crate::records::eval::Evaluator;
use crate::syntax::pool::{Files, Job, Pool};
use crate::syntax::preprocess::{Defines, IncludeSite, preprocess};
use rustc_hash::FxHashMap as HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Stack for the front end (virtual memory; only what is used is committed).
const STACK_SIZE: usize = 256 << 20;

/// Runs the front end: include search paths, macros, and the source files read.
#[derive(Default)]
pub struct Loader {
    include_dirs: Vec<PathBuf>,
    defines: Defines,
    sources: SourceMap,
    /// The files preprocessed in this run, waiting to be parsed.
    jobs: Vec<Job>,
    loading: Vec<PathBuf>,
    diags: Vec<Diagnostic>,
    /// Errors of the last run that followed from the errors it returned.
    not_shown: usize,
    /// Errors of the last run past the first [`MAX_ERRORS`](crate::records::limits::MAX_ERRORS),
    /// left out of those it returned.
    beyond_limit: usize,
}

impl Loader {
    /// A loader with no include directories.
    pub fn new() -> Loader {
        Loader::default()
    }

    /// Adds an include directory (`-I`), searched after the including file's own directory.
    pub fn include_dir(&mut self, dir: impl Into<PathBuf>) -> &mut Loader {
        self.include_dirs.push(dir.into());
        self
    }

    /// Defines a preprocessor macro (`-D`).
    pub fn define(&mut self, name: &str) -> &mut Loader {
        self.defines.insert(name.to_string());
        self
    }

    /// The source files read so far (for rendering diagnostics).
    pub fn sources(&self) -> &SourceMap {
        &self.sources
    }

    /// Every file path read so far (the root and its includes), for rebuild tracking.
    pub fn files_read(&self) -> Vec<PathBuf> {
        (0..self.sources.len())
            .filter_map(|i| self.sources.file(FileId(i as u32)).path.clone())
            .collect()
    }

    /// How many errors of the last failed run followed from the errors it
    /// returned (references to a record, class or variable whose definition
    /// failed) and were left out of them.
    pub fn errors_not_shown(&self) -> usize {
        self.not_shown
    }

    /// How many errors of the last failed run came after the first
    /// [`MAX_ERRORS`](crate::records::limits::MAX_ERRORS) (in file order)
    /// and were left out of those it returned: many errors bury the first.
    pub fn errors_beyond_limit(&self) -> usize {
        self.beyond_limit
    }

    /// Renders diagnostics as plain rustc-style text.
    pub fn render(&self, diags: &[Diagnostic]) -> String {
        self.sources.render(diags)
    }

    /// Reads, parses and evaluates a file. On error, returns every diagnostic found.
    pub fn records(&mut self, path: impl AsRef<Path>) -> Result<RecordKeeper, Vec<Diagnostic>> {
        let path = path.as_ref();
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => {
                self.not_shown = 0;
                return Err(vec![Diagnostic::unlocated(
                    Kind::Io,
                    format!("cannot read '{}': {}", path.display(), io_reason(&e)),
                )]);
            }
        };
        self.run(path.display().to_string(), Some(path.to_path_buf()), text)
    }

    /// Parses and evaluates text as if read from a file called `name`.
    pub fn records_from_str(
        &mut self,
        name: &str,
        text: &str,
    ) -> Result<RecordKeeper, Vec<Diagnostic>> {
        self.run(name.to_string(), None, text.to_string())
    }

    fn run(
        &mut self,
        name: String,
        path: Option<PathBuf>,
        text: String,
    ) -> Result<RecordKeeper, Vec<Diagnostic>> {
        // Parsing and evaluation recurse with the input's nesting (bounded by
        // MAX_NESTING and MAX_DEPTH); run them on a large heap-allocated stack
        // so that the bound, not the caller's thread, decides what is accepted.
        stacker::grow(STACK_SIZE, || self.run_on_stack(name, path, text))
    }

    fn run_on_stack(
        &mut self,
        name: String,
        path: Option<PathBuf>,
        text: String,
    ) -> Result<RecordKeeper, Vec<Diagnostic>> {
        self.diags.clear();
        let timing = std::env::var_os("TDGEN_TIMING").is_some();
        let start = std::time::Instant::now();
        let root = self.load(name, path, text);
        if timing {
            report_time("read and preprocess", start);
        }
        let start = std::time::Instant::now();
        let mut rk = RecordKeeper::default();
        let mut diags = std::mem::take(&mut self.diags);
        let pool = Pool::new(std::mem::take(&mut self.jobs));
        // Evaluation starts while files are still being parsed; it is only
        // worth anything if nothing before it failed, as before evaluation
        // ran only then. A parse error found later voids it the same way.
        let preprocessed = !diags.iter().any(Diagnostic::is_error);
        let (eval_diags, parse_errors) = std::thread::scope(|s| {
            let pool = &pool;
            let two_threads = pool.worth_a_worker()
                && std::thread::available_parallelism().is_ok_and(|n| n.get() > 1)
                && std::thread::Builder::new()
                    // Parsing recurses with the input's nesting, like on this thread.
                    .stack_size(STACK_SIZE)
                    .spawn_scoped(s, move || pool.work())
                    .is_ok();
            if !two_threads {
                pool.no_worker();
            }
            let mut eval_diags = Vec::new();
            if preprocessed {
                let files = Files::new(pool);
                let mut ev = Evaluator::new(&mut rk, &files);
                ev.file(root);
                eval_diags = std::mem::take(&mut ev.diags);
            }
            (eval_diags, pool.finish())
        });
        insert_parse_errors(&mut diags, parse_errors);
        if !diags.iter().any(Diagnostic::is_error) {
            diags.extend(eval_diags);
            diags.append(&mut rk.diags);
        } else {
            rk = RecordKeeper::default();
        }
        if timing {
            report_time("parse and evaluate", start);
        }
        // The record keeper keeps a copy of the sources for `!locs` and rendering.
        rk.sources = self.sources.clone();
        self.not_shown = 0;
        self.beyond_limit = 0;
        if diags.iter().any(Diagnostic::is_error) {
            diags.retain(|d| d.is_error() || d.severity == crate::diag::Severity::Warning);
            // An error that only follows from another (a reference to a def
            // that failed) says nothing new; the first error is the one to fix.
            if diags
                .iter()
                .any(|d| d.is_error() && !d.follows_from_earlier())
            {
                let before = diags.len();
                diags.retain(|d| !d.follows_from_earlier());
                self.not_shown = before - diags.len();
            }
            diags.sort_by_key(|d| (d.primary.file, d.primary.start));
            diags.dedup();
            self.beyond_limit = keep_first_errors(&mut diags, crate::records::limits::MAX_ERRORS);
            Err(diags)
        } else {
            rk.diags = diags;
            Ok(rk)
        }
    }

    /// Loads one file: preprocesses it (loading includes at their place) and queues it for parsing.
    fn load(&mut self, name: String, path: Option<PathBuf>, text: String) -> FileId {
        let text: Arc<str> = Arc::from(text);
        let id = self.sources.add(name, path.as_deref(), text.clone());
        if let Some(p) = &path {
            self.loading.push(p.clone());
        }
        let dir = path
            .as_ref()
            .and_then(|p| p.parent().map(Path::to_path_buf));
        let mut defines = std::mem::take(&mut self.defines);
        let mut includes: HashMap<u32, Option<FileId>> = HashMap::default();
        let mut pp_diags = Vec::new();
        let cooked = {
            let mut on_include = |site: &IncludeSite, defs: &mut Defines| {
                // The callee may define macros: hand it the live set.
                std::mem::swap(&mut self.defines, defs);
                let target = self.include(site, dir.as_deref());
                std::mem::swap(&mut self.defines, defs);
                includes.insert(site.span.start, target);
            };
            preprocess(id, &text, &mut defines, &mut on_include, &mut pp_diags)
        };
        self.defines = defines;
        self.diags.extend(pp_diags);
        // Parsed later, on two threads, while the evaluator runs (see `syntax::pool`).
        self.jobs.push(Job {
            id,
            text: cooked,
            includes,
            diag_pos: self.diags.len(),
        });
        if path.is_some() {
            self.loading.pop();
        }
        id
    }

    fn include(&mut self, site: &IncludeSite, dir: Option<&Path>) -> Option<FileId> {
        let mut candidates: Vec<PathBuf> = Vec::new();
        match dir {
            Some(d) => candidates.push(d.join(&site.name)),
            None => candidates.push(PathBuf::from(&site.name)),
        }
        for d in &self.include_dirs {
            candidates.push(d.join(&site.name));
        }
        let Some(found) = candidates.into_iter().find(|p| p.is_file()) else {
            self.diags.push(
                Diagnostic::error(
                    Kind::Io,
                    site.span,
                    format!("cannot read '{}': No such file or directory", site.name),
                )
                .with_label("included here")
                .with_help("add the directory that holds it with -I"),
            );
            return None;
        };
        let canon = found.canonicalize().unwrap_or_else(|_| found.clone());
        if self
            .loading
            .iter()
            .any(|p| p.canonicalize().map(|c| c == canon).unwrap_or(false))
        {
            self.diags.push(Diagnostic::error(
                Kind::Limit,
                site.span,
                format!("include cycle: '{}' includes itself", site.name),
            ));
            return None;
        }
        if self.loading.len() > crate::records::limits::MAX_INCLUDE_DEPTH {
            self.diags.push(Diagnostic::error(
                Kind::Limit,
                site.span,
                "includes nested too deeply",
            ));
            return None;
        }
        match std::fs::read_to_string(&found) {
            Ok(t) => Some(self.load(found.display().to_string(), Some(found), t)),
            Err(e) => {
                self.diags.push(
                    Diagnostic::error(
                        Kind::Io,
                        site.span,
                        format!("cannot read '{}': {}", found.display(), io_reason(&e)),
                    )
                    .with_label("included here"),
                );
                None
            }
        }
    }
}

/// `TDGEN_TIMING`'s line on standard error (lost, not a panic, when it cannot be written).
fn report_time(stage: &str, start: std::time::Instant) {
    use std::io::Write as _;
    let ms = start.elapsed().as_secs_f64() * 1e3;
    let _ = writeln!(std::io::stderr(), "tdgen: {stage}: {ms:.1} ms");
}

/// Why a file could not be read, as the system says it, without the
/// " (os error N)" that `std::io::Error` appends.
fn io_reason(e: &std::io::Error) -> String {
    let text = e.to_string();
    match e.raw_os_error() {
        Some(code) => text
            .strip_suffix(&format!(" (os error {code})"))
            .unwrap_or(&text)
            .to_string(),
        None => text,
    }
}

/// Puts each parse error where parsing the file right after preprocessing it
/// would have: at its `diag_pos`, after earlier files' errors at the same place.
fn insert_parse_errors(diags: &mut Vec<Diagnostic>, mut errors: Vec<(usize, usize, Diagnostic)>) {
    if errors.is_empty() {
        return;
    }
    errors.sort_by_key(|&(pos, seq, _)| (pos, seq));
    let old = std::mem::take(diags);
    let mut errors = errors.into_iter().peekable();
    for (k, d) in old.into_iter().enumerate() {
        while let Some((_, _, e)) = errors.next_if(|&(pos, _, _)| pos == k) {
            diags.push(e);
        }
        diags.push(d);
    }
    diags.extend(errors.map(|(_, _, e)| e));
}

/// Keeps the first `limit` errors of `diags` (and the warnings among them);
/// returns how many errors were dropped.
fn keep_first_errors(diags: &mut Vec<Diagnostic>, limit: usize) -> usize {
    let Some(cut) = diags
        .iter()
        .enumerate()
        .filter(|(_, d)| d.is_error())
        .nth(limit)
        .map(|(i, _)| i)
    else {
        return 0;
    };
    let dropped = diags[cut..].iter().filter(|d| d.is_error()).count();
    diags.truncate(cut);
    dropped
}
