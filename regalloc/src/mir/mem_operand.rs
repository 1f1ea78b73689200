//! Memory operands in MIR text: `(load (s64) from %ir.p + 8, align 4, !tbaa !5)` read into a typed [`MemOperand`] as LLVM 19's MIR parser reads it (with its messages), and printed back as its `MachineMemOperand::print` prints it.
//!
//! The grammar hands over one parenthesized operand; this module splits it
//! into LLVM's tokens (identifiers may hold `-`, `.` and `$`; a number
//! stands apart from a following letter; `!tbaa` is one token, `!5` an
//! exclamation mark and a number), then reads flags, the operation,
//! scope, orderings, the type, the pointer and the trailing attributes in
//! the order LLVM's parser takes them. Errors carry the byte offset of the
//! token LLVM's parser reports them at.

use std::fmt::Write as _;

use crate::ir::{
    AtomicOrdering, FrameRef, LaneType, LowLevelType, MachineFunction, MemFlags, MemOperand,
    MemValue, MetadataId,
};

/// A reading error: the byte offset in the operand's text and the message.
pub(crate) type MemError = (usize, String);

/// Asks whether a frame object reference (`%stack.N`, with the name
/// written after it or an empty one) names an object of the function;
/// the message says why not.
pub(crate) type FrameCheck<'f> = &'f dyn Fn(FrameRef, &str) -> Result<(), String>;

/// Reads one memory operand, `text` holding it from its `(` to its `)`;
/// `frames` checks the frame objects it names ([`check_frame`] for a
/// function read so far).
pub(crate) fn parse(text: &str, frames: FrameCheck<'_>) -> Result<MemOperand, MemError> {
    let mut p = Parser {
        lexer: Lexer::new(text),
        frames,
    };
    p.operand()
}

/// Whether `func` has the frame object `fr` names, and with the name
/// `name` when one is written (LLVM's messages).
pub(crate) fn check_frame(func: &MachineFunction, fr: FrameRef, name: &str) -> Result<(), String> {
    let (objs, kind, what) = if fr.fixed {
        (&func.fixed_stack, "fixed-stack", "fixed stack object")
    } else {
        (&func.stack, "stack", "stack object")
    };
    let id = fr.id;
    let Some(o) = objs.iter().find(|o| o.id == id) else {
        return Err(format!("use of undefined {what} '%{kind}.{id}'"));
    };
    if !name.is_empty() && o.name.as_deref() != Some(name) {
        return Err(format!(
            "the name of the stack object '%stack.{id}' isn't '{name}'"
        ));
    }
    Ok(())
}

/// Appends `m` as LLVM prints it; `func` names its frame objects.
pub(crate) fn write(out: &mut String, func: &MachineFunction, m: &MemOperand) {
    out.push('(');
    for (flag, word) in [
        (MemFlags::VOLATILE, "volatile "),
        (MemFlags::NON_TEMPORAL, "non-temporal "),
        (MemFlags::DEREFERENCEABLE, "dereferenceable "),
        (MemFlags::INVARIANT, "invariant "),
    ] {
        if m.flags.has(flag) {
            out.push_str(word);
        }
    }
    for f in &m.target_flags {
        let _ = write!(out, "\"{f}\" ");
    }
    let (load, store) = (m.flags.has(MemFlags::LOAD), m.flags.has(MemFlags::STORE));
    if load {
        out.push_str("load ");
    }
    if store {
        out.push_str("store ");
    }
    if let Some(s) = &m.sync_scope {
        let _ = write!(out, "syncscope(\"{s}\") ");
    }
    for o in [m.ordering, m.failure_ordering] {
        if o != AtomicOrdering::NotAtomic {
            out.push_str(o.name());
            out.push(' ');
        }
    }
    match m.ty {
        // LLVM prints such a size as `(sN)`, which its own parser refuses
        // ("invalid size for scalar type"); the byte count reads back as
        // the same type.
        Some(LowLevelType::Scalar(bits)) if bits > MAX_SCALAR_BITS && bits % 8 == 0 => {
            let _ = write!(out, "{}", bits / 8);
        }
        Some(t) => {
            out.push('(');
            write_type(out, t);
            out.push(')');
        }
        None => out.push_str("unknown-size"),
    }
    let word = match (load, store) {
        (true, true) => " on ",
        (true, false) => " from ",
        _ => " into ",
    };
    match &m.value {
        Some(v) => {
            out.push_str(word);
            write_value(out, func, v);
        }
        None if m.offset != 0 => {
            out.push_str(word);
            out.push_str("unknown-address");
        }
        None => {}
    }
    match m.offset {
        0 => {}
        o if o < 0 => {
            let _ = write!(out, " - {}", o.unsigned_abs());
        }
        o => {
            let _ = write!(out, " + {o}");
        }
    }
    if let Some(a) = m.align {
        let _ = write!(out, ", align {a}");
    }
    if let Some(a) = m.base_align {
        let _ = write!(out, ", basealign {a}");
    }
    for (name, md) in [
        ("tbaa", m.tbaa),
        ("alias.scope", m.alias_scope),
        ("noalias", m.noalias),
        ("range", m.range),
    ] {
        if let Some(MetadataId(n)) = md {
            let _ = write!(out, ", !{name} !{n}");
        }
    }
    if m.address_space != 0 {
        let _ = write!(out, ", addrspace {}", m.address_space);
    }
    out.push(')');
}

