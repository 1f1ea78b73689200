//! `tdgen fmt`: a formatter for TableGen `.td` files that changes layout only, never what TableGen reads.
//!
//! # How it works, and why it cannot change records
//!
//! The text is split by a lossless lexer ([`lex`]) into tokens that cover
//! every byte: blanks, newlines, comments, whole preprocessor lines, and the
//! tokens TableGen reads (strings, `[{ }]` code and block comments are one
//! token each, whatever they span). The formatter then rewrites only the
//! blanks and line breaks between tokens, line by line, keeping the line
//! breaks the author wrote (it adds some, at commas, and never removes
//! one). Before the result is returned it is lexed again and its tokens are
//! compared with the input's, text for text (comments and preprocessor lines
//! up to trailing blanks): a formatting that would change a token, join two,
//! or move one into a comment is an error, never an output. Since
//! TableGen's meaning depends on its tokens and not on the blanks between
//! them (line breaks matter only to `//` comments and to `#` directives, both
//! checked), equal tokens mean equal records; the corpus test
//! (`tests/fmt_corpus.rs`) checks that against `llvm-tblgen-19 -dump-json`
//! on every LLVM 19 target.
//!
//! It works from tokens rather than a syntax tree because a tree sees only
//! one side of each `#ifdef`, and loses comments: tokens see every line. The
//! structure layout needs (which `{` opens a body, which `:` is a header's)
//! is tracked by a small state machine over the tokens, which also survives
//! text that does not parse.
//!
//! # Style
//!
//! - Indentation: 2 spaces per `{ }` body (`class`, `def`, `multiclass`,
//!   `defset`) and per `let ... in { }`, `foreach ... in { }` and
//!   `if ... then { } else { }` block, counted from the line holding the
//!   statement's keyword; the closing `}` lines up with that line. A
//!   statement's continuation lines keep their indentation relative to its
//!   first line (aligned operands stay aligned when the statement moves),
//!   but never sit left of the block.
//! - Spacing within a line: one space around `=`, and around `:` in headers
//!   (`def X : Y`; a `:` inside brackets, as in `GPR:$dst`, is left as
//!   written); one space after a comma; none before `,` or `;`, after an
//!   opening bracket or before a closing one (`(`, `[`, `<`, and a `{` that
//!   is a value or a bit range); one space around a body's braces. Elsewhere
//!   runs of blanks become one space, and tokens written together stay
//!   together. A trailing comment keeps the blanks before it (they align
//!   columns of comments).
//! - Long lines: a line whose code (not counting a trailing comment) is over
//!   80 columns is broken after commas, at the outermost bracket level that
//!   has commas, filling each line as far as fits; continuation lines line
//!   up just after the bracket they are in, or 4 columns in when that
//!   bracket is far right (past column 60); a header's parents line up
//!   after its `:`, and other commas of a statement's own (`let A = 1, B =
//!   2 in`) continue 4 columns in. Pieces still too long are broken at the
//!   next level in. A line with a multi-line token (`[{ }]` code, a block
//!   comment) is never broken.
//! - Never changed: the text of `[{ }]` code blocks and of strings, comments
//!   (but for trailing blanks), and preprocessor lines (`#ifdef`, `#ifndef`,
//!   `#define`, `#else`, `#endif`), indentation included. The two sides
//!   of an `#ifdef` are each laid out from the state before it.
//! - Blank lines: kept, at most one in a row, none at the start or end of
//!   the file; trailing blanks removed; the file ends in one newline.

mod lex;

pub use lex::FormatError;
use lex::{Token, TokenKind, lex};

/// Lines longer than this (code only, not counting a trailing comment) are broken at commas.
const MAX_WIDTH: usize = 80;
/// Indentation per block level.
const INDENT: usize = 2;
/// The extra indentation of a continuation line not aligned with a bracket.
const CONTINUATION: usize = 4;
/// A continuation line aligned with a bracket further right than this is indented by [`CONTINUATION`] instead.
const MAX_ALIGN: usize = 60;
/// Tab stops, for measuring the indentation written with tabs.
const TAB: usize = 8;

