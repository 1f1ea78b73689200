//! Reads the facts of a function's `frameInfo:` that decide which registers it reserves (calls, a taken frame address, an opaque stack-pointer adjustment, the largest alignment, the local frame size) into [`FrameInfo`].
//!
//! The key is also kept verbatim for output; other keys of it are not
//! modelled.

use crate::ir::FrameInfo;

use super::yaml::YNode;

/// The facts `node` (the value of `frameInfo:`) gives; on error, the node
/// at fault and what is wrong.
pub(super) fn read(node: &YNode) -> Result<FrameInfo, (&YNode, String)> {
    let mut info = FrameInfo::default();
    let Some(entries) = node.as_map() else {
        return Err((node, "expected a mapping of frame properties".into()));
    };
    for (key, value) in entries {
        match key.as_str().unwrap_or("") {
            "hasCalls" => info.has_calls = flag(value)?,
            "isFrameAddressTaken" => info.frame_address_taken = flag(value)?,
            "hasOpaqueSPAdjustment" => info.opaque_sp_adjustment = flag(value)?,
            "maxAlignment" => info.max_alignment = bytes(value)?,
            "localFrameSize" => info.local_frame_size = bytes(value)?,
            _ => {}
        }
    }
    Ok(info)
}

/// A boolean, spelled as LLVM prints it.
fn flag(n: &YNode) -> Result<bool, (&YNode, String)> {
    match n.as_str() {
        Some("true" | "True" | "TRUE") => Ok(true),
        Some("false" | "False" | "FALSE") => Ok(false),
        _ => Err((n, "expected 'true' or 'false'".into())),
    }
}

/// A byte count.
fn bytes(n: &YNode) -> Result<u64, (&YNode, String)> {
    n.as_str()
        .and_then(|s| s.parse::<u64>().ok())
        .ok_or_else(|| (n, "expected a number of bytes".into()))
}
