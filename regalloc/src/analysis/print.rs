//! Printing intervals and block frequencies in LLVM's debug format (`%0 [16r,80r:0)[96B,128r:1) 0@16r 1@96B-phi  weight:...`).

use std::fmt::Write as _;

use super::FlowAnalyses;
use super::freq::format_float;
use super::intervals::LiveIntervals;
use super::ranges::LiveRange;
use crate::ir::{IrBlockRef, MachineFunction, RegMask};
use crate::target::{RegUnit, TargetInfo};

/// A live range as LLVM prints it: segments, a space, then the values.
pub fn range_to_string(r: &LiveRange) -> String {
    let mut s = String::new();
    if r.segments.is_empty() {
        s.push_str("EMPTY");
    }
    for seg in &r.segments {
        let _ = write!(s, "[{},{}:{})", seg.start, seg.end, seg.valno);
    }
    if !r.valnos.is_empty() {
        s.push(' ');
        for (k, v) in r.valnos.iter().enumerate() {
            if k > 0 {
                s.push(' ');
            }
            let _ = write!(s, "{k}@{}", v.def);
            if v.is_phi() {
                s.push_str("-phi");
            }
        }
    }
    s
}

/// A register unit's name: its root registers joined by `~` (LLVM's `printRegUnit`).
pub fn unit_name(t: &TargetInfo<'_>, u: RegUnit) -> String {
    t.unit_roots(u)
        .map(|r| t.reg(r).name.to_string())
        .collect::<Vec<_>>()
        .join("~")
}

/// LLVM's `********** INTERVALS **********` dump: register units with a
/// non-empty range, then virtual registers with their sub-ranges and
/// weights, then register-mask slots.
pub fn intervals_to_string(t: &TargetInfo<'_>, li: &LiveIntervals) -> String {
    let mut s = String::from("********** INTERVALS **********\n");
    for (u, (r, _)) in li.units.iter().enumerate() {
        if !r.is_empty() {
            let _ = writeln!(
                s,
                "{} {}",
                unit_name(t, RegUnit::new(u)),
                range_to_string(r)
            );
        }
    }
    for iv in li.vregs.iter().flatten() {
        let _ = write!(s, "%{} {}", iv.vreg.0, range_to_string(&iv.range));
        for sr in &iv.subranges {
            let _ = write!(s, " L{:016X} {}", sr.lanes.0, range_to_string(&sr.range));
        }
        let _ = writeln!(s, "  weight:{}", format_weight(iv.weight));
    }
    s.push_str("RegMasks:");
    for m in &li.regmasks {
        let _ = write!(s, " {}", m.at);
        if let RegMask::Named(c) = &m.mask {
            let _ = write!(s, "({})", t.callee_saved_set(*c).name.to_lowercase());
        }
    }
    s.push('\n');
    s
}

/// A weight as C's `%e` prints it (`1.000000e+00`, `inf`).
pub fn format_weight(w: f32) -> String {
    if w.is_infinite() {
        return "inf".into();
    }
    let s = format!("{:.6e}", w);
    // Rust prints `1.000000e0`; C prints a signed two-digit exponent.
    match s.split_once('e') {
        Some((m, e)) => {
            let n: i32 = e.parse().unwrap_or(0);
            format!("{m}e{}{:02}", if n < 0 { '-' } else { '+' }, n.abs())
        }
        None => s,
    }
}

/// LLVM's `-print-machine-bfi` block list for `f`.
pub fn freqs_to_string(f: &MachineFunction, flow: &FlowAnalyses) -> String {
    let mut s = format!("block-frequency-info: {}\n", f.name);
    for (b, bd) in f.blocks.iter().enumerate() {
        let name = match &bd.ir_block {
            Some(IrBlockRef::Named(n)) => n.to_string(),
            _ => String::new(),
        };
        let _ = writeln!(
            s,
            " - BB{b}[{name}]: float = {}, int = {}",
            format_float(flow.freq.float[b]),
            flow.freq.int[b]
        );
    }
    s
}