/// Formats one file's text. Errors: a text that cannot be lexed (an
/// unterminated string, `[{` or `/*`, a character TableGen does not know),
/// located.
pub fn format(source: &str) -> Result<String, FormatError> {
    let tokens = lex(source)?;
    let lines = split_lines(source, &tokens);
    let mut out = Layout::new(source, &tokens).run(&lines);
    if !out.is_empty() {
        out.push('\n');
    }
    verify(source, &tokens, &out)?;
    Ok(out)
}

/// One source line: its significant tokens, the blanks before each, and how it was indented.
struct Line {
    /// Indices into the token list of the line's tokens, comments included.
    tokens: Vec<usize>,
    /// The width (in columns) of the blanks before each token; 0 for the first.
    gaps: Vec<usize>,
    /// The column each token started at.
    columns: Vec<usize>,
    /// The indentation it was written with, in columns.
    indent: usize,
    /// Blank lines before it.
    blank_before: usize,
}

/// Groups the tokens into lines (a multi-line token stays in the line it starts on).
fn split_lines(source: &str, tokens: &[Token]) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut current = Line {
        tokens: Vec::new(),
        gaps: Vec::new(),
        columns: Vec::new(),
        indent: 0,
        blank_before: 0,
    };
    let mut blanks = 0;
    // The visual column where the previous significant token ended, or the
    // line's start.
    let mut column = 0;
    for (i, t) in tokens.iter().enumerate() {
        match t.kind {
            TokenKind::Newline => {
                if current.tokens.is_empty() {
                    blanks += 1;
                } else {
                    current.blank_before = blanks;
                    blanks = 0;
                    lines.push(std::mem::replace(
                        &mut current,
                        Line {
                            tokens: Vec::new(),
                            gaps: Vec::new(),
                            columns: Vec::new(),
                            indent: 0,
                            blank_before: 0,
                        },
                    ));
                }
                column = 0;
            }
            TokenKind::Blank => {}
            _ => {
                let start = current_line_column(source, t.start);
                if current.tokens.is_empty() {
                    current.indent = start;
                    current.gaps.push(0);
                } else {
                    current.gaps.push(start.saturating_sub(column));
                }
                current.tokens.push(i);
                current.columns.push(start);
                column = current_line_column(source, t.end);
            }
        }
    }
    if !current.tokens.is_empty() {
        current.blank_before = blanks;
        lines.push(current);
    }
    lines
}

/// The visual column after `text` written from `column` (tabs to the next stop).
fn advance(mut column: usize, text: &str) -> usize {
    for c in text.chars() {
        column = match c {
            '\t' => (column / TAB + 1) * TAB,
            '\r' => column,
            '\n' => 0,
            _ => column + 1,
        };
    }
    column
}

/// The visual column of byte `offset` on its physical line.
fn current_line_column(source: &str, offset: usize) -> usize {
    let line_start = source[..offset].rfind('\n').map_or(0, |p| p + 1);
    advance(0, &source[line_start..offset])
}

/// What an open bracket is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Open {
    /// A body or block `{`; `base` is the indentation of the line holding
    /// its statement's keyword.
    Block { base: usize },
    /// `(`, `[`, `<`, or a `{` that is a value or bit range, and the column
    /// just after it as written and as laid out: a continuation line that
    /// was aligned there stays aligned there.
    Value { bracket: u8, old: usize, new: usize },
}

/// The part a token plays in layout.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Role {
    OpenValue,
    CloseValue,
    OpenBlock,
    CloseBlock,
    /// A `:` outside brackets: a header's (`def X : Y`).
    HeaderColon,
    Other,
}

impl Role {
    fn depth_change(self) -> i32 {
        match self {
            Role::OpenValue | Role::OpenBlock => 1,
            Role::CloseValue | Role::CloseBlock => -1,
            _ => 0,
        }
    }
}

