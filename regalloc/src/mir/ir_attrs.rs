//! The function attributes of the embedded IR module (`--- |`) that allocation depends on: the `"frame-pointer"` policy, which decides whether the frame-pointer register is reserved, and the `"target-features"` string, which decides the subtarget (spill instructions, HW mode).
//!
//! The IR module is kept verbatim for the writer; this is not an IR parser.
//! It reads two kinds of lines: a function definition (`define ... @name(...)
//! ... #3 {`), whose `#N` references name its attribute groups, and an
//! attribute group (`attributes #3 = { ... "frame-pointer"="all" ... }`).
//! Attributes written inline on the `define` line are read too. A function
//! that is only declared, or a file without an IR module, has no entry, and
//! the target's default applies.

use std::collections::HashMap;

use crate::ir::FramePointerKind;
use crate::target::{FeatureSet, TargetInfo};

/// Per defined function, by IR name: the value of its `"frame-pointer"`
/// attribute, for the functions that have one.
pub fn frame_pointer_kinds(header: &str) -> HashMap<String, FramePointerKind> {
    string_attributes(header, "frame-pointer")
        .into_iter()
        .filter_map(|(name, value)| {
            // `"reserved"` (newer LLVMs: the register is kept out of
            // allocation but no frame is set up) reserves it just as
            // `"all"` does.
            let kind = match value {
                "all" | "reserved" => FramePointerKind::All,
                "non-leaf" => FramePointerKind::NonLeaf,
                "none" => FramePointerKind::None,
                _ => return None,
            };
            Some((name, kind))
        })
        .collect()
}

/// Per defined function, by IR name: its subtarget features, from its
/// `"target-features"` attribute (`"+avx2,-sse4a,..."`) read against the
/// target's features: each `+name` turns a feature on with what it
/// implies, each `-name` turns it off with what implies it, in order, as
/// LLVM applies them. Names the target does not describe are ignored (the
/// tables hold only the features something depends on). `"target-cpu"` is
/// not read: clang writes every feature the CPU has into the string.
pub fn target_features(t: &TargetInfo<'_>, header: &str) -> HashMap<String, FeatureSet> {
    if t.features.is_empty() {
        return HashMap::new();
    }
    string_attributes(header, "target-features")
        .into_iter()
        .map(|(name, value)| {
            let set = value
                .split(',')
                .filter_map(|term| {
                    let term = term.trim();
                    let (on, feature) = match term.split_at_checked(1)? {
                        ("+", f) => (true, f),
                        ("-", f) => (false, f),
                        _ => return None,
                    };
                    Some((on, t.find_feature(feature)?))
                })
                .fold(FeatureSet::NONE, |set, (on, k)| t.with_feature(set, k, on));
            (name, set)
        })
        .collect()
}

/// Per defined function, by IR name: the value of its string attribute
/// `key` (`"key"="value"`), inline on its `define` line or in one of its
/// attribute groups.
fn string_attributes<'h>(header: &'h str, key: &str) -> HashMap<String, &'h str> {
    let mut groups: HashMap<&str, &str> = HashMap::new();
    let mut defines: Vec<(String, Vec<&str>, Option<&str>)> = Vec::new();
    for line in header.lines() {
        let line = line.trim_start();
        if let Some(rest) = line.strip_prefix("attributes ") {
            // `attributes #3 = { ... }`
            let Some((id, body)) = rest.split_once('=') else {
                continue;
            };
            if let Some(v) = attribute_in(body, key) {
                groups.insert(id.trim(), v);
            }
        } else if line.starts_with("define ") {
            let Some((name, after)) = function_name(line) else {
                continue;
            };
            let tail = after_parameters(after);
            defines.push((name, group_refs(tail), attribute_in(tail, key)));
        }
    }
    defines
        .into_iter()
        .filter_map(|(name, refs, inline)| {
            // An inline attribute and a group cannot both set one key in
            // printed IR; the inline one is taken if both appear.
            let v = inline.or_else(|| refs.iter().find_map(|r| groups.get(r).copied()))?;
            Some((name, v))
        })
        .collect()
}

/// The value of a `"key"="..."` attribute in `text`, if any.
fn attribute_in<'t>(text: &'t str, key: &str) -> Option<&'t str> {
    let pattern = format!("\"{key}\"=\"");
    let at = text.find(&pattern)? + pattern.len();
    let value = &text[at..];
    Some(&value[..value.find('"')?])
}

/// The function name of a `define` line (`@foo` or `@"quoted name"`, with
/// IR escapes `\XX` decoded) and the text after it.
fn function_name(line: &str) -> Option<(String, &str)> {
    let at = line.find('@')?;
    let rest = &line[at + 1..];
    if let Some(quoted) = rest.strip_prefix('"') {
        let end = quoted.find('"')?;
        Some((unescape(&quoted[..end]), &quoted[end + 1..]))
    } else {
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || "._$-".contains(c)))
            .unwrap_or(rest.len());
        Some((rest[..end].to_string(), &rest[end..]))
    }
}