/// `s64`, `p0`, `<4 x s32>`, `<vscale x 2 x p0>`.
fn write_type(out: &mut String, t: LowLevelType) {
    let lane = |out: &mut String, l: LaneType| {
        let _ = match l {
            LaneType::Scalar(b) => write!(out, "s{b}"),
            LaneType::Pointer(a) => write!(out, "p{a}"),
        };
    };
    match t {
        LowLevelType::Scalar(b) => lane(out, LaneType::Scalar(b)),
        LowLevelType::Pointer(a) => lane(out, LaneType::Pointer(a)),
        LowLevelType::Vector {
            lanes,
            scalable,
            lane: l,
        } => {
            out.push('<');
            if scalable {
                out.push_str("vscale x ");
            }
            let _ = write!(out, "{lanes} x ");
            lane(out, l);
            out.push('>');
        }
    }
}

fn write_value(out: &mut String, func: &MachineFunction, v: &MemValue) {
    let _ = match v {
        MemValue::IrNamed(n) => write!(out, "%ir.{n}"),
        MemValue::IrNumbered(n) => write!(out, "%ir.{n}"),
        MemValue::Global(n) => write!(out, "@{n}"),
        MemValue::Constant(c) => write!(out, "`{c}`"),
        MemValue::Frame(fr) => {
            let (kind, objs) = if fr.fixed {
                ("fixed-stack", &func.fixed_stack)
            } else {
                ("stack", &func.stack)
            };
            let name = objs
                .iter()
                .find(|o| o.id == fr.id)
                .and_then(|o| o.name.as_deref());
            match name {
                Some(n) => write!(out, "%{kind}.{}.{n}", fr.id),
                None => write!(out, "%{kind}.{}", fr.id),
            }
        }
        MemValue::Stack => write!(out, "stack"),
        MemValue::Got => write!(out, "got"),
        MemValue::JumpTable => write!(out, "jump-table"),
        MemValue::ConstantPool => write!(out, "constant-pool"),
        MemValue::GlobalCallEntry(n) => write!(out, "call-entry @{n}"),
        MemValue::ExternalCallEntry(n) => write!(out, "call-entry &{n}"),
        MemValue::Custom(c) => write!(out, "custom \"{c}\""),
    };
}

