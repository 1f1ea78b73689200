//! The `jumpTable:` key: read into [`JumpTables`] (entries resolved to blocks once the body has numbered them) and written in LLVM's exact form.
//!
//! LLVM's MIR parser numbers tables by their position in `entries:` and
//! maps each entry's `id` to it; `%jump-table.N` operands name ids. The
//! reader does the same, so the IR and the output number tables as
//! `llc -run-pass=none` does. Entries name blocks by their number in the
//! source (`'%bb.7'`, or `'%bb.7.if.then'`); they are resolved through the
//! same map as the body's branches, so the writer prints them in the
//! body's (layout) numbering.

use std::collections::HashMap;
use std::fmt::Write as _;

use crate::ir::{Block, BlockData, IrBlockRef, JumpTable, JumpTableKind, JumpTables};

use super::error::MirError;
use super::yaml::{self, YNode, YValue};

/// A `jumpTable:` key as read, before the body gives block numbers meaning.
pub(crate) struct RawJumpTables<'n> {
    kind: JumpTableKind,
    /// Per entry in source order: its blocks as written.
    entries: Vec<Vec<RawBlockRef<'n>>>,
    /// Source `id` -> position in `entries`.
    ids: HashMap<u32, u32>,
}

/// One `'%bb.N[.name]'` of an entry.
struct RawBlockRef<'n> {
    node: &'n YNode,
    number: u32,
    name: Option<&'n str>,
}

/// Makes an error at a node (the reader's, which knows the file and
/// function).
pub(crate) type At<'a> = &'a dyn Fn(&YNode, String) -> MirError;

impl<'n> RawJumpTables<'n> {
    /// Reads the value of a `jumpTable:` key.
    pub fn parse(node: &'n YNode, at: At<'_>) -> Result<RawJumpTables<'n>, MirError> {
        let entries = node
            .as_map()
            .ok_or_else(|| at(node, "expected a mapping with 'kind' and 'entries'".into()))?;
        let mut kind = None;
        let mut raw = RawJumpTables {
            kind: JumpTableKind::BlockAddress,
            entries: Vec::new(),
            ids: HashMap::new(),
        };
        for (key, value) in entries {
            match key.as_str().unwrap_or("") {
                "kind" => kind = Some(parse_kind(value, at)?),
                "entries" => {
                    for entry in sequence(value, "jump table entries", at)? {
                        raw.entry(entry, at)?;
                    }
                }
                other => return Err(at(key, format!("unknown key '{other}' in jump table"))),
            }
        }
        raw.kind = kind.ok_or_else(|| at(node, "jump table has no 'kind'".into()))?;
        Ok(raw)
    }

    /// Reads one `- id: N, blocks: [...]` entry.
    fn entry(&mut self, entry: &'n YNode, at: At<'_>) -> Result<(), MirError> {
        let fields = entry.as_map().ok_or_else(|| {
            at(
                entry,
                "expected a jump table entry with 'id' and 'blocks'".into(),
            )
        })?;
        let mut id = None;
        let mut blocks = Vec::new();
        for (key, value) in fields {
            match key.as_str().unwrap_or("") {
                "id" => {
                    let n = value
                        .as_str()
                        .and_then(|s| s.parse::<u32>().ok())
                        .ok_or_else(|| at(value, "expected a jump table id".into()))?;
                    id = Some((n, value));
                }
                "blocks" => {
                    for b in sequence(value, "blocks", at)? {
                        blocks.push(block_ref(b, at)?);
                    }
                }
                other => {
                    return Err(at(
                        key,
                        format!("unknown key '{other}' in jump table entry"),
                    ));
                }
            }
        }
        let (id, id_node) = id.ok_or_else(|| at(entry, "jump table entry has no 'id'".into()))?;
        let position = self.entries.len() as u32;
        if self.ids.insert(id, position).is_some() {
            return Err(at(
                id_node,
                format!("redefinition of jump table entry '%jump-table.{id}'"),
            ));
        }
        self.entries.push(blocks);
        Ok(())
    }

    /// Source id -> table position, for the body's `%jump-table.N` operands.
    pub fn ids(&self) -> &HashMap<u32, u32> {
        &self.ids
    }

    /// The tables, their blocks resolved through `numbers` (source block
    /// number -> layout position); `None` when there are no entries (LLVM
    /// then makes no tables and prints no `jumpTable:`).
    pub fn resolve(
        &self,
        numbers: &HashMap<u32, Block>,
        blocks: &[BlockData],
        at: At<'_>,
    ) -> Result<Option<JumpTables>, MirError> {
        if self.entries.is_empty() {
            return Ok(None);
        }
        let mut tables = Vec::with_capacity(self.entries.len());
        for entry in &self.entries {
            let mut table = JumpTable::default();
            for r in entry {
                let b = *numbers.get(&r.number).ok_or_else(|| {
                    at(
                        r.node,
                        format!("use of undefined machine basic block '%bb.{}'", r.number),
                    )
                })?;
                if let Some(name) = r.name {
                    let actual = match &blocks[b.index()].ir_block {
                        Some(IrBlockRef::Named(n)) => &**n,
                        _ => "",
                    };
                    if actual != name {
                        return Err(at(
                            r.node,
                            format!(
                                "the name of machine basic block '%bb.{}' isn't '{name}'",
                                r.number
                            ),
                        ));
                    }
                }
                table.blocks.push(b);
            }
            tables.push(table);
        }
        Ok(Some(JumpTables {
            kind: self.kind,
            tables,
        }))
    }
}