/// IR's `\XX` hexadecimal escapes in a quoted name.
fn unescape(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\\'
            && let Some(h) = s.get(i + 1..i + 3)
            && let Ok(b) = u8::from_str_radix(h, 16)
        {
            out.push(b);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The text after the parameter list that opens `after_name` (brackets
/// and quoted strings inside it skipped).
fn after_parameters(after_name: &str) -> &str {
    let mut depth = 0usize;
    let mut in_string = false;
    for (i, c) in after_name.char_indices() {
        match c {
            '"' => in_string = !in_string,
            _ if in_string => {}
            '(' => depth += 1,
            ')' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return &after_name[i + 1..];
                }
            }
            _ => {}
        }
    }
    ""
}

/// The attribute-group references (`#3`) in the text after the parameter
/// list, outside quoted strings.
fn group_refs(tail: &str) -> Vec<&str> {
    let mut refs = Vec::new();
    let mut in_string = false;
    for (i, c) in tail.char_indices() {
        match c {
            '"' => in_string = !in_string,
            '#' if !in_string => {
                let digits = tail[i + 1..]
                    .find(|c: char| !c.is_ascii_digit())
                    .map_or(tail.len(), |n| i + 1 + n);
                if digits > i + 1 {
                    refs.push(&tail[i..digits]);
                }
            }
            _ => {}
        }
    }
    refs
}

#[cfg(test)]
mod tests {
    use super::*;

    const MODULE: &str = r#"--- |
  ; ModuleID = 'm.ll'
  define dso_local i32 @f(ptr noundef %0, i32 %x) local_unnamed_addr #0 {
    ret i32 0
  }

  define internal fastcc void @"odd\2Ename"({ i32, i32 } %p, ptr "x#1" %q) unnamed_addr #2 section "t#9" {
    ret void
  }

  define void @g() "frame-pointer"="non-leaf" {
    ret void
  }

  define void @h() #1 {
    ret void
  }

  declare i32 @d(i32) #0

  attributes #0 = { nounwind "frame-pointer"="all" "target-cpu"="x86-64" }
  attributes #1 = { nounwind }
  attributes #2 = { "frame-pointer"="none" }
...
"#;

    #[test]
    fn each_defined_function_gets_its_groups_frame_pointer_value() {
        let kinds = frame_pointer_kinds(MODULE);
        assert_eq!(kinds.get("f"), Some(&FramePointerKind::All));
        assert_eq!(kinds.get("odd.name"), Some(&FramePointerKind::None));
        assert_eq!(kinds.get("g"), Some(&FramePointerKind::NonLeaf));
        // No attribute in its group; declarations are not functions.
        assert_eq!(kinds.get("h"), None);
        assert_eq!(kinds.get("d"), None);
        assert_eq!(kinds.len(), 3);
    }

    #[test]
    fn target_features_follow_implications_in_order() {
        use crate::target::{FeatureDesc, FeatureSet};
        use std::borrow::Cow;
        let mut t = crate::target::TargetBuilder::new("t").build();
        // a; b implies a; c implies b (and a).
        t.features = Cow::Owned(
            [("a", 0b001), ("b", 0b011), ("c", 0b111)]
                .into_iter()
                .map(|(n, m)| FeatureDesc {
                    name: Cow::Borrowed(n),
                    implies: FeatureSet(m),
                })
                .collect(),
        );
        let module = "define void @p() #0 {\ndefine void @q() #1 {\ndefine void @r() #2 {\n\
                      attributes #0 = { \"target-features\"=\"+c,-b,+zz\" }\n\
                      attributes #1 = { \"target-cpu\"=\"x\" \"target-features\"=\"+b\" }\n\
                      attributes #2 = { nounwind }\n";
        let f = target_features(&t, module);
        // -b drops b and c, which implies it; a stays; zz is not described.
        assert_eq!(f.get("p"), Some(&FeatureSet(0b001)));
        assert_eq!(f.get("q"), Some(&FeatureSet(0b011)));
        assert_eq!(f.get("r"), None);
    }

    #[test]
    fn no_module_and_unknown_values_give_nothing() {
        assert!(frame_pointer_kinds("").is_empty());
        let odd = "define void @f() #0 {\nattributes #0 = { \"frame-pointer\"=\"sometimes\" }\n";
        assert!(frame_pointer_kinds(odd).is_empty());
        assert!(frame_pointer_kinds("define void @\n define @\"unterminated").is_empty());
    }
}
