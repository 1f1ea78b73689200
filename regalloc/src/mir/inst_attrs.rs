//! What follows an instruction's operands in MIR (`pre-instr-symbol <mcsymbol .Ltmp0>`, `heap-alloc-marker !4`, `debug-instr-number 3`, `debug-location !12`): read one by one into [`InstAttrs`], held to the order LLVM 19's parser takes them in, and printed in that order.

use std::num::NonZeroU32;

use crate::ir::{DebugLocation, InstAttrs, MetadataId};

/// The attribute keywords in the order LLVM reads and prints them; each
/// may appear once, after every operand.
pub(crate) const ORDER: [&str; 7] = [
    "pre-instr-symbol",
    "post-instr-symbol",
    "heap-alloc-marker",
    "pcsections",
    "cfi-type",
    "debug-instr-number",
    "debug-location",
];

/// The position of attribute `name` in [`ORDER`].
pub(crate) fn rank(name: &str) -> usize {
    ORDER.iter().position(|&n| n == name).unwrap_or(ORDER.len())
}

/// Sets attribute `name` of `attrs` from its value's text; on error, the
/// byte offset in the value LLVM reports it at, and the message.
pub(crate) fn set(attrs: &mut InstAttrs, name: &str, value: &str) -> Result<(), (usize, String)> {
    set_value(attrs, name, value).map_err(|e| match e {
        Fault::Value(m) => (0, m),
        Fault::At(k, m) => (k, m),
    })
}

/// What is wrong with a value: the whole of it, or from a byte offset.
enum Fault {
    Value(String),
    At(usize, String),
}

impl From<String> for Fault {
    fn from(m: String) -> Fault {
        Fault::Value(m)
    }
}

fn set_value(attrs: &mut InstAttrs, name: &str, value: &str) -> Result<(), Fault> {
    match name {
        "pre-instr-symbol" => attrs.pre_instr_symbol = Some(symbol(name, value)?),
        "post-instr-symbol" => attrs.post_instr_symbol = Some(symbol(name, value)?),
        "heap-alloc-marker" => attrs.heap_alloc_marker = Some(node(name, value)?),
        "pcsections" => attrs.pc_sections = Some(node(name, value)?),
        "cfi-type" => attrs.cfi_type = NonZeroU32::new(unsigned(name, value)?),
        "debug-instr-number" => attrs.debug_instr_number = NonZeroU32::new(unsigned(name, value)?),
        _ => {
            attrs.debug_location = Some(if value.starts_with("!DILocation(") {
                DebugLocation::Inline(value.into())
            } else {
                DebugLocation::Node(node(name, value)?)
            })
        }
    }
    Ok(())
}

