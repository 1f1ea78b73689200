//! Source files, spans and diagnostics: errors as values, rendered like rustc's.
//!
//! Every stage reports problems as [`Diagnostic`] values (kind, message,
//! primary span, secondary spans, optional help) and keeps going where the
//! language allows it; the caller renders the collected list with
//! [`SourceMap::render`].

use codespan_reporting::diagnostic as cs;
use codespan_reporting::files::{Error as FilesError, Files};
use codespan_reporting::term;
use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// Index of a source file in a [`SourceMap`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct FileId(pub u32);

impl FileId {
    /// No file: the primary span of a diagnostic about no place in the
    /// text (a file that cannot be read), rendered without a snippet.
    pub const NONE: FileId = FileId(u32::MAX);
}

/// A byte range in one source file.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// The file the range is in.
    pub file: FileId,
    /// Byte offset of the first character.
    pub start: u32,
    /// Byte offset one past the last character.
    pub end: u32,
}

impl Span {
    /// A span covering `start..end` of `file`.
    pub fn new(file: FileId, start: usize, end: usize) -> Span {
        Span {
            file,
            start: start as u32,
            end: end as u32,
        }
    }
}

/// One loaded source file.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// The name shown in diagnostics and `!locs` (the path as it was resolved).
    pub name: String,
    /// The path the text was read from, if any.
    pub path: Option<PathBuf>,
    /// The original text (before preprocessing).
    pub text: Arc<str>,
    /// Byte offsets of line starts, computed on first use: only diagnostics
    /// and `!locs` need them, and a clean run over megabytes of includes
    /// would otherwise scan every byte for them.
    line_starts: OnceLock<Vec<u32>>,
}

impl SourceFile {
    fn new(name: String, path: Option<PathBuf>, text: Arc<str>) -> SourceFile {
        SourceFile {
            name,
            path,
            text,
            line_starts: OnceLock::new(),
        }
    }

    fn line_starts(&self) -> &[u32] {
        self.line_starts.get_or_init(|| {
            let mut starts = vec![0u32];
            starts.extend(
                self.text
                    .bytes()
                    .enumerate()
                    .filter(|&(_, b)| b == b'\n')
                    .map(|(i, _)| i as u32 + 1),
            );
            starts
        })
    }

    /// One-based line number of a byte offset.
    pub fn line_of(&self, offset: u32) -> usize {
        match self.line_starts().binary_search(&offset) {
            Ok(i) => i + 1,
            Err(i) => i,
        }
    }

    /// One-based (line, column) of a byte offset; the column counts characters.
    pub fn line_col(&self, offset: u32) -> (usize, usize) {
        let line = self.line_of(offset);
        let start = self.line_starts()[line - 1] as usize;
        let end = (offset as usize).min(self.text.len());
        let col = self
            .text
            .get(start..end)
            .map_or(end - start, |s| s.chars().count())
            + 1;
        (line, col)
    }
}

/// All source files of one run, addressed by [`FileId`].
#[derive(Debug, Default, Clone)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    /// Adds a file and returns its id.
    pub fn add(
        &mut self,
        name: impl Into<String>,
        path: Option<&Path>,
        text: impl Into<Arc<str>>,
    ) -> FileId {
        self.files.push(SourceFile::new(
            name.into(),
            path.map(Path::to_path_buf),
            text.into(),
        ));
        FileId(self.files.len() as u32 - 1)
    }

    /// The file with this id.
    pub fn file(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    /// Number of files loaded.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// Whether no file is loaded.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// `file:line` as llvm-tblgen prints it in `!locs`.
    pub fn loc_string(&self, span: Span) -> String {
        let f = self.file(span.file);
        let base = f.name.rsplit('/').next().unwrap_or(&f.name);
        format!("{}:{}", base, f.line_of(span.start))
    }

    /// `file:line:col` of the start of a span.
    pub fn position(&self, span: Span) -> String {
        let f = self.file(span.file);
        let (l, c) = f.line_col(span.start);
        format!("{}:{}:{}", f.name, l, c)
    }

    /// The source text a span covers.
    pub fn snippet(&self, span: Span) -> &str {
        let f = self.file(span.file);
        f.text
            .get(span.start as usize..span.end as usize)
            .unwrap_or("")
    }

    /// Renders diagnostics as plain text (no colour), rustc style.
    pub fn render(&self, diags: &[Diagnostic]) -> String {
        let config = term::Config::default();
        let mut out = String::new();
        for d in diags {
            if term::emit_to_string(&mut out, &config, self, &d.to_codespan()).is_err() {
                // Only a span outside its file gets here; still say what went wrong.
                out.push_str(&format!("{}: {}\n", d.severity, d.message));
            }
        }
        out
    }
}