/// The structure seen so far: open brackets and where the current statement stands.
#[derive(Clone, Debug)]
struct State {
    stack: Vec<Open>,
    /// Between statements: the next token starts one.
    at_statement_start: bool,
    /// The keyword of the statement being read (after `let ... in`, the
    /// nested statement's), which decides whether a `{` opens a body.
    keyword: Option<String>,
    /// The indentation of the line holding `keyword`.
    keyword_indent: usize,
    /// The previous token that is not a comment.
    previous: Option<String>,
    /// How far the current statement's first line moved (new minus old indentation).
    shift: isize,
    /// The column (as written, as laid out) of what follows the statement's
    /// header `:`, where its continuation lines often line up.
    header_anchor: Option<(usize, usize)>,
    /// The next token's columns become `header_anchor`.
    anchor_next: bool,
}

impl State {
    fn new() -> State {
        State {
            stack: Vec::new(),
            at_statement_start: true,
            keyword: None,
            keyword_indent: 0,
            previous: None,
            shift: 0,
            header_anchor: None,
            anchor_next: false,
        }
    }

    /// Whether no value bracket is open inside the innermost block.
    fn at_value_depth_zero(&self) -> bool {
        !matches!(self.stack.last(), Some(Open::Value { .. }))
    }

    /// The indentation of statements in the innermost block.
    fn block_indent(&self) -> usize {
        self.stack
            .iter()
            .rev()
            .find_map(|o| match o {
                Open::Block { base } => Some(base + INDENT),
                Open::Value { .. } => None,
            })
            .unwrap_or(0)
    }

    /// Where a continuation line written at column `old` goes: where the
    /// bracket or header it was aligned with went, else moved as its
    /// statement's first line moved; never left of the block.
    fn continuation_indent(&self, old: usize) -> usize {
        let aligned = self
            .stack
            .iter()
            .rev()
            .map_while(|o| match *o {
                Open::Value { old, new, .. } => Some((old, new)),
                Open::Block { .. } => None,
            })
            .chain(self.header_anchor)
            .find(|&(written, _)| written == old);
        let indent = match aligned {
            Some((_, new)) => new,
            None => (old as isize + self.shift).max(0) as usize,
        };
        indent.max(self.block_indent())
    }

    /// Whether `{` here opens a body or block rather than a value or bit range.
    fn brace_opens_block(&self) -> bool {
        if !self.at_value_depth_zero() {
            return false;
        }
        let previous = self.previous.as_deref();
        if matches!(previous, Some("in" | "then" | "else")) {
            return true;
        }
        match self.keyword.as_deref() {
            Some("class" | "def" | "multiclass") => true,
            Some("defset") => previous == Some("="),
            _ => false,
        }
    }

    /// The role `text` (a significant token that is not a comment) would play here.
    fn role(&self, kind: TokenKind, text: &str) -> Role {
        if kind != TokenKind::Punct {
            return Role::Other;
        }
        match text {
            "(" | "[" | "<" => Role::OpenValue,
            "{" if self.brace_opens_block() => Role::OpenBlock,
            "{" => Role::OpenValue,
            ")" | "]" | ">" => Role::CloseValue,
            "}" => match self.stack.last() {
                Some(Open::Block { .. }) => Role::CloseBlock,
                _ => Role::CloseValue,
            },
            ":" if self.at_value_depth_zero() => Role::HeaderColon,
            _ => Role::Other,
        }
    }

    /// Takes in one token that is not a comment, laid out on a line
    /// indented by `indent`; `old` and `new` are the columns it starts at as
    /// written and as laid out.
    fn take(&mut self, kind: TokenKind, text: &str, indent: usize, old: usize, new: usize) {
        let role = self.role(kind, text);
        if std::mem::take(&mut self.anchor_next) {
            self.header_anchor = Some((old, new));
        }
        let starts_statement = self.at_statement_start
            || (self.at_value_depth_zero()
                && matches!(self.previous.as_deref(), Some("in" | "then" | "else")));
        if starts_statement && kind == TokenKind::Word {
            self.keyword = Some(text.to_string());
            self.keyword_indent = indent;
        }
        self.at_statement_start = false;
        match role {
            Role::OpenBlock => {
                self.stack.push(Open::Block {
                    base: self.keyword_indent,
                });
                self.at_statement_start = true;
                self.keyword = None;
                self.header_anchor = None;
            }
            Role::OpenValue => self.stack.push(Open::Value {
                bracket: text.as_bytes()[0],
                old: old + 1,
                new: new + 1,
            }),
            Role::HeaderColon => self.anchor_next = true,
            Role::CloseBlock => {
                self.stack.pop();
                self.end_statement();
            }
            Role::CloseValue => self.close_value(text.as_bytes()[0]),
            _ if text == ";" && self.at_value_depth_zero() => self.end_statement(),
            _ => {}
        }
        self.previous = Some(text.to_string());
    }

