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
/// message (the value is at fault).
pub(crate) fn set(attrs: &mut InstAttrs, name: &str, value: &str) -> Result<(), String> {
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
/// LLVM's lexer reads it).
fn symbol(name: &str, value: &str) -> Result<Box<str>, String> {
    let Some(rest) = value.strip_prefix("<mcsymbol ") else {
        return Err(format!("expected a symbol after '{name}'"));
    };
    let unclosed = || "expected the '<mcsymbol ...' to be closed by a '>'".to_string();
    let inner = rest.strip_suffix('>').ok_or_else(unclosed)?;
    if let Some(q) = inner.strip_prefix('"') {
        let q = q.strip_suffix('"').ok_or_else(unclosed)?;
        return Ok(unescape(q).into());
    }
    if !inner
        .bytes()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.' | b'$'))
    {
        return Err(unclosed());
    }
    Ok(inner.into())
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
