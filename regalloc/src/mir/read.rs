//! The MIR reader: splits a file into YAML documents, reads each function's keys (registers, live-ins, stack objects) and hands its body to `body.rs`.

use std::collections::HashSet;

use crate::ir::{FnLiveIn, FrameObject, MachineFunction, SourceKey, StackObjectKind, VReg};
use crate::target::{NameIndex, TargetInfo};

use super::body::BodyReader;
use super::error::{Located, MirError};
use super::jump_tables::RawJumpTables;
use super::vregs::{self, VRegTable};
use super::yaml::{self, YNode, YValue};
use super::{FunctionDoc, MirFile};

/// Reads the text of a `.mir` file named `file` (the name is only used in
/// errors). Never fails as a whole: a function that cannot be read becomes
/// [`FunctionDoc::Failed`] with its error, and the others are still read.
pub fn read(target: &TargetInfo<'_>, file: &str, text: &str) -> MirFile {
    let names = NameIndex::new(target);
    let (header, docs) = split_documents(text);
    let frame_pointers = super::ir_attrs::frame_pointer_kinds(&header);
    let features = super::ir_attrs::target_features(target, &header);
    let functions = docs
        .into_iter()
        .map(|doc| {
            let reader = FunctionReader {
                target,
                names: &names,
                file,
                doc: &doc,
                name: find_name(&doc.text),
            };
            match reader.read() {
                Ok(mut f) => {
                    f.frame_pointer = frame_pointers.get(&f.name).copied();
                    f.features = features.get(&f.name).copied().unwrap_or_default();
                    FunctionDoc::Read(f)
                }
                Err(error) => FunctionDoc::Failed {
                    name: reader.name.clone(),
                    text: doc.text.clone(),
                    error,
                },
            }
        })
        .collect();
    MirFile { header, functions }
}

/// One function's YAML document as it appears in the file.
struct RawDoc {
    /// 1-based line of its `---` marker in the file.
    first_line: usize,
    /// Its text, from the marker to just before the next document.
    text: String,
}

/// Whether a line opens a YAML document.
fn is_doc_start(line: &str) -> bool {
    line.strip_prefix("---")
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(char::is_whitespace))
}

/// Splits a file into its header (text before the first function, holding
/// the IR module document `--- |`) and the function documents.
fn split_documents(text: &str) -> (String, Vec<RawDoc>) {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut starts: Vec<usize> = (0..lines.len())
        .filter(|&i| is_doc_start(lines[i]))
        .collect();
    // The IR module is a block scalar document; it belongs to the header.
    if let Some(&first) = starts.first()
        && lines[first][3..].trim_start().starts_with(['|', '>'])
    {
        starts.remove(0);
    }
    let header_end = starts.first().copied().unwrap_or(lines.len());
    let header = lines[..header_end].concat();
    let docs = starts
        .iter()
        .enumerate()
        .map(|(k, &s)| {
            let e = starts.get(k + 1).copied().unwrap_or(lines.len());
            RawDoc {
                first_line: s + 1,
                text: lines[s..e].concat(),
            }
        })
        .collect();
    (header, docs)
}

/// The function's name from a `name:` line, found without parsing, so that
/// errors in a broken document can still name it.
fn find_name(text: &str) -> Option<String> {
    let line = text.lines().find(|l| l.starts_with("name:"))?;
    let v = line["name:".len()..].trim();
    let v = v
        .strip_prefix('\'')
        .and_then(|v| v.strip_suffix('\''))
        .map_or(v.to_string(), |v| v.replace("''", "'"));
    let v = v
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .map_or(v.clone(), str::to_string);
    (!v.is_empty()).then_some(v)
}

struct FunctionReader<'a, 't> {
    target: &'a TargetInfo<'t>,
    names: &'a NameIndex,
    file: &'a str,
    doc: &'a RawDoc,
    name: Option<String>,
}

impl FunctionReader<'_, '_> {
    /// An error at a 1-based line and 1-based column of the document.
    fn err(&self, line: usize, col: usize, message: impl Into<String>) -> MirError {
        MirError {
            file: self.file.to_string(),
            line: self.doc.first_line + line - 1,
            col,
            function: self.name.clone(),
            message: message.into(),
        }
    }