    fn end_statement(&mut self) {
        self.at_statement_start = true;
        self.keyword = None;
        self.header_anchor = None;
        // The enclosing block's statement keyword line is where a later
        // braceless statement would take its base from; none until one starts.
        self.keyword_indent = self.block_indent();
    }

    /// Closes the innermost value bracket `close` matches (inside the
    /// innermost block); an unmatched closer (text that does not parse)
    /// closes nothing.
    fn close_value(&mut self, close: u8) {
        let open = match close {
            b')' => b'(',
            b']' => b'[',
            b'>' => b'<',
            _ => b'{',
        };
        for i in (0..self.stack.len()).rev() {
            match self.stack[i] {
                Open::Value { bracket, .. } if bracket == open => {
                    self.stack.truncate(i);
                    return;
                }
                Open::Value { .. } => {}
                Open::Block { .. } => return,
            }
        }
    }
}

/// A token as laid out: its text, the spaces before it and its role.
#[derive(Clone, Debug)]
struct Piece {
    text: String,
    gap: usize,
    /// The column it started at as written.
    old_column: usize,
    role: Role,
    kind: TokenKind,
}

impl Piece {
    fn is_multiline(&self) -> bool {
        self.text.contains('\n')
    }
}

/// Lays lines out, one after another.
struct Layout<'a> {
    source: &'a str,
    tokens: &'a [Token],
    state: State,
    /// For each open `#ifdef`/`#ifndef`: the state before it (its `#else`
    /// starts from it) and, after an `#else`, how many brackets were open
    /// where the first side ended.
    conditionals: Vec<(State, Option<usize>)>,
    out: String,
}