impl<'a> Files<'a> for SourceMap {
    type FileId = FileId;
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, id: FileId) -> Result<&'a str, FilesError> {
        self.files
            .get(id.0 as usize)
            .map(|f| f.name.as_str())
            .ok_or(FilesError::FileMissing)
    }

    fn source(&'a self, id: FileId) -> Result<&'a str, FilesError> {
        self.files
            .get(id.0 as usize)
            .map(|f| &*f.text)
            .ok_or(FilesError::FileMissing)
    }

    fn line_index(&'a self, id: FileId, byte_index: usize) -> Result<usize, FilesError> {
        let f = self
            .files
            .get(id.0 as usize)
            .ok_or(FilesError::FileMissing)?;
        Ok(f.line_of(byte_index as u32) - 1)
    }

    fn line_range(&'a self, id: FileId, line_index: usize) -> Result<Range<usize>, FilesError> {
        let f = self
            .files
            .get(id.0 as usize)
            .ok_or(FilesError::FileMissing)?;
        let starts = f.line_starts();
        let start = *starts.get(line_index).ok_or(FilesError::LineTooLarge {
            given: line_index,
            max: starts.len() - 1,
        })?;
        let end = starts
            .get(line_index + 1)
            .map_or(f.text.len(), |&e| e as usize);
        Ok(start as usize..end)
    }
}

/// How serious a diagnostic is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Severity {
    /// The input is rejected.
    Error,
    /// The input is accepted but probably wrong.
    Warning,
    /// Extra information (e.g. the output of `dump`).
    Note,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        })
    }
}

/// What went wrong, in categories a tool can act on.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Reading a file failed.
    Io,
    /// Preprocessor directives are unbalanced or malformed.
    Preprocessor,
    /// The text does not follow the grammar.
    Syntax,
    /// A name does not refer to anything defined.
    Undefined,
    /// Something is defined twice.
    Redefinition,
    /// A value does not have the type its context needs.
    Type,
    /// A bang operator or expression cannot be evaluated.
    Eval,
    /// An `assert` failed.
    Assert,
    /// A limit (recursion depth, loop size, include depth) was exceeded.
    Limit,
    /// The description is inconsistent (register semantics).
    Semantic,
    /// Output of `dump` and other notes.
    Info,
}

/// One problem found in the input: a value, rendered by [`SourceMap::render`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error, warning or note.
    pub severity: Severity,
    /// The category.
    pub kind: Kind,
    /// The main message, one line, lower-case start.
    pub message: String,
    /// Where the problem is.
    pub primary: Span,
    /// A short label under the primary span.
    pub label: String,
    /// Related places ("class X defined here"), each with its own label.
    pub secondary: Vec<(Span, String)>,
    /// A suggestion how to fix it.
    pub help: Option<String>,
    /// Whether this error only follows from an earlier one (a reference to
    /// a record whose definition failed): such errors are counted, not shown,
    /// when the earlier error is.
    pub(crate) follows: bool,
}