    /// An error at a YAML node.
    fn at(&self, n: &YNode, message: impl Into<String>) -> MirError {
        self.err(n.line, n.col + 1, message)
    }

    /// The source text of a node (for values kept verbatim).
    fn raw(&self, n: &YNode) -> String {
        let t = &self.doc.text;
        if t.is_ascii() {
            return t[n.start.min(t.len())..n.end.min(t.len())]
                .trim_end()
                .to_string();
        }
        t.chars()
            .skip(n.start)
            .take(n.end.saturating_sub(n.start))
            .collect::<String>()
            .trim_end()
            .to_string()
    }

    fn read(&self) -> Result<MachineFunction, MirError> {
        let root = yaml::parse(&self.doc.text)
            .map_err(|e| self.err(e.line, e.col + 1, format!("invalid YAML: {}", e.message)))?;
        let Some(root) = root else {
            return Err(self.err(1, 1, "empty function document"));
        };
        let Some(entries) = root.as_map() else {
            return Err(self.at(&root, "expected a mapping of function properties"));
        };
        let lines: Vec<&str> = self.doc.text.split_inclusive('\n').collect();
        // The last key's verbatim text stops at the document end marker.
        let end_line = self.end_line(&lines)?;
        let mut f = MachineFunction::default();
        let mut body = None;
        let mut jump_tables = None;
        let mut generic_vregs = HashSet::new();
        let mut vregs = VRegTable::default();
        for (k, (key, value)) in entries.iter().enumerate() {
            let Some(name) = key.as_str() else {
                return Err(self.at(key, "expected a key"));
            };
            let modelled = match name {
                "name" => {
                    f.name = value
                        .as_str()
                        .ok_or_else(|| self.at(value, "expected the function name"))?
                        .to_string();
                    "name"
                }
                "registers" => {
                    self.registers(value, &mut f, &mut vregs, &mut generic_vregs)?;
                    "registers"
                }
                "liveins" => {
                    self.live_ins(value, &mut f, &mut vregs)?;
                    "liveins"
                }
                "fixedStack" => {
                    f.fixed_stack = self.frame_objects(value)?;
                    "fixedStack"
                }
                "stack" => {
                    f.stack = self.frame_objects(value)?;
                    "stack"
                }
                "jumpTable" => {
                    jump_tables = Some(RawJumpTables::parse(value, &|n, m| self.at(n, m))?);
                    "jumpTable"
                }
                "body" => {
                    body = Some((key, value));
                    "body"
                }
                _ => {
                    if name == "frameInfo" {
                        f.frame_info = super::frame_info::read(value)
                            .map_err(|(node, message)| self.at(node, message))?;
                    }
                    let next = entries.get(k + 1).map_or(end_line, |(n, _)| n.line);
                    let text = lines[key.line - 1..(next - 1).min(lines.len())].concat();
                    f.source_keys.push(SourceKey::Verbatim {
                        key: name.into(),
                        text: text.into(),
                    });
                    continue;
                }
            };
            f.source_keys.push(SourceKey::Modelled(modelled));
        }
        if f.name.is_empty() {
            return Err(self.err(1, 1, "function has no 'name'"));
        }
        match body {
            Some((key, value)) => self.body(
                key,
                value,
                &mut f,
                &mut vregs,
                &generic_vregs,
                jump_tables.as_ref(),
            )?,
            // No blocks: a table can only name undefined ones.
            None => {
                if let Some(raw) = &jump_tables {
                    f.jump_tables = raw.resolve(&Default::default(), &[], &|n, m| self.at(n, m))?;
                }
            }
        }
        vregs.finish(&mut f);
        Ok(f)
    }

    /// The line (1-based) of the document's end marker `...` among
    /// `lines` (one past the last line without one); text after it is an
    /// error.
    fn end_line(&self, lines: &[&str]) -> Result<usize, MirError> {
        let end_line = lines
            .iter()
            .rposition(|l| l.trim_end() == "...")
            .map_or(lines.len() + 1, |i| i + 1);
        if let Some(k) = (end_line..lines.len()).find(|&k| !lines[k].trim().is_empty()) {
            let col = lines[k].len() - lines[k].trim_start().len() + 1;
            return Err(self.err(
                k + 1,
                col,
                "text after the document's end '...' (a function document starts with '---')",
            ));
        }
        Ok(end_line)
    }