impl<'a> Layout<'a> {
    fn new(source: &'a str, tokens: &'a [Token]) -> Layout<'a> {
        Layout {
            source,
            tokens,
            state: State::new(),
            conditionals: Vec::new(),
            out: String::new(),
        }
    }

    fn run(mut self, lines: &[Line]) -> String {
        for (n, line) in lines.iter().enumerate() {
            if n > 0 {
                self.out.push('\n');
                if line.blank_before > 0 {
                    self.out.push('\n');
                }
            }
            self.line(line);
        }
        self.out
    }

    /// Lays out one line.
    fn line(&mut self, line: &Line) {
        let tokens = self.tokens;
        let first = tokens[line.tokens[0]];
        if first.kind == TokenKind::Directive {
            let text = first.text(self.source).trim_end();
            self.directive(text);
            // Kept where it was written: the preprocessor reads a directive
            // wherever blanks alone precede it on its line.
            self.out.extend(std::iter::repeat_n(' ', line.indent));
            self.out.push_str(text);
            return;
        }
        // Roles first, on a copy of the state: they depend on tokens only, and
        // the line breaks (which set where each token ends up) need them.
        let mut probe = self.state.clone();
        let pieces: Vec<Piece> = line
            .tokens
            .iter()
            .zip(&line.gaps)
            .zip(&line.columns)
            .map(|((&i, &gap), &old_column)| {
                let t = tokens[i];
                let text = normalized_text(t, self.source);
                let role = if t.is_comment() {
                    Role::Other
                } else {
                    let role = probe.role(t.kind, &text);
                    probe.take(t.kind, &text, 0, 0, 0);
                    role
                };
                Piece {
                    text,
                    gap,
                    old_column,
                    role,
                    kind: t.kind,
                }
            })
            .collect();
        let indent = self.indent_of(line, &pieces[0]);
        let pieces = space(pieces);
        let statement_level = self.state.at_value_depth_zero();
        let broken = break_line(indent, pieces, statement_level);
        let line_shift = indent as isize - line.indent as isize;
        let rows = broken.len();
        for (row, (indent, pieces)) in broken.iter().enumerate() {
            if row > 0 {
                self.out.push('\n');
            }
            self.out.extend(std::iter::repeat_n(' ', *indent));
            let mut column = *indent;
            for (n, p) in pieces.iter().enumerate() {
                let trailing = row + 1 == rows && n + 1 == pieces.len() && n > 0;
                let gap = if trailing && p.kind_is_comment() && p.gap > 0 {
                    // A comment ending a line stays in its column (moved with
                    // the line), which keeps columns of comments aligned.
                    let wanted = p.old_column as isize + line_shift - column as isize;
                    wanted.max(1) as usize
                } else {
                    p.gap
                };
                column += gap;
                if !p.kind_is_comment() {
                    self.state
                        .take(p.kind, &p.text, *indent, p.old_column, column);
                }
                self.out.extend(std::iter::repeat_n(' ', gap));
                self.out.push_str(&p.text);
                column = match p.text.rfind('\n') {
                    Some(at) => p.text[at + 1..].chars().count(),
                    None => column + p.text.chars().count(),
                };
            }
        }
    }

    /// The indentation of a line, from the state before it; a statement's
    /// first line also sets how far its continuation lines move.
    fn indent_of(&mut self, line: &Line, first: &Piece) -> usize {
        let state = &mut self.state;
        let indent = match first.role {
            Role::CloseBlock => match state.stack.last() {
                Some(Open::Block { base }) => *base,
                _ => state.block_indent(),
            },
            Role::OpenBlock => state.keyword_indent,
            _ if state.at_statement_start => state.block_indent(),
            _ => return state.continuation_indent(line.indent),
        };
        if !first.kind_is_comment() {
            state.shift = indent as isize - line.indent as isize;
        }
        indent
    }

    /// Follows a preprocessor line: each side of a conditional starts from
    /// the state before it. After it, the state is where its sides end
    /// when they leave as many brackets open as each other or as before it
    /// (the usual case, and two sides that each open a body); otherwise
    /// (a side that is not balanced alone, as text the preprocessor skips
    /// can be) the state from before it.
    fn directive(&mut self, text: &str) {
        match lex::directive_name(text) {
            "ifdef" | "ifndef" => self.conditionals.push((self.state.clone(), None)),
            "else" => {
                let open = self.state.stack.len();
                if let Some((before, first_side)) = self.conditionals.last_mut() {
                    *first_side = Some(open);
                    self.state = before.clone();
                }
            }
            "endif" => {
                if let Some((before, first_side)) = self.conditionals.pop() {
                    let open = self.state.stack.len();
                    if open != before.stack.len() && first_side != Some(open) {
                        self.state = before;
                    }
                }
            }
            _ => {}
        }
    }
}

impl Piece {
    fn kind_is_comment(&self) -> bool {
        matches!(self.kind, TokenKind::LineComment | TokenKind::BlockComment)
    }
}

/// A token's text as written out: trailing blanks dropped from comments
/// (every line of a block comment) and preprocessor lines; everything else exact.
fn normalized_text(t: Token, source: &str) -> String {
    let text = t.text(source);
    match t.kind {
        TokenKind::LineComment | TokenKind::Directive => text.trim_end().to_string(),
        TokenKind::BlockComment => text
            .split('\n')
            .map(|l| l.trim_end_matches([' ', '\t', '\r', '\x0b', '\x0c']))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => text.to_string(),
    }
}

/// Sets the spaces between the tokens of a line.
fn space(mut pieces: Vec<Piece>) -> Vec<Piece> {
    for i in 1..pieces.len() {
        let gap = gap_between(&pieces[i - 1], &pieces[i]);
        pieces[i].gap = gap;
    }
    pieces
}

