//! The formatter's lossless lexer: every byte of a `.td` file in exactly one token, comments and preprocessor lines included.
//!
//! Token boundaries are at least as coarse as llvm-tblgen's lexer (TGLexer)
//! draws them: a token here is one TGLexer token or several glued ones (a
//! signed number runs on into the identifier characters after it), never a
//! part of one. The formatter changes only the blanks between these tokens,
//! so it never splits or joins a token TableGen reads. Strings, `[{ }]` code
//! and block comments are single tokens, whatever they contain.

use std::fmt;

/// What a token is, as far as layout cares.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum TokenKind {
    /// Spaces, tabs, carriage returns, vertical tabs and form feeds.
    Blank,
    /// One `\n`.
    Newline,
    /// `// ...` up to (not including) the end of the line.
    LineComment,
    /// `/* ... */`, nested as TableGen nests them; may span lines.
    BlockComment,
    /// A whole `#ifdef`/`#ifndef`/`#define`/`#else`/`#endif` line (without its newline).
    Directive,
    /// A run of identifier characters (a name, a keyword, a number), or a
    /// signed number (`-3`) and the identifier characters after it.
    Word,
    /// `"..."`, escapes included (an escaped newline continues it on the next line).
    String,
    /// `[{ ... }]`; may span lines.
    Code,
    /// `!name`.
    Bang,
    /// `$name`.
    Var,
    /// `...`.
    Ellipsis,
    /// Any other single character TableGen knows: `{}[]()<>,;:=?#.!$-+`.
    Punct,
    /// A character TableGen does not know, inside an `#ifdef` or `#ifndef`
    /// (whose text the preprocessor may skip unread): kept, blanks around it too.
    Opaque,
}

/// One token: its kind and its byte range in the text.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Token {
    pub(crate) kind: TokenKind,
    pub(crate) start: usize,
    pub(crate) end: usize,
}

impl Token {
    /// The token's text in `source`.
    pub(crate) fn text<'a>(&self, source: &'a str) -> &'a str {
        &source[self.start..self.end]
    }

    /// Whether the token carries meaning (is neither blank nor a line break).
    pub(crate) fn is_significant(&self) -> bool {
        !matches!(self.kind, TokenKind::Blank | TokenKind::Newline)
    }

    /// Whether the token is a comment.
    pub(crate) fn is_comment(&self) -> bool {
        matches!(self.kind, TokenKind::LineComment | TokenKind::BlockComment)
    }
}

/// A text the formatter cannot read (or, never expected, a formatting that would change its tokens), with where: 1-based line and column, the
/// column counted in characters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError {
    /// Byte offset of the problem.
    pub offset: usize,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

impl FormatError {
    pub(crate) fn at(source: &str, offset: usize, message: impl Into<String>) -> FormatError {
        let before = &source[..offset];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |p| p + 1);
        let column = source[line_start..offset].chars().count() + 1;
        FormatError {
            offset,
            line,
            column,
            message: message.into(),
        }
    }
}

fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// Splits `source` into tokens that cover it exactly.
pub(crate) fn lex(source: &str) -> Result<Vec<Token>, FormatError> {
    let b = source.as_bytes();
    let mut tokens = Vec::new();
    let mut i = 0;
    // As the preprocessor decides it: only spaces, tabs and carriage
    // returns since the last newline.
    let mut line_start = true;
    // Open `#ifdef`/`#ifndef` conditionals.
    let mut conditionals = 0usize;
    while i < b.len() {
        let start = i;
        let c = b[i];
        let kind = match c {
            b'\n' => {
                i += 1;
                line_start = true;
                tokens.push(Token {
                    kind: TokenKind::Newline,
                    start,
                    end: i,
                });
                continue;
            }
            b' ' | b'\t' | b'\r' | 0x0b | 0x0c => {
                while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\r' | 0x0b | 0x0c) {
                    if matches!(b[i], 0x0b | 0x0c) {
                        line_start = false;
                    }
                    i += 1;
                }
                tokens.push(Token {
                    kind: TokenKind::Blank,
                    start,
                    end: i,
                });
                continue;
            }
            b'#' if line_start && directive_length(&b[i + 1..]).is_some() => {
                i = line_end(b, i);
                match directive_name(&source[start..i]) {
                    "ifdef" | "ifndef" => conditionals += 1,
                    "endif" => conditionals = conditionals.saturating_sub(1),
                    _ => {}
                }
                TokenKind::Directive
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                i = line_end(b, i);
                TokenKind::LineComment
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i = block_comment_end(b, i)
                    .ok_or_else(|| FormatError::at(source, start, "unterminated /* comment"))?;
                TokenKind::BlockComment
            }
            b'"' => {
                i = string_end(b, i)
                    .ok_or_else(|| FormatError::at(source, start, "unterminated string"))?;
                TokenKind::String
            }
            b'[' if b.get(i + 1) == Some(&b'{') => {
                i = find(b, i + 2, b"}]")
                    .ok_or_else(|| FormatError::at(source, start, "unterminated [{ code block"))?
                    + 2;
                TokenKind::Code
            }
            b'-' | b'+' if b.get(i + 1).is_some_and(u8::is_ascii_digit) => {
                i = ident_end(b, i + 1);
                TokenKind::Word
            }
            c if is_ident_char(c) => {
                i = ident_end(b, i);
                TokenKind::Word
            }
            b'!' if b.get(i + 1).is_some_and(u8::is_ascii_alphabetic) => {
                i += 1;
                while i < b.len() && b[i].is_ascii_alphabetic() {
                    i += 1;
                }
                TokenKind::Bang
            }
            b'$' if b.get(i + 1).copied().is_some_and(is_ident_char) => {
                i = ident_end(b, i + 1);
                TokenKind::Var
            }
            b'.' if b.get(i + 1) == Some(&b'.') && b.get(i + 2) == Some(&b'.') => {
                i += 3;
                TokenKind::Ellipsis
            }
            b'{' | b'}' | b'[' | b']' | b'(' | b')' | b'<' | b'>' | b',' | b';' | b':' | b'='
            | b'?' | b'#' | b'.' | b'!' | b'$' | b'-' | b'+' => {
                i += 1;
                TokenKind::Punct
            }
            _ if conditionals > 0 => {
                i += source[i..].chars().next().map_or(1, char::len_utf8);
                TokenKind::Opaque
            }
            _ => {
                let ch = source[i..].chars().next().unwrap_or('?');
                return Err(FormatError::at(
                    source,
                    start,
                    format!("unexpected character {ch:?}"),
                ));
            }
        };
        line_start = false;
        tokens.push(Token {
            kind,
            start,
            end: i,
        });
    }
    Ok(tokens)
}