    fn seq<'n>(&self, n: &'n YNode, what: &str) -> Result<&'n [YNode], MirError> {
        match &n.value {
            YValue::Seq(items) => Ok(items),
            YValue::Scalar(s, false) if s.is_empty() => Ok(&[]),
            _ => Err(self.at(n, format!("expected a list of {what}"))),
        }
    }

    fn int<T: std::str::FromStr>(&self, n: &YNode, what: &str) -> Result<T, MirError> {
        n.as_str()
            .and_then(|s| s.parse::<T>().ok())
            .ok_or_else(|| self.at(n, format!("expected {what}")))
    }

    fn registers(
        &self,
        n: &YNode,
        f: &mut MachineFunction,
        vregs: &mut VRegTable,
        generic: &mut HashSet<VReg>,
    ) -> Result<(), MirError> {
        let mut seen = HashSet::new();
        for item in self.seq(n, "virtual registers")? {
            let entries = item
                .as_map()
                .ok_or_else(|| self.at(item, "expected a virtual register entry"))?;
            let id_node = item
                .get("id")
                .ok_or_else(|| self.at(item, "virtual register entry has no 'id'"))?;
            let digits = id_node
                .as_str()
                .filter(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
                .ok_or_else(|| self.at(id_node, "expected a virtual register number"))?;
            let id = vregs::parse_number(digits).map_err(|m| self.at(id_node, m))?;
            if !seen.insert(id) {
                return Err(self.at(id_node, format!("redefinition of virtual register '%{id}'")));
            }
            let v = vregs.numbered(f, id);
            let data = &mut f.vregs[v.index()];
            for (k, val) in entries {
                match k.as_str().unwrap_or("") {
                    "id" => {}
                    "class" => match val.as_str().unwrap_or("") {
                        "_" | "" => {
                            generic.insert(v);
                        }
                        c => match self.names.class(c) {
                            Some(rc) => data.class = Some(rc),
                            // A GlobalISel register bank (`class: gpr` on
                            // AArch64 at -O0) left on a register that
                            // selection made unused: kept as written.
                            None if register_bank(self.target, c) => {
                                generic.insert(v);
                                data.extra.push(("class".into(), c.into()));
                            }
                            None => {
                                return Err(self.at(val, format!("unknown register class '{c}'")));
                            }
                        },
                    },
                    "preferred-register" => data.preferred = val.as_str().unwrap_or("").into(),
                    other => data.extra.push((other.into(), self.raw(val).into())),
                }
            }
        }
        Ok(())
    }

    fn live_ins(
        &self,
        n: &YNode,
        f: &mut MachineFunction,
        vregs: &mut VRegTable,
    ) -> Result<(), MirError> {
        for item in self.seq(n, "live-in registers")? {
            let reg_node = item
                .get("reg")
                .ok_or_else(|| self.at(item, "live-in entry has no 'reg'"))?;
            let name = reg_node.as_str().unwrap_or("");
            let reg = name
                .strip_prefix('$')
                .and_then(|r| self.names.reg(r))
                .ok_or_else(|| self.at(reg_node, format!("unknown physical register '{name}'")))?;
            let vreg = match item
                .get("virtual-reg")
                .and_then(|v| v.as_str().map(|s| (v, s)))
            {
                Some((_, "")) | None => None,
                Some((node, s)) => {
                    let expected =
                        || self.at(node, format!("expected a virtual register, found '{s}'"));
                    let text = s.strip_prefix('%').ok_or_else(expected)?;
                    if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
                        let id = vregs::parse_number(text).map_err(|m| self.at(node, m))?;
                        Some(vregs.numbered(f, id))
                    } else if text.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                        && text.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
                    {
                        Some(vregs.named(f, text))
                    } else {
                        return Err(expected());
                    }
                }
            };
            f.live_ins.push(FnLiveIn { reg, vreg });
        }
        Ok(())
    }

    fn frame_objects(&self, n: &YNode) -> Result<Vec<FrameObject>, MirError> {
        let mut out: Vec<FrameObject> = Vec::new();
        for item in self.seq(n, "stack objects")? {
            let entries = item
                .as_map()
                .ok_or_else(|| self.at(item, "expected a stack object entry"))?;
            let mut o = FrameObject::spill_slot(0, 0, 1);
            o.kind = StackObjectKind::Default;
            let mut has_id = false;
            for (k, val) in entries {
                let s = val.as_str().unwrap_or("");
                match k.as_str().unwrap_or("") {
                    "id" => {
                        o.id = self.int(val, "a stack object number")?;
                        has_id = true;
                    }
                    "name" => o.name = (!s.is_empty()).then(|| s.into()),
                    "type" => {
                        o.kind = StackObjectKind::from_name(s).ok_or_else(|| {
                            self.at(val, format!("unknown stack object type '{s}'"))
                        })?
                    }
                    "offset" => o.offset = self.int(val, "an offset")?,
                    "size" => o.size = self.int(val, "a size")?,
                    "alignment" => o.alignment = self.int(val, "an alignment")?,
                    "stack-id" => o.stack_id = s.into(),
                    other => o.extra.push((other.into(), self.raw(val).into())),
                }
            }
            if !has_id {
                return Err(self.at(item, "stack object has no 'id'"));
            }
            if out.iter().any(|p| p.id == o.id) {
                return Err(self.at(item, format!("redefinition of stack object {}", o.id)));
            }
            out.push(o);
        }
        Ok(out)
    }

    fn body(
        &self,
        key: &YNode,
        value: &YNode,
        f: &mut MachineFunction,
        vregs: &mut VRegTable,
        generic: &HashSet<VReg>,
        jump_tables: Option<&RawJumpTables<'_>>,
    ) -> Result<(), MirError> {
        let text = value
            .as_str()
            .ok_or_else(|| self.at(value, "expected the function body as a block of text"))?;
        // A literal block's lines start on the line after `body: |`,
        // indented uniformly; body positions map to file positions by
        // these two offsets.
        let indent = self
            .doc
            .text
            .lines()
            .skip(key.line)
            .find(|l| !l.trim().is_empty())
            .map_or(0, |l| l.len() - l.trim_start_matches(' ').len());
        let place = |e: Located| self.err(key.line + e.line, e.col + indent, e.message);
        let mut reader = BodyReader::new(self.target, self.names, f, vregs);
        if let Some(raw) = jump_tables {
            reader.jump_table_ids = raw.ids().clone();
        }
        reader.read(text).map_err(place)?;
        if let Some(raw) = jump_tables {
            reader.func.jump_tables =
                raw.resolve(&reader.numbers, &reader.func.blocks, &|n, m| self.at(n, m))?;
        }
        let mut unclassed: Vec<(&(usize, usize), &VReg)> = reader
            .first_seen
            .iter()
            .filter(|&(v, _)| reader.func.vregs[v.index()].class.is_none() && !generic.contains(v))
            .map(|(v, p)| (p, v))
            .collect();
        unclassed.sort();
        if let Some(&(&(line, col), v)) = unclassed.first() {
            let name = reader.vregs.text(reader.func, *v);
            return Err(place(Located {
                line,
                col,
                message: format!("virtual register '{name}' has no register class"),
            }));
        }
        // Instruction positions in the file, by the same two offsets.
        let first_line = self.doc.first_line + key.line - 1;
        let positions = reader
            .positions
            .iter()
            .map(|&(line, col)| ((first_line + line) as u32, (col + indent) as u32))
            .collect();
        reader.func.source = crate::ir::SourcePositions {
            file: self.file.into(),
            insts: positions,
        };
        Ok(())
    }
}

/// Whether `name` is one of the target's GlobalISel register banks (which
/// MIR prints in the `class:` field of registers that have a bank but no
/// class). Only AArch64 uses GlobalISel in the corpus (at -O0).
fn register_bank(t: &TargetInfo<'_>, name: &str) -> bool {
    match &*t.name {
        "aarch64" => matches!(name, "gpr" | "fpr"),
        "x86" => matches!(name, "gpr" | "vecr" | "psr"),
        _ => false,
    }
}