/// The spaces between `a` and `b` (whose `gap` is still as written).
fn gap_between(a: &Piece, b: &Piece) -> usize {
    if a.kind == TokenKind::Opaque || b.kind == TokenKind::Opaque {
        return b.gap;
    }
    let written = b.gap.min(1);
    if b.kind_is_comment() {
        // A comment ending the line is placed later, in its column.
        return written;
    }
    let wanted = if a.kind_is_comment() {
        written
    } else if matches!(b.text.as_str(), "," | ";") {
        0
    } else if a.text == "," {
        usize::from(b.role != Role::CloseValue)
    } else if a.text == "="
        || b.text == "="
        || a.role == Role::HeaderColon
        || b.role == Role::HeaderColon
    {
        1
    } else if a.role == Role::OpenBlock && b.role == Role::CloseBlock {
        written
    } else if matches!(a.role, Role::OpenBlock)
        || matches!(b.role, Role::OpenBlock | Role::CloseBlock)
    {
        1
    } else if a.role == Role::OpenValue || b.role == Role::CloseValue {
        0
    } else {
        written
    };
    if wanted == 0 && must_separate(a, b) {
        1
    } else {
        wanted
    }
}

/// Whether `a` and `b` written together would lex differently.
fn must_separate(a: &Piece, b: &Piece) -> bool {
    let (Some(last), Some(first)) = (a.text.bytes().last(), b.text.bytes().next()) else {
        return false;
    };
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    (ident(last) && (ident(first) || first == b'$'))
        || (last == b'[' && first == b'{')
        || (last == b'.' && first == b'.')
        || (matches!(a.text.as_str(), "-" | "+") && first.is_ascii_digit())
        || (a.text == "!" && first.is_ascii_alphabetic())
        || (a.text == "$" && ident(first))
        || (last == b'/' && matches!(first, b'/' | b'*'))
}

/// The width of `pieces` laid out from `indent`, trailing comments not counted.
fn code_width(indent: usize, pieces: &[Piece]) -> usize {
    let code_end = pieces
        .iter()
        .rposition(|p| !p.kind_is_comment())
        .map_or(0, |i| i + 1);
    indent
        + pieces[..code_end]
            .iter()
            .enumerate()
            .map(|(i, p)| if i == 0 { 0 } else { p.gap } + p.text.chars().count())
            .sum::<usize>()
}

/// Breaks a line too long for [`MAX_WIDTH`] after commas (the outermost
/// level that has them), each row filled as far as fits; rows still too
/// long are broken at the next level. `statement_level`: no value bracket
/// is open where the line starts.
fn break_line(
    indent: usize,
    pieces: Vec<Piece>,
    statement_level: bool,
) -> Vec<(usize, Vec<Piece>)> {
    if code_width(indent, &pieces) <= MAX_WIDTH || pieces.iter().any(Piece::is_multiline) {
        return vec![(indent, pieces)];
    }
    // Depth of each piece, relative to the line's start.
    let mut depth = 0i32;
    let depths: Vec<i32> = pieces
        .iter()
        .map(|p| {
            if p.role.depth_change() < 0 {
                depth -= 1;
            }
            let here = depth;
            if p.role.depth_change() > 0 {
                depth += 1;
            }
            here
        })
        .collect();
    let last_code = pieces
        .iter()
        .rposition(|p| !p.kind_is_comment())
        .unwrap_or(0);
    // Not before a body's `{` or `}`: a line starting with one is placed
    // by the block rules, not as a continuation, so a break there would
    // move on the next run.
    let commas: Vec<usize> = (0..last_code)
        .filter(|&i| pieces[i].text == "," && pieces[i].kind == TokenKind::Punct)
        .filter(|&i| {
            !matches!(
                pieces.get(i + 1).map(|p| p.role),
                Some(Role::OpenBlock | Role::CloseBlock)
            )
        })
        .collect();
    let Some(level) = commas.iter().map(|&i| depths[i]).min() else {
        return vec![(indent, pieces)];
    };
    let breaks: Vec<usize> = commas.into_iter().filter(|&i| depths[i] == level).collect();
    let mut rows = Vec::new();
    let mut start = 0;
    let mut row_indent = indent;
    let mut remaining = &breaks[..];
    loop {
        let rest = &pieces[start..];
        if remaining.is_empty() || code_width(row_indent, rest) <= MAX_WIDTH {
            rows.push((row_indent, rest.to_vec()));
            break;
        }
        // The last break that keeps the row within the width, else the first.
        let fitting = remaining
            .iter()
            .rposition(|&b| code_width(row_indent, &pieces[start..=b]) <= MAX_WIDTH)
            .unwrap_or(0);
        let end = remaining[fitting];
        rows.push((row_indent, pieces[start..=end].to_vec()));
        remaining = &remaining[fitting + 1..];
        start = end + 1;
        // Under the bracket this comma is in (two brackets on one line can
        // hold commas at the same level).
        row_indent = continuation_indent(indent, &pieces, &depths, end, level, statement_level);
    }
    let mut out = Vec::new();
    for (n, (row_indent, mut row)) in rows.into_iter().enumerate() {
        row[0].gap = 0;
        let level_here = if n == 0 {
            statement_level
        } else {
            statement_level && level <= 0
        };
        out.extend(break_line(row_indent, row, level_here));
    }
    out
}