/// The symbol name of `<mcsymbol NAME>` (a quoted name unescaped, as
/// LLVM's lexer reads it). A name not followed by `>` is reported where
/// it ends, as LLVM reports it.
fn symbol(name: &str, value: &str) -> Result<Box<str>, Fault> {
    const OPEN: &str = "<mcsymbol ";
    let Some(rest) = value.strip_prefix(OPEN) else {
        return Err(Fault::Value(format!("expected a symbol after '{name}'")));
    };
    let quoted = rest.starts_with('"');
    let len = if quoted {
        quoted_len(rest)
    } else {
        rest.bytes()
            .take_while(|&c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.' | b'$'))
            .count()
    };
    if &rest[len..] != ">" {
        return Err(Fault::At(
            OPEN.len() + len,
            "expected the '<mcsymbol ...' to be closed by a '>'".into(),
        ));
    }
    Ok(if quoted {
        unescape(&rest[1..len - 1]).into()
    } else {
        rest[..len].into()
    })
}

/// The length of the quoted string `s` starts with (a backslash escapes
/// the next character), or of all of `s` when it is not closed.
fn quoted_len(s: &str) -> usize {
    let b = s.as_bytes();
    let mut i = 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    b.len()
}

/// A MIR quoted string's text with its escapes (`\\`, `\HH`) replaced.
fn unescape(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |k: usize| b.get(k).and_then(|&c| char::from(c).to_digit(16));
        match (b[i], hex(i + 1), hex(i + 2)) {
            (b'\\', _, _) if b.get(i + 1) == Some(&b'\\') => {
                out.push(b'\\');
                i += 2;
            }
            (b'\\', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (c, _, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A metadata node reference `!N`.
fn node(name: &str, value: &str) -> Result<MetadataId, String> {
    let Some(digits) = value.strip_prefix('!') else {
        return Err(format!("expected a metadata node after '{name}'"));
    };
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return Err("expected metadata id after '!'".into());
    }
    digits
        .parse::<u32>()
        .map(MetadataId)
        .map_err(|_| "expected 32-bit integer (too large)".into())
}

/// An unsigned 32-bit number.
fn unsigned(name: &str, value: &str) -> Result<u32, String> {
    if value.is_empty() || !value.bytes().all(|c| c.is_ascii_digit()) {
        return Err(format!("expected an integer literal after '{name}'"));
    }
    value
        .parse::<u32>()
        .map_err(|_| "expected 32-bit integer (too large)".into())
}

/// Appends `a`'s attributes as LLVM prints them, each as one more item of
/// the instruction's comma-separated list.
pub(crate) fn write(items: &mut Vec<String>, a: &InstAttrs) {
    if let Some(s) = &a.pre_instr_symbol {
        items.push(format!("pre-instr-symbol <mcsymbol {s}>"));
    }
    if let Some(s) = &a.post_instr_symbol {
        items.push(format!("post-instr-symbol <mcsymbol {s}>"));
    }
    if let Some(MetadataId(n)) = a.heap_alloc_marker {
        items.push(format!("heap-alloc-marker !{n}"));
    }
    if let Some(MetadataId(n)) = a.pc_sections {
        items.push(format!("pcsections !{n}"));
    }
    if let Some(n) = a.cfi_type {
        items.push(format!("cfi-type {n}"));
    }
    if let Some(n) = a.debug_instr_number {
        items.push(format!("debug-instr-number {n}"));
    }
    match &a.debug_location {
        Some(DebugLocation::Node(MetadataId(n))) => items.push(format!("debug-location !{n}")),
        Some(DebugLocation::Inline(text)) => items.push(format!("debug-location {text}")),
        None => {}
    }
}

#[cfg(test)]
mod tests {
    use super::{ORDER, set, write};
    use crate::ir::{DebugLocation, InstAttrs, MetadataId};

    /// Reads `items` (keyword, value) in order and prints them back.
    fn round_trip(items: &[(&str, &str)]) -> Result<Vec<String>, (usize, String)> {
        let mut a = InstAttrs::default();
        for (name, value) in items {
            set(&mut a, name, value)?;
        }
        let mut out = Vec::new();
        write(&mut out, &a);
        Ok(out)
    }

    #[test]
    fn every_attribute_reads_and_prints_back_in_order() {
        let items = [
            ("pre-instr-symbol", "<mcsymbol .Lpre>"),
            ("post-instr-symbol", "<mcsymbol .Lpost$1>"),
            ("heap-alloc-marker", "!4"),
            ("pcsections", "!5"),
            ("cfi-type", "12345"),
            ("debug-instr-number", "7"),
            (
                "debug-location",
                "!DILocation(line: 4, column: 1, scope: !3)",
            ),
        ];
        assert_eq!(items.map(|(n, _)| n), ORDER);
        let printed: Vec<String> = items.iter().map(|(n, v)| format!("{n} {v}")).collect();
        assert_eq!(round_trip(&items), Ok(printed));
        // Any order in, LLVM's order out.
        let mut reversed = items;
        reversed.reverse();
        assert_eq!(round_trip(&reversed), round_trip(&items));
    }

    #[test]
    fn values_are_typed() {
        let mut a = InstAttrs::default();
        set(&mut a, "debug-location", "!12").unwrap();
        set(&mut a, "heap-alloc-marker", "!0").unwrap();
        set(&mut a, "post-instr-symbol", "<mcsymbol \"a\\5Cb c\">").unwrap();
        assert_eq!(a.debug_location, Some(DebugLocation::Node(MetadataId(12))));
        assert_eq!(a.heap_alloc_marker, Some(MetadataId(0)));
        // Quoted names are unescaped, and printed raw, as LLVM prints them.
        assert_eq!(a.post_instr_symbol.as_deref(), Some("a\\b c"));
        // A number of 0 is none, as LLVM reads it.
        set(&mut a, "debug-instr-number", "0").unwrap();
        set(&mut a, "cfi-type", "0").unwrap();
        assert_eq!((a.debug_instr_number, a.cfi_type), (None, None));
    }

    #[test]
    fn malformed_values_are_refused() {
        let err = |n: &str, v: &str| set(&mut InstAttrs::default(), n, v).unwrap_err();
        let msg = |m: &str| m.to_string();
        assert_eq!(
            err("debug-instr-number", "x"),
            (
                0,
                msg("expected an integer literal after 'debug-instr-number'")
            )
        );
        assert_eq!(
            err("cfi-type", "4294967296"),
            (0, msg("expected 32-bit integer (too large)"))
        );
        assert_eq!(
            err("pre-instr-symbol", ".La"),
            (0, msg("expected a symbol after 'pre-instr-symbol'"))
        );
        assert_eq!(
            err("post-instr-symbol", "<mcsymbol a b>"),
            (
                11,
                msg("expected the '<mcsymbol ...' to be closed by a '>'")
            )
        );
        assert_eq!(
            err("pcsections", "3"),
            (0, msg("expected a metadata node after 'pcsections'"))
        );
        assert_eq!(
            err("heap-alloc-marker", "!x"),
            (0, msg("expected metadata id after '!'"))
        );
        assert_eq!(
            err("debug-location", "3"),
            (0, msg("expected a metadata node after 'debug-location'"))
        );
    }
}