/// The length of a directive name (`define`, `ifdef`, `ifndef`, `else`,
/// `endif`) at the start of `b`, as the preprocessor recognizes one: the
/// whole run of letters after `#` must be the name.
pub(crate) fn directive_length(b: &[u8]) -> Option<usize> {
    let n = b.iter().take_while(|c| c.is_ascii_alphabetic()).count();
    matches!(
        &b[..n],
        b"define" | b"ifdef" | b"ifndef" | b"else" | b"endif"
    )
    .then_some(n)
}

/// The directive name of a directive token's text (`#ifdef X` gives `ifdef`).
pub(crate) fn directive_name(text: &str) -> &str {
    let rest = &text[1..];
    let n = directive_length(rest.as_bytes()).unwrap_or(0);
    &rest[..n]
}

fn ident_end(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && is_ident_char(b[i]) {
        i += 1;
    }
    i
}

fn line_end(b: &[u8], i: usize) -> usize {
    b[i..]
        .iter()
        .position(|&c| c == b'\n')
        .map_or(b.len(), |p| i + p)
}

fn block_comment_end(b: &[u8], mut i: usize) -> Option<usize> {
    let mut depth = 0usize;
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
            depth += 1;
            i += 2;
        } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return Some(i);
            }
        } else {
            i += 1;
        }
    }
    None
}

fn string_end(b: &[u8], mut i: usize) -> Option<usize> {
    i += 1;
    while i < b.len() {
        match b[i] {
            // An escaped character may be a newline: the string then goes on
            // on the next line, as TableGen's grammar reads it.
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            b'\n' => return None,
            _ => i += 1,
        }
    }
    None
}

fn find(b: &[u8], from: usize, pat: &[u8]) -> Option<usize> {
    b.get(from..)?
        .windows(pat.len())
        .position(|w| w == pat)
        .map(|p| from + p)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<(TokenKind, &str)> {
        lex(s)
            .unwrap()
            .into_iter()
            .map(|t| (t.kind, t.text(s)))
            .collect()
    }

    #[test]
    fn tokens_cover_the_text() {
        use TokenKind::*;
        assert_eq!(
            kinds("def X{3-0} : !add(-1, $a)...[{ x }]/* a /* b */ */ // c\n#ifdef Y\n"),
            vec![
                (Word, "def"),
                (Blank, " "),
                (Word, "X"),
                (Punct, "{"),
                (Word, "3"),
                (Word, "-0"),
                (Punct, "}"),
                (Blank, " "),
                (Punct, ":"),
                (Blank, " "),
                (Bang, "!add"),
                (Punct, "("),
                (Word, "-1"),
                (Punct, ","),
                (Blank, " "),
                (Var, "$a"),
                (Punct, ")"),
                (Ellipsis, "..."),
                (Code, "[{ x }]"),
                (BlockComment, "/* a /* b */ */"),
                (Blank, " "),
                (LineComment, "// c"),
                (Newline, "\n"),
                (Directive, "#ifdef Y"),
                (Newline, "\n"),
            ]
        );
    }

    #[test]
    fn a_hash_not_at_a_line_start_is_a_paste() {
        use TokenKind::*;
        assert_eq!(
            kinds("a #ifdef"),
            vec![(Word, "a"), (Blank, " "), (Punct, "#"), (Word, "ifdef")]
        );
        assert_eq!(kinds("#ifdefX")[0], (Punct, "#"));
    }

    #[test]
    fn errors_say_where() {
        let e = |s: &str| lex(s).unwrap_err().to_string();
        assert_eq!(e("def X {\n  let s = \"abc\n"), "2:11: unterminated string");
        assert_eq!(e("x /* a /* b */"), "1:3: unterminated /* comment");
        assert_eq!(e("let c = [{ x"), "1:9: unterminated [{ code block");
        assert_eq!(e("def é@"), "1:5: unexpected character 'é'");
        assert_eq!(e("a\n  @"), "2:3: unexpected character '@'");
        assert_eq!(e("#ifdef X\n#endif\n@"), "3:1: unexpected character '@'");
    }

    #[test]
    fn unknown_characters_inside_conditionals_are_kept() {
        use TokenKind::*;
        assert_eq!(
            kinds("#ifndef X\n@é\n#endif")[2..4],
            [(Opaque, "@"), (Opaque, "é")]
        );
    }
}