fn parse_kind(value: &YNode, at: At<'_>) -> Result<JumpTableKind, MirError> {
    let s = value.as_str().unwrap_or("");
    JumpTableKind::from_name(s).ok_or_else(|| {
        let known: Vec<&str> = JumpTableKind::ALL.iter().map(|k| k.name()).collect();
        at(
            value,
            format!(
                "unknown jump table kind '{s}' (expected one of {})",
                known.join(", ")
            ),
        )
    })
}

/// The items of a sequence (an empty plain scalar is an empty one).
fn sequence<'n>(n: &'n YNode, what: &str, at: At<'_>) -> Result<&'n [YNode], MirError> {
    match &n.value {
        YValue::Seq(items) => Ok(items),
        YValue::Scalar(s, false) if s.is_empty() => Ok(&[]),
        _ => Err(at(n, format!("expected a list of {what}"))),
    }
}

/// Reads `%bb.N` or `%bb.N.name`.
fn block_ref<'n>(n: &'n YNode, at: At<'_>) -> Result<RawBlockRef<'n>, MirError> {
    let text = n.as_str().unwrap_or("");
    let malformed = || {
        at(
            n,
            format!("expected a block reference '%bb.N', found '{text}'"),
        )
    };
    let rest = text.strip_prefix("%bb.").ok_or_else(malformed)?;
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let (number, tail) = rest.split_at(digits);
    let name = match tail.strip_prefix('.') {
        None if tail.is_empty() => None,
        Some(name) if !name.is_empty() => Some(name),
        _ => return Err(malformed()),
    };
    if number.is_empty() {
        return Err(malformed());
    }
    let number = number
        .parse::<u32>()
        .map_err(|_| at(n, format!("block number '{number}' out of range")))?;
    Ok(RawBlockRef {
        node: n,
        number,
        name,
    })
}

/// Prints the `jumpTable:` key as LLVM's MIR printer does (nothing when
/// there are no tables).
pub(crate) fn write(out: &mut String, tables: Option<&JumpTables>) {
    let Some(jt) = tables.filter(|j| !j.tables.is_empty()) else {
        return;
    };
    out.push_str("jumpTable:\n");
    let _ = writeln!(out, "  {:<17}{}", "kind:", jt.kind.name());
    out.push_str("  entries:\n");
    for (id, table) in jt.tables.iter().enumerate() {
        let _ = writeln!(out, "    - {:<17}{id}", "id:");
        let prefix = format!("      {:<17}", "blocks:");
        let items: Vec<String> = table
            .blocks
            .iter()
            .map(|b| yaml::quote(&format!("%bb.{}", b.0)))
            .collect();
        let _ = writeln!(out, "{prefix}{}", yaml::flow_sequence(prefix.len(), &items));
    }
}