impl Diagnostic {
    /// An error with a message at a span.
    pub fn error(kind: Kind, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            kind,
            message: message.into(),
            primary: span,
            label: String::new(),
            secondary: Vec::new(),
            help: None,
            follows: false,
        }
    }

    /// An error about no place in the text (a file that cannot be read):
    /// rendered as its message and help alone.
    pub fn unlocated(kind: Kind, message: impl Into<String>) -> Diagnostic {
        Diagnostic::error(
            kind,
            Span {
                file: FileId::NONE,
                start: 0,
                end: 0,
            },
            message,
        )
    }

    /// Marks this error as following from an earlier one (see [`Diagnostic::follows_from_earlier`]).
    pub(crate) fn following(mut self) -> Diagnostic {
        self.follows = true;
        self
    }

    /// Whether this error only follows from an earlier error (a reference to
    /// a record, class or variable whose definition failed). The loader drops
    /// such errors when it reports the earlier one; see [`crate::Loader::errors_not_shown`].
    pub fn follows_from_earlier(&self) -> bool {
        self.follows
    }

    /// A note (used for `dump`).
    pub fn note(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Note,
            ..Diagnostic::error(Kind::Info, span, message)
        }
    }

    /// Sets the label under the primary span.
    pub fn with_label(mut self, label: impl Into<String>) -> Diagnostic {
        self.label = label.into();
        self
    }

    /// Adds a secondary span with its label.
    pub fn with_secondary(mut self, span: Span, label: impl Into<String>) -> Diagnostic {
        self.secondary.push((span, label.into()));
        self
    }

    /// Sets the help line.
    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }

    /// Whether this diagnostic rejects the input.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    fn to_codespan(&self) -> cs::Diagnostic<FileId> {
        let d = match self.severity {
            Severity::Error => cs::Diagnostic::error(),
            Severity::Warning => cs::Diagnostic::warning(),
            Severity::Note => cs::Diagnostic::note(),
        };
        let mut labels = Vec::new();
        if self.primary.file != FileId::NONE {
            labels.push(
                cs::Label::primary(
                    self.primary.file,
                    self.primary.start as usize..self.primary.end as usize,
                )
                .with_message(self.label.clone()),
            );
        }
        for (s, m) in &self.secondary {
            labels.push(
                cs::Label::secondary(s.file, s.start as usize..s.end as usize)
                    .with_message(m.clone()),
            );
        }
        let mut d = d.with_message(self.message.clone()).with_labels(labels);
        if let Some(h) = &self.help {
            d = d.with_notes(vec![format!("help: {h}")]);
        }
        d
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.severity, self.message)?;
        if let Some(h) = &self.help {
            write!(f, " (help: {h})")?;
        }
        Ok(())
    }
}

/// A list of diagnostics that also implements `std::error::Error`, for `?` in callers.
#[derive(Debug)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for d in &self.0 {
            writeln!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}

/// The summary line after a file's rendered diagnostics, as tdgen and
/// regalloc print it: `error: FILE found N errors`, and how many more
/// follow from them and are not shown (`; 3 more follow from them and
/// are not shown`), with a final newline.
pub fn summary_line(file: &std::path::Path, errors: usize, not_shown: usize) -> String {
    summary_line_with_limit(file, errors, not_shown, 0)
}

/// [`summary_line`] for a run whose errors past the first ones shown were
/// left out (`beyond_limit` of the `errors`, see
/// [`crate::Loader::errors_beyond_limit`]): `; only the first 100 are shown`.
pub fn summary_line_with_limit(
    file: &std::path::Path,
    errors: usize,
    not_shown: usize,
    beyond_limit: usize,
) -> String {
    let mut s = format!(
        "error: {} found {errors} error{}",
        file.display(),
        if errors == 1 { "" } else { "s" }
    );
    if not_shown > 0 {
        s.push_str(&format!(
            "; {not_shown} more {} from {} and {} not shown",
            if not_shown == 1 { "follows" } else { "follow" },
            if errors == 1 { "it" } else { "them" },
            if not_shown == 1 { "is" } else { "are" },
        ));
    }
    if beyond_limit > 0 {
        s.push_str(&format!(
            "; only the first {} are shown",
            errors.saturating_sub(beyond_limit)
        ));
    }
    s.push('\n');
    s
}
