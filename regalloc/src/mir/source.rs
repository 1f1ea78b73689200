//! Whether a file is MIR for the target before its functions are read: UTF-8 text, YAML documents where MIR has them, the IR module's target triple.
//!
//! [`read`](super::read()) reads whatever text it is given and reports
//! errors function by function; a file that is not MIR at all (LLVM IR,
//! plain text, binary data) or is MIR for another target would be read as
//! "0 functions" or fail function by function with a misleading message.
//! [`read_bytes`] says what is wrong with the file as a whole first.
//!
//! An empty file (or one of blank lines and comments only) is MIR: llc-19
//! reads it as a module without functions, and so does this reader.

use crate::target::TargetInfo;

use super::{MirError, MirFile};

/// Reads the bytes of a `.mir` file named `file` (the name is only used in
/// errors): fails when they are not UTF-8, not MIR, or MIR for another
/// target than `target`; otherwise reads them as [`read`](super::read())
/// does, function by function.
pub fn read_bytes(target: &TargetInfo<'_>, file: &str, bytes: &[u8]) -> Result<MirFile, MirError> {
    let text = decode(file, bytes)?;
    check_documents(file, text)?;
    check_triple(target, file, text)?;
    Ok(super::read(target, file, text))
}

/// An error in `file` at no function.
fn error(file: &str, line: usize, col: usize, message: String) -> MirError {
    MirError {
        file: file.to_string(),
        line,
        col,
        function: None,
        message,
    }
}

/// The bytes as text, or an error at the first byte that is not UTF-8.
fn decode<'b>(file: &str, bytes: &'b [u8]) -> Result<&'b str, MirError> {
    std::str::from_utf8(bytes).map_err(|e| {
        let offset = e.valid_up_to();
        // The bytes before `offset` are valid UTF-8.
        let before = std::str::from_utf8(&bytes[..offset]).unwrap_or_default();
        let line_start = before.rfind('\n').map_or(0, |n| n + 1);
        let line = before.matches('\n').count() + 1;
        let col = before[line_start..].chars().count() + 1;
        error(
            file,
            line,
            col,
            format!(
                "invalid UTF-8 at byte offset {offset} (byte 0x{:02x}): a MIR file is UTF-8 text",
                bytes[offset]
            ),
        )
    })
}

/// Whether a line opens a YAML document (`---`, `--- |`).
fn is_doc_start(line: &str) -> bool {
    line.strip_prefix("---")
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(char::is_whitespace))
}

/// Whether a line says nothing to YAML (blank, or a comment).
fn is_blank(line: &str) -> bool {
    let t = line.trim_start();
    t.is_empty() || t.starts_with('#')
}

/// Checks that the text is a stream of YAML documents as MIR writes them:
/// before the first function document, only blank lines, comments and the
/// IR module document (`--- |`, indented text, `...`).
fn check_documents(file: &str, text: &str) -> Result<(), MirError> {
    let mut in_module = false;
    for (k, line) in text.lines().enumerate() {
        if is_doc_start(line) {
            let block = line[3..].trim_start().starts_with(['|', '>']);
            if !block || in_module {
                // A function document: the reader takes it from here.
                return Ok(());
            }
            in_module = true;
            continue;
        }
        if is_blank(line) || (in_module && line.starts_with([' ', '\t'])) {
            continue;
        }
        if in_module && line.trim_end() == "..." {
            in_module = false;
            continue;
        }
        let expected = if in_module {
            "expected the IR module's indented text, its end '...' or a function document '---'"
        } else {
            "expected a MIR document ('--- |' and an LLVM IR module, or '---' and a machine function)"
        };
        return Err(error(
            file,
            k + 1,
            1,
            format!("{expected}; found {}", describe(line)),
        ));
    }
    Ok(())
}

/// What a line that is not MIR looks like, for the error.
fn describe(line: &str) -> String {
    const IR_STARTS: &[&str] = &[
        "; ModuleID",
        "source_filename",
        "target datalayout",
        "target triple",
        "define ",
        "declare ",
        "attributes #",
        "@",
        "!",
        "%",
    ];
    let shown: String = line.trim_end().chars().take(60).collect();
    let more = if shown.len() < line.trim_end().len() {
        "..."
    } else {
        ""
    };
    if IR_STARTS.iter().any(|s| line.starts_with(s)) {
        format!("LLVM IR '{shown}{more}' (llc -stop-before=<pass> writes MIR)")
    } else {
        format!("'{shown}{more}'")
    }
}

/// The target family a name (a target's or a triple's architecture) is
/// of, when it is one of the four known ones.
fn family(name: &str) -> Option<&'static str> {
    let n = name.to_ascii_lowercase();
    [
        ("x86", &["x86", "i386", "i486", "i586", "i686", "amd64"][..]),
        ("aarch64", &["aarch64", "arm64"][..]),
        ("hexagon", &["hexagon"][..]),
        ("bpf", &["bpf"][..]),
    ]
    .into_iter()
    .find(|(_, prefixes)| prefixes.iter().any(|p| n.starts_with(p)))
    .map(|(f, _)| f)
}

/// Checks that the IR module's `target triple`, when the file has one,
/// names the target's family.
fn check_triple(target: &TargetInfo<'_>, file: &str, text: &str) -> Result<(), MirError> {
    let Some(wanted) = family(&target.name) else {
        return Ok(());
    };
    // The triple is in the IR module, which comes before any function.
    for (k, line) in text.lines().enumerate() {
        if is_doc_start(line) && !line[3..].trim_start().starts_with(['|', '>']) {
            break;
        }
        let t = line.trim_start();
        let Some(rest) = t.strip_prefix("target triple") else {
            continue;
        };
        let triple = rest
            .trim_start()
            .strip_prefix('=')
            .map(str::trim)
            .and_then(|v| v.strip_prefix('"'))
            .and_then(|v| v.split('"').next())
            .unwrap_or("");
        let arch = triple.split('-').next().unwrap_or("");
        match family(arch) {
            Some(found) if found != wanted => {
                return Err(error(
                    file,
                    k + 1,
                    line.len() - t.len() + 1,
                    format!(
                        "the file is for target '{found}' (target triple \"{triple}\"), but target '{}' was asked for",
                        target.name
                    ),
                ));
            }
            _ => return Ok(()),
        }
    }
    Ok(())
}