/// One token of a memory operand, with the text it covers.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Tok<'a> {
    /// `(`, `)`, `,`, `+`, `-`, `<`, `>`, `!`, or a character no token
    /// starts with.
    Punct(char),
    /// An identifier or keyword (`load`, `unknown-size`, `s32`, `x`).
    Word(&'a str),
    /// Decimal digits, with a `-` written against them.
    Int(&'a str),
    /// `"..."`: the text between the quotes.
    Str(&'a str),
    /// `` `...` ``: the text between the backquotes.
    Backquoted(&'a str),
    /// `%ir.NAME`, `%stack.N.NAME`, `@NAME`, `&NAME`: the sigil and the
    /// name as written (quotes included).
    Named(char, &'a str, &'a str),
    /// `!tbaa`, `!alias.scope`: the keyword after the `!`.
    MetadataKeyword(&'a str),
    /// The end of the operand's text.
    End,
}

/// Splits an operand's text into [`Tok`]s, one token ahead (LLVM's
/// parser's `Token` and `lex()`).
struct Lexer<'a> {
    text: &'a str,
    /// Where lexing resumes.
    pos: usize,
    /// The current token.
    tok: Tok<'a>,
    /// Where the current token starts.
    at: usize,
}

/// A character an identifier may hold after its first (LLVM's MIR lexer).
fn is_name_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.' | b'$')
}

impl<'a> Lexer<'a> {
    fn new(text: &'a str) -> Lexer<'a> {
        let mut l = Lexer {
            text,
            pos: 0,
            tok: Tok::End,
            at: 0,
        };
        l.lex();
        l
    }

    /// Moves to the next token.
    fn lex(&mut self) {
        let b = self.text.as_bytes();
        while self.pos < b.len() && matches!(b[self.pos], b' ' | b'\t') {
            self.pos += 1;
        }
        self.at = self.pos;
        let Some(&c) = b.get(self.pos) else {
            self.tok = Tok::End;
            return;
        };
        let rest = &self.text[self.pos..];
        let (tok, len) = match c {
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                let n = name_len(rest);
                (Tok::Word(&rest[..n]), n)
            }
            b'0'..=b'9' => {
                let n = digits_len(rest);
                (Tok::Int(&rest[..n]), n)
            }
            b'-' if rest.as_bytes().get(1).is_some_and(u8::is_ascii_digit) => {
                let n = 1 + digits_len(&rest[1..]);
                (Tok::Int(&rest[..n]), n)
            }
            b'"' => match quoted_len(rest) {
                Some(n) => (Tok::Str(&rest[1..n - 1]), n),
                None => (Tok::Punct('"'), 1),
            },
            b'`' => match rest[1..].find('`') {
                Some(n) => (Tok::Backquoted(&rest[1..n + 1]), n + 2),
                None => (Tok::Punct('`'), 1),
            },
            b'!' if rest.as_bytes().get(1).is_some_and(u8::is_ascii_alphabetic) => {
                let n = 1 + name_len(&rest[1..]);
                (Tok::MetadataKeyword(&rest[1..n]), n)
            }
            b'%' | b'@' | b'&' => {
                let (prefix, n) = sigil_name(rest);
                (
                    Tok::Named(char::from(c), prefix, &rest[prefix.len() + 1..n]),
                    n,
                )
            }
            _ => {
                let ch = rest.chars().next().unwrap_or(' ');
                (Tok::Punct(ch), ch.len_utf8())
            }
        };
        self.tok = tok;
        self.pos += len;
    }
}

/// The length of the identifier characters at the start of `s`.
fn name_len(s: &str) -> usize {
    s.bytes().take_while(|&c| is_name_char(c)).count()
}

fn digits_len(s: &str) -> usize {
    s.bytes().take_while(u8::is_ascii_digit).count()
}

/// The length of the quoted string at the start of `s` (a backslash
/// escapes the next character), or `None` when it is not closed.
fn quoted_len(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let mut i = 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

/// After a sigil (`%`, `@`, `&`): the reference's prefix (`ir.`,
/// `stack.`, `fixed-stack.`, empty for a symbol) and the whole token's
/// length. The name is a quoted string or identifier characters.
fn sigil_name(s: &str) -> (&str, usize) {
    let body = &s[1..];
    let prefix = ["ir.", "ir-block.", "fixed-stack.", "stack."]
        .into_iter()
        .find(|p| s.starts_with('%') && body.starts_with(p))
        .unwrap_or("");
    let name = &body[prefix.len()..];
    let n = if name.starts_with('"') {
        quoted_len(name).unwrap_or(0)
    } else {
        name_len(name)
    };
    (prefix, 1 + prefix.len() + n)
}

/// Reads one operand (LLVM's `MIParser::parseMachineMemoryOperand`).
struct Parser<'a, 'f> {
    lexer: Lexer<'a>,
    frames: FrameCheck<'f>,
}

impl<'a> Parser<'a, '_> {
    fn tok(&self) -> Tok<'a> {
        self.lexer.tok
    }

    fn lex(&mut self) {
        self.lexer.lex();
    }

    /// An error at the current token.
    fn error<T>(&self, message: impl Into<String>) -> Result<T, MemError> {
        Err((self.lexer.at, message.into()))
    }

    /// Consumes `c`, or fails with LLVM's "expected 'c'".
    fn expect(&mut self, c: char) -> Result<(), MemError> {
        if self.tok() != Tok::Punct(c) {
            return self.error(format!("expected '{c}'"));
        }
        self.lex();
        Ok(())
    }

    fn is_word(&self, w: &str) -> bool {
        self.tok() == Tok::Word(w)
    }

    fn operand(&mut self) -> Result<MemOperand, MemError> {
        self.expect('(')?;
        let mut m = MemOperand::default();
        let mut target_flags: Vec<Box<str>> = Vec::new();
        self.flags(&mut m.flags, &mut target_flags)?;
        m.target_flags = target_flags.into_boxed_slice();
        if !self.is_word("load") && !self.is_word("store") {
            return self.error("expected 'load' or 'store' memory operation");
        }
        m.flags = m.flags
            | if self.is_word("load") {
                MemFlags::LOAD
            } else {
                MemFlags::STORE
            };
        self.lex();
        // A read-modify-write loads and stores.
        if self.is_word("store") {
            m.flags = m.flags | MemFlags::STORE;
            self.lex();
        }
        m.sync_scope = self.sync_scope()?;
        // Up to two orderings: a compare-exchange has one for failure.
        m.ordering = self.ordering()?;
        m.failure_ordering = self.ordering()?;
        m.ty = self.size()?;
        if let Tok::Word(w) = self.tok() {
            let want = match (m.flags.has(MemFlags::LOAD), m.flags.has(MemFlags::STORE)) {
                (true, true) => "on",
                (true, false) => "from",
                _ => "into",
            };
            if w != want {
                return self.error(format!("expected '{want}'"));
            }
            self.lex();
            m.value = self.value()?;
            m.offset = self.offset()?;
        }
        while self.tok() == Tok::Punct(',') {
            self.lex();
            self.attribute(&mut m)?;
        }
        self.expect(')')?;
        Ok(m)
    }

    /// `volatile`, `non-temporal`, `dereferenceable`, `invariant` and
    /// target flags (`"name"`), each at most once.
    fn flags(&mut self, flags: &mut MemFlags, target: &mut Vec<Box<str>>) -> Result<(), MemError> {
        loop {
            let (flag, name) = match self.tok() {
                Tok::Word("volatile") => (MemFlags::VOLATILE, "volatile"),
                Tok::Word("non-temporal") => (MemFlags::NON_TEMPORAL, "non-temporal"),
                Tok::Word("dereferenceable") => (MemFlags::DEREFERENCEABLE, "dereferenceable"),
                Tok::Word("invariant") => (MemFlags::INVARIANT, "invariant"),
                Tok::Str(s) => {
                    // Target flags are the target's to name; the reader
                    // keeps them as written.
                    if target.iter().any(|t| **t == *s) {
                        return self.error(format!("duplicate '{s}' memory operand flag"));
                    }
                    target.push(s.into());
                    self.lex();
                    continue;
                }
                _ => return Ok(()),
            };
            if flags.has(flag) {
                return self.error(format!("duplicate '{name}' memory operand flag"));
            }
            *flags = *flags | flag;
            self.lex();
        }
    }

    /// `syncscope("name")`, if present.
    fn sync_scope(&mut self) -> Result<Option<Box<str>>, MemError> {
        if !self.is_word("syncscope") {
            return Ok(None);
        }
        self.lex();
        if self.tok() != Tok::Punct('(') {
            return self.error("expected '(' in syncscope");
        }
        self.lex();
        let Tok::Str(name) = self.tok() else {
            return self.error("expected string constant");
        };
        self.lex();
        if self.tok() != Tok::Punct(')') {
            return self.error("expected ')' in syncscope");
        }
        self.lex();
        Ok(Some(name.into()))
    }

    /// An atomic ordering, if the next word is one (a word that is not one
    /// is an error here, as in LLVM).
    fn ordering(&mut self) -> Result<AtomicOrdering, MemError> {
        match self.tok() {
            // A keyword, not an identifier, in LLVM's lexer.
            Tok::Word("unknown-size") => Ok(AtomicOrdering::NotAtomic),
            Tok::Word(w) => match AtomicOrdering::from_name(w) {
                Some(o) => {
                    self.lex();
                    Ok(o)
                }
                None => self.error("expected an atomic scope, ordering or a size specification"),
            },
            _ => Ok(AtomicOrdering::NotAtomic),
        }
    }

    /// `(TYPE)`, `unknown-size`, or a byte count (an older form, read as a
    /// scalar of that many bytes). Unlike `(sN)`, LLVM's parser does not
    /// hold the byte count to 16 bits of size, so it is the one spelling of
    /// a wide access (an 8 KiB aggregate copied through the stack) that
    /// reads back; sizes beyond 32 bits of bits are refused rather than
    /// truncated as LLVM does.
    fn size(&mut self) -> Result<Option<LowLevelType>, MemError> {
        match self.tok() {
            Tok::Int(n) if !n.starts_with('-') => {
                let bits = n
                    .parse::<u32>()
                    .ok()
                    .and_then(|b| b.checked_mul(8));
                let Some(bits) = bits else {
                    return self.error("invalid size for scalar type");
                };
                self.lex();
                Ok(Some(LowLevelType::Scalar(bits)))
            }
            Tok::Word("unknown-size") => {
                self.lex();
                Ok(None)
            }
            Tok::Punct('(') => {
                self.lex();
                let t = self.low_level_type()?;
                self.expect(')')?;
                Ok(Some(t))
            }
            _ => self.error(
                "expected memory LLT, the size integer literal or 'unknown-size' after memory operation",
            ),
        }
    }

    /// `sN`, `pA`, `<N x sM>`, `<vscale x N x pA>` (LLVM's
    /// `parseLowLevelType`).
    fn low_level_type(&mut self) -> Result<LowLevelType, MemError> {
        let at = self.lexer.at;
        if let Tok::Word(w) = self.tok()
            && w.starts_with(['s', 'p'])
        {
            let t = match self.lane(w, false)? {
                LaneType::Scalar(b) => LowLevelType::Scalar(b),
                LaneType::Pointer(a) => LowLevelType::Pointer(a),
            };
            self.lex();
            return Ok(t);
        }
        if self.tok() != Tok::Punct('<') {
            return self.error(
                "expected sN, pA, <M x sN>, <M x pA>, <vscale x M x sN>, or <vscale x M x pA> for GlobalISel type",
            );
        }
        self.lex();
        let scalable = self.is_word("vscale");
        if scalable {
            self.lex();
            if !self.is_word("x") {
                return self.error("expected <vscale x M x sN> or <vscale x M x pA>");
            }
            self.lex();
        }
        // A malformed vector is reported at its `<`.
        let malformed = || -> Result<LowLevelType, MemError> {
            let message = if scalable {
                "expected <vscale x M x sN> or <vscale M x pA> for vector type"
            } else {
                "expected <M x sN> or <M x pA> for vector type"
            };
            Err((at, message.into()))
        };
        let Tok::Int(n) = self.tok() else {
            return malformed();
        };
        let lanes = match n.parse::<u32>() {
            Ok(l) if (1..=MAX_LANES).contains(&l) => l,
            _ => return self.error("invalid number of vector elements"),
        };
        self.lex();
        if !self.is_word("x") {
            return malformed();
        }
        self.lex();
        let lane = match self.tok() {
            Tok::Word(w) if w.starts_with(['s', 'p']) => self.lane(w, true)?,
            _ => return malformed(),
        };
        self.lex();
        if self.tok() != Tok::Punct('>') {
            return malformed();
        }
        self.lex();
        Ok(LowLevelType::Vector {
            lanes,
            scalable,
            lane,
        })
    }

    /// The scalar or pointer type `word` (the current token) names.
    fn lane(&self, word: &str, in_vector: bool) -> Result<LaneType, MemError> {
        let digits = &word[1..];
        if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
            return self.error("expected integers after 's'/'p' type character");
        }
        let n = digits.parse::<u32>().ok();
        if word.starts_with('s') {
            // A vector's lanes cannot be empty; LLVM takes `s0` alone.
            match n.filter(|&b| b <= MAX_SCALAR_BITS && (!in_vector || b > 0)) {
                Some(b) => Ok(LaneType::Scalar(b)),
                None if in_vector => self.error("invalid size for scalar element in vector"),
                None => self.error("invalid size for scalar type"),
            }
        } else {
            match n.filter(|&a| a <= MAX_ADDRESS_SPACE) {
                Some(a) => Ok(LaneType::Pointer(a)),
                None => self.error("invalid address space number"),
            }
        }
    }

    /// What the address is based on (LLVM's `parseMachinePointerInfo`);
    /// `None` for `unknown-address`.
    fn value(&mut self) -> Result<Option<MemValue>, MemError> {
        let v = match self.tok() {
            Tok::Word("unknown-address") => None,
            Tok::Word("stack") => Some(MemValue::Stack),
            Tok::Word("got") => Some(MemValue::Got),
            Tok::Word("jump-table") => Some(MemValue::JumpTable),
            Tok::Word("constant-pool") => Some(MemValue::ConstantPool),
            Tok::Word("call-entry") => {
                self.lex();
                match self.tok() {
                    Tok::Named('@', "", n) if !n.is_empty() => {
                        Some(MemValue::GlobalCallEntry(n.into()))
                    }
                    Tok::Named('&', "", n) if !n.is_empty() => {
                        Some(MemValue::ExternalCallEntry(n.into()))
                    }
                    _ => {
                        return self.error(
                            "expected a global value or an external symbol after 'call-entry'",
                        );
                    }
                }
            }
            Tok::Word("custom") => {
                self.lex();
                let Tok::Str(s) = self.tok() else {
                    return self.error("expected string constant");
                };
                Some(MemValue::Custom(s.into()))
            }
            Tok::Backquoted(c) => Some(MemValue::Constant(c.into())),
            Tok::Named('@', "", n) if !n.is_empty() => Some(MemValue::Global(n.into())),
            Tok::Named('%', "ir.", n) if !n.is_empty() => Some(match n.parse::<u32>() {
                Ok(k) if n.bytes().all(|c| c.is_ascii_digit()) => MemValue::IrNumbered(k),
                _ => MemValue::IrNamed(n.into()),
            }),
            Tok::Named('%', kind @ ("stack." | "fixed-stack."), n) => {
                Some(MemValue::Frame(self.frame(kind == "fixed-stack.", n)?))
            }
            _ => return self.error("expected an IR value reference"),
        };
        self.lex();
        Ok(v)
    }

    /// The frame object `%stack.N[.NAME]` or `%fixed-stack.N` names
    /// (`text` is what follows the prefix), as `frames` finds it.
    fn frame(&self, fixed: bool, text: &str) -> Result<FrameRef, MemError> {
        let (num, name) = text.split_once('.').unwrap_or((text, ""));
        let Ok(id) = num.parse::<u32>() else {
            let kind = if fixed { "fixed-stack" } else { "stack" };
            return self.error(format!("expected a number after '%{kind}.'"));
        };
        let fr = FrameRef { fixed, id };
        match (self.frames)(fr, name) {
            Ok(()) => Ok(fr),
            Err(message) => self.error(message),
        }
    }

    /// `+ N` or `- N` after the value, 0 without.
    fn offset(&mut self) -> Result<i64, MemError> {
        let negative = match self.tok() {
            Tok::Punct('+') => false,
            Tok::Punct('-') => true,
            _ => return Ok(0),
        };
        let sign = if negative { '-' } else { '+' };
        self.lex();
        let Tok::Int(n) = self.tok() else {
            return self.error(format!("expected an integer literal after '{sign}'"));
        };
        let Ok(v) = n.parse::<i64>() else {
            return self.error("expected 64-bit integer (too large)");
        };
        self.lex();
        Ok(if negative { v.wrapping_neg() } else { v })
    }

    /// One `, attribute` after the pointer: alignments, the address space,
    /// metadata.
    fn attribute(&mut self, m: &mut MemOperand) -> Result<(), MemError> {
        match self.tok() {
            Tok::Word("align") => {
                let a = self.alignment()?;
                // An alignment beyond the offset's cannot be (LLVM's
                // `getAlign` never exceeds it): the text meant basealign.
                if m.offset & (a as i64).wrapping_sub(1) != 0 {
                    return self.error("specified alignment is more aligned than offset");
                }
                m.align = Some(a);
            }
            Tok::Word("basealign") => m.base_align = Some(self.alignment()?),
            Tok::Word("addrspace") => {
                self.lex();
                let Tok::Int(n) = self.tok() else {
                    return self.error("expected an integer literal after 'addrspace'");
                };
                if n.starts_with('-') {
                    return self.error("expected an integer literal after 'addrspace'");
                }
                let Ok(a) = n.parse::<u32>() else {
                    return self.error("expected 32-bit integer (too large)");
                };
                self.lex();
                m.address_space = a;
            }
            Tok::MetadataKeyword(k @ ("tbaa" | "alias.scope" | "noalias" | "range")) => {
                self.lex();
                let id = self.metadata_id()?;
                *match k {
                    "tbaa" => &mut m.tbaa,
                    "alias.scope" => &mut m.alias_scope,
                    "noalias" => &mut m.noalias,
                    _ => &mut m.range,
                } = Some(id);
            }
            Tok::MetadataKeyword(k) => {
                return self.error(format!("use of unknown metadata keyword '!{k}'"));
            }
            _ => {
                return self.error(
                    "expected 'align' or '!tbaa' or '!alias.scope' or '!noalias' or '!range'",
                );
            }
        }
        Ok(())
    }

    /// The power of two after `align` or `basealign`.
    fn alignment(&mut self) -> Result<u64, MemError> {
        self.lex();
        let Tok::Int(n) = self.tok() else {
            return self.error("expected an integer literal after 'align'");
        };
        if n.starts_with('-') {
            return self.error("expected an integer literal after 'align'");
        }
        let Ok(a) = n.parse::<u64>() else {
            return self.error("expected 64-bit integer (too large)");
        };
        self.lex();
        if !a.is_power_of_two() {
            return self.error("expected a power-of-2 literal after 'align'");
        }
        Ok(a)
    }

    /// `!N`.
    fn metadata_id(&mut self) -> Result<MetadataId, MemError> {
        if let Tok::MetadataKeyword(k) = self.tok() {
            return self.error(format!("use of unknown metadata keyword '!{k}'"));
        }
        if self.tok() != Tok::Punct('!') {
            return self.error("expected metadata id after '!'");
        }
        self.lex();
        let Tok::Int(n) = self.tok() else {
            return self.error("expected metadata id after '!'");
        };
        let Ok(id) = n.parse::<u32>() else {
            return self.error("expected metadata id after '!'");
        };
        self.lex();
        Ok(MetadataId(id))
    }
}

/// The widest scalar GlobalISel's types hold (16 bits of size).
const MAX_SCALAR_BITS: u32 = u16::MAX as u32;
/// The most lanes a vector type holds.
const MAX_LANES: u32 = u16::MAX as u32;
/// The largest address space number (24 bits).
const MAX_ADDRESS_SPACE: u32 = (1 << 24) - 1;

#[cfg(test)]
mod tests;