/// Where the rows after the first start: just after the bracket that holds
/// the break commas when it is on this line (and not far right); for a
/// statement's own commas, under the first parent after a header's `:`, or
/// else 4 in from the line; else the line's indentation.
fn continuation_indent(
    indent: usize,
    pieces: &[Piece],
    depths: &[i32],
    first_break: usize,
    level: i32,
    statement_level: bool,
) -> usize {
    let opener = (0..first_break)
        .rev()
        .find(|&i| depths[i] < level)
        .filter(|&i| pieces[i].role.depth_change() > 0 && depths[i] == level - 1);
    match opener {
        Some(i) => {
            let column = code_width(indent, &pieces[..=i]);
            if column > MAX_ALIGN {
                indent + CONTINUATION
            } else {
                column
            }
        }
        None if statement_level && level <= 0 => {
            // A header's parents line up after its `:`.
            let colon = pieces[..first_break]
                .iter()
                .position(|p| p.role == Role::HeaderColon)
                .filter(|&h| h + 1 < first_break);
            match colon {
                Some(h) => {
                    let column =
                        code_width(indent, &pieces[..=h + 1]) - pieces[h + 1].text.chars().count();
                    if column > MAX_ALIGN {
                        indent + CONTINUATION
                    } else {
                        column
                    }
                }
                None => indent + CONTINUATION,
            }
        }
        None => indent,
    }
}

/// Checks that `out` has the tokens of the input: the same texts, comments
/// and preprocessor lines up to trailing blanks.
fn verify(source: &str, tokens: &[Token], out: &str) -> Result<(), FormatError> {
    let relexed = lex(out)
        .map_err(|e| internal(source, tokens.first().map_or(0, |t| t.start), &e.message))?;
    let mut before = tokens.iter().filter(|t| t.is_significant());
    let mut after = relexed.iter().filter(|t| t.is_significant());
    loop {
        match (before.next(), after.next()) {
            (None, None) => return Ok(()),
            (Some(a), Some(b))
                if a.kind == b.kind && normalized_text(*a, source) == normalized_text(*b, out) => {}
            (Some(a), _) => {
                return Err(internal(
                    source,
                    a.start,
                    "formatting would change this token",
                ));
            }
            (None, Some(_)) => {
                return Err(internal(
                    source,
                    source.len(),
                    "formatting would add a token",
                ));
            }
        }
    }
}

fn internal(source: &str, offset: usize, what: &str) -> FormatError {
    FormatError::at(
        source,
        offset,
        format!("internal error, file left as it is: {what} (please report it)"),
    )
}

#[cfg(test)]
mod tests;
