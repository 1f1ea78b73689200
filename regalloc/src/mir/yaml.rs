//! A small YAML tree with source positions, built from saphyr-parser's events, for the outer structure of one MIR document.
//!
//! The reader needs positions (to place errors and to cut unknown keys out
//! of the source verbatim), which a plain `Yaml` value does not keep.

use saphyr_parser::{Event, Parser, ScalarStyle, ScanError};

/// A YAML node.
#[derive(Clone, Debug)]
pub(crate) enum YValue {
    /// A scalar: its decoded value and whether it was quoted.
    Scalar(String, bool),
    /// A sequence.
    Seq(Vec<YNode>),
    /// A mapping, in source order.
    Map(Vec<(YNode, YNode)>),
}

/// A node with where it starts and ends (1-based line, 0-based column,
/// character index) in the parsed text.
#[derive(Clone, Debug)]
pub(crate) struct YNode {
    pub value: YValue,
    pub line: usize,
    pub col: usize,
    pub start: usize,
    pub end: usize,
}

impl YNode {
    /// The scalar's value, if this is a scalar.
    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            YValue::Scalar(s, _) => Some(s),
            _ => None,
        }
    }

    /// The entries, if this is a mapping.
    pub fn as_map(&self) -> Option<&[(YNode, YNode)]> {
        match &self.value {
            YValue::Map(m) => Some(m),
            _ => None,
        }
    }

    /// The value under `key`, if this is a mapping that has it.
    pub fn get(&self, key: &str) -> Option<&YNode> {
        self.as_map()?
            .iter()
            .find(|(k, _)| k.as_str() == Some(key))
            .map(|(_, v)| v)
    }
}

/// A YAML syntax error: position (1-based line, 0-based column) and message.
pub(crate) struct YamlError {
    pub line: usize,
    pub col: usize,
    pub message: String,
}

impl From<ScanError> for YamlError {
    fn from(e: ScanError) -> YamlError {
        YamlError {
            line: e.marker().line(),
            col: e.marker().col(),
            message: e.info().to_string(),
        }
    }
}

/// Parses `text` as one YAML document and returns its root node (`None`
/// for an empty document). Anchors and aliases are not used by MIR; an
/// alias reads as an empty scalar.
pub(crate) fn parse(text: &str) -> Result<Option<YNode>, YamlError> {
    let parser = Parser::new_from_str(text);
    // A stack of nodes under construction; a finished node is attached to
    // its parent (a mapping alternates key, value).
    let mut stack: Vec<(YNode, Option<YNode>)> = Vec::new();
    let mut root = None;
    for ev in parser {
        let (ev, span) = ev?;
        let at = |value| YNode {
            value,
            line: span.start.line(),
            col: span.start.col(),
            start: span.start.index(),
            end: span.end.index(),
        };
        let done = match ev {
            Event::Scalar(v, style, _, _) => Some(at(YValue::Scalar(
                v.into_owned(),
                style != ScalarStyle::Plain,
            ))),
            Event::Alias(_) => Some(at(YValue::Scalar(String::new(), false))),
            Event::SequenceStart(..) => {
                stack.push((at(YValue::Seq(Vec::new())), None));
                None
            }
            Event::MappingStart(..) => {
                stack.push((at(YValue::Map(Vec::new())), None));
                None
            }
            Event::SequenceEnd | Event::MappingEnd => stack.pop().map(|(mut n, _)| {
                n.end = span.end.index();
                n
            }),
            Event::StreamEnd => break,
            _ => None,
        };
        if let Some(node) = done {
            match stack.last_mut() {
                None => root = Some(node),
                Some((parent, pending_key)) => match &mut parent.value {
                    YValue::Seq(items) => items.push(node),
                    YValue::Map(entries) => match pending_key.take() {
                        None => *pending_key = Some(node),
                        Some(k) => entries.push((k, node)),
                    },
                    YValue::Scalar(..) => unreachable!("scalars are never pushed on the stack"),
                },
            }
        }
    }
    Ok(root)
}

/// Quotes a scalar for output the way LLVM's YAML writer does: plain when
/// safe, else single-quoted with `'` doubled.
pub(crate) fn quote(s: &str) -> String {
    let plain_ok = !s.is_empty()
        && !s.starts_with(|c: char| " -?:,[]{}#&*!|>'\"%@`".contains(c))
        && !s.ends_with(' ')
        && !s.contains(": ")
        && !s.contains(" #")
        && !s.contains(|c: char| c.is_control() || ",[]{}".contains(c))
        && !matches!(
            s,
            "true" | "false" | "null" | "~" | "yes" | "no" | "on" | "off"
        )
        && s.parse::<f64>().is_err();
    if plain_ok {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "''"))
    }
}

/// The column past which LLVM's YAML writer breaks a flow sequence
/// (`yaml::Output`'s default wrap column).
const WRAP_COLUMN: usize = 70;

/// A flow sequence `[ a, b ]` of already-quoted `items`, starting at
/// 0-based `column`, broken into lines as LLVM's YAML writer breaks it:
/// before each item but the first, once the comma and space after the
/// previous item have taken the line past [`WRAP_COLUMN`], it starts a new
/// line indented two past the opening bracket (leaving that trailing
/// space). An empty sequence is `[  ]`.
pub(crate) fn flow_sequence(column: usize, items: &[String]) -> String {
    let mut out = String::from("[ ");
    let mut col = column + 2;
    for (k, item) in items.iter().enumerate() {
        if k > 0 {
            out.push_str(", ");
            col += 2;
            if col > WRAP_COLUMN {
                out.push('\n');
                out.extend(std::iter::repeat_n(' ', column + 2));
                col = column + 2;
            }
        }
        out.push_str(item);
        col += item.chars().count();
    }
    out.push_str(" ]");
    out
}
