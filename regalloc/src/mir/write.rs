//! The MIR writer: prints functions in LLVM's plain MIR form, with the header and unmodelled keys kept from the source.

use std::fmt::Write as _;

use crate::ir::{
    BlockData, FrameObject, InstData, IrBlockRef, MachineFunction, Op, Operand, RegFlags, RegMask,
    RegOperand, RegRef, SourceKey, Symbol, VReg,
};
use crate::target::TargetInfo;

use super::yaml::quote;
use super::{FunctionDoc, MirFile};

/// Prints a whole file: the header verbatim, then each function (a function
/// that failed to read is printed as it was).
pub fn write(target: &TargetInfo<'_>, file: &MirFile) -> String {
    let mut out = file.header.clone();
    for f in &file.functions {
        match f {
            FunctionDoc::Read(m) => out.push_str(&write_function(target, m)),
            FunctionDoc::Failed { text, .. } => out.push_str(text),
        }
    }
    out
}

/// The order LLVM prints the modelled keys in, used for functions that
/// were built rather than read.
const DEFAULT_KEYS: &[&str] = &[
    "name",
    "registers",
    "liveins",
    "fixedStack",
    "stack",
    "jumpTable",
    "body",
];

/// Prints one function as a YAML document (`---` to `...`).
pub fn write_function(target: &TargetInfo<'_>, f: &MachineFunction) -> String {
    let mut out = String::from("---\n");
    let keys: Vec<SourceKey> = if f.source_keys.is_empty() {
        let mut k: Vec<SourceKey> = DEFAULT_KEYS
            .iter()
            .map(|&k| SourceKey::Modelled(k))
            .collect();
        k.insert(
            1,
            SourceKey::Verbatim {
                key: "tracksRegLiveness".into(),
                text: "tracksRegLiveness: true\n".into(),
            },
        );
        k
    } else {
        f.source_keys.clone()
    };
    let mut written: Vec<&str> = Vec::new();
    for k in &keys {
        match k {
            SourceKey::Verbatim { text, .. } => {
                out.push_str(text);
                // The last key of a document without a final newline.
                if !text.ends_with('\n') {
                    out.push('\n');
                }
            }
            SourceKey::Modelled(name) => {
                if *name == "body" {
                    // Keys the source lacked (a -simplify-mir file) but
                    // that now have content go before the body.
                    for &extra in &DEFAULT_KEYS[1..DEFAULT_KEYS.len() - 1] {
                        if !written.contains(&extra)
                            && !keys.contains(&SourceKey::Modelled(extra))
                            && !is_empty(f, extra)
                        {
                            modelled(target, f, extra, &mut out);
                        }
                    }
                }
                modelled(target, f, name, &mut out);
                written.push(name);
            }
        }
    }
    if !written.contains(&"body") {
        modelled(target, f, "body", &mut out);
    }
    out.push_str("...\n");
    out
}

fn is_empty(f: &MachineFunction, key: &str) -> bool {
    match key {
        "registers" => f.vregs.is_empty(),
        "liveins" => f.live_ins.is_empty(),
        "fixedStack" => f.fixed_stack.is_empty(),
        "stack" => f.stack.is_empty(),
        "jumpTable" => f.jump_tables.as_ref().is_none_or(|j| j.tables.is_empty()),
        _ => false,
    }
}

/// `key:` padded as LLVM's YAML writer pads it.
fn key(out: &mut String, name: &str, value: &str) {
    let _ = writeln!(out, "{:<17}{}", format!("{name}:"), value);
}

fn list(out: &mut String, name: &str, items: Vec<String>) {
    if items.is_empty() {
        key(out, name, "[]");
    } else {
        let _ = writeln!(out, "{name}:");
        for i in items {
            let _ = writeln!(out, "  - {{ {i} }}");
        }
    }
}

fn modelled(t: &TargetInfo<'_>, f: &MachineFunction, name: &str, out: &mut String) {
    match name {
        "name" => key(out, "name", &quote(&f.name)),
        "registers" => {
            let items = f
                .vregs
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    // A register bank is kept as an extra `class` entry.
                    let bank = v.extra.iter().find(|(k, _)| &**k == "class");
                    let class = match (v.class, bank) {
                        (Some(c), _) => t.class(c).name.to_ascii_lowercase(),
                        (None, Some((_, b))) => b.to_string(),
                        (None, None) => "_".to_string(),
                    };
                    let mut s = format!(
                        "id: {}, class: {class}, preferred-register: '{}'",
                        f.vreg_number(VReg::new(i)),
                        v.preferred.replace('\'', "''")
                    );
                    for (k, val) in v.extra.iter().filter(|(k, _)| &**k != "class") {
                        let _ = write!(s, ", {k}: {val}");
                    }
                    s
                })
                .collect();
            list(out, "registers", items);
        }
        "liveins" => {
            let items = f
                .live_ins
                .iter()
                .map(|l| {
                    let v = l.vreg.map_or(String::new(), |v| f.vreg_text(v));
                    format!(
                        "reg: '${}', virtual-reg: '{v}'",
                        t.reg(l.reg).name.to_ascii_lowercase()
                    )
                })
                .collect();
            list(out, "liveins", items);
        }
        "fixedStack" => list(
            out,
            "fixedStack",
            f.fixed_stack
                .iter()
                .map(|o| frame_object(o, false))
                .collect(),
        ),
        "stack" => list(
            out,
            "stack",
            f.stack.iter().map(|o| frame_object(o, true)).collect(),
        ),
        "jumpTable" => super::jump_tables::write(out, f.jump_tables.as_ref()),
        _ => {
            out.push_str("body:             |\n");
            let undefined = undefined_vregs(f);
            for (k, b) in f.blocks.iter().enumerate() {
                if k > 0 {
                    // LLVM indents blank lines of the block scalar too.
                    out.push_str("  \n");
                }
                block(t, f, k, b, &undefined, out);
            }
        }
    }
}

fn frame_object(o: &FrameObject, named: bool) -> String {
    let mut s = format!("id: {}, ", o.id);
    if named {
        let _ = write!(
            s,
            "name: {}, ",
            o.name.as_deref().map_or("''".to_string(), quote)
        );
    }
    let _ = write!(
        s,
        "type: {}, offset: {}, size: {}, alignment: {}, stack-id: {}",
        o.kind.name(),
        o.offset,
        o.size,
        o.alignment,
        o.stack_id
    );
    for (k, v) in &o.extra {
        let _ = write!(s, ", {k}: {v}");
    }
    s
}

fn block(
    t: &TargetInfo<'_>,
    f: &MachineFunction,
    k: usize,
    b: &BlockData,
    undefined: &[bool],
    out: &mut String,
) {
    let _ = write!(out, "  bb.{k}");
    if let Some(IrBlockRef::Named(n)) = &b.ir_block {
        let _ = write!(out, ".{n}");
    }
    let mut attrs: Vec<String> = Vec::new();
    if let Some(IrBlockRef::Numbered(n)) = &b.ir_block {
        attrs.push(format!("%ir-block.{n}"));
    }
    attrs.extend(b.attrs.iter().map(|a| a.to_string()));
    if !attrs.is_empty() {
        let _ = write!(out, " ({})", attrs.join(", "));
    }
    out.push_str(":\n");
    // An empty list is printed when the reader would otherwise guess
    // successors (a block ending in a call that does not return), as LLVM
    // does.
    let guessed = super::body::guess_successors(t, f, crate::ir::Block::new(k));
    let print_succs = !b.succs.is_empty() || !guessed.is_empty();
    if !b.succs.is_empty() {
        let succs: Vec<String> = b
            .succs
            .iter()
            .map(|s| match s.prob {
                Some(p) => format!("%bb.{}(0x{p:08x})", s.block.0),
                None => format!("%bb.{}", s.block.0),
            })
            .collect();
        let _ = writeln!(out, "    successors: {}", succs.join(", "));
    } else if print_succs {
        out.push_str("    successors:\n");
    }
    if !b.live_ins.is_empty() {
        let regs: Vec<String> = b
            .live_ins
            .iter()
            .map(|l| {
                let n = t.reg(l.reg).name.to_ascii_lowercase();
                match l.lanes {
                    Some(m) => format!("${n}:0x{:016x}", m.0),
                    None => format!("${n}"),
                }
            })
            .collect();
        let _ = writeln!(out, "    liveins: {}", regs.join(", "));
    }
    if print_succs || !b.live_ins.is_empty() {
        out.push_str("  \n");
    }
    for &i in &b.insts {
        let _ = writeln!(out, "    {}", inst_with(t, f, f.inst(i), Some(undefined)));
    }
}

/// Whether an instruction's ties must be printed: some tie is not the one
/// its description implies (LLVM's `hasComplexRegisterTies`).
fn complex_ties(t: &TargetInfo<'_>, i: &InstData) -> bool {
    i.operands.iter().enumerate().any(|(k, o)| {
        let Some(r) = o.as_reg() else { return false };
        let Some(d) = r.tied_to else { return false };
        if r.is_def() {
            return false;
        }
        match i.op {
            Op::Target(op) => r.is_implicit() || t.instr(op).tied_to(k) != Some(usize::from(d)),
            Op::Generic(_) | Op::Unknown(_) => true,
        }
    })
}

/// Prints one instruction (without indentation or newline).
pub(crate) fn inst(t: &TargetInfo<'_>, f: &MachineFunction, i: &InstData) -> String {
    inst_with(t, f, i, None)
}

/// Which virtual registers no instruction of `f` defines: LLVM prints
/// the class of such a register at its uses too (an `undef` read left
/// by `processimpdefs`), since no definition shows it.
pub(crate) fn undefined_vregs(f: &MachineFunction) -> Vec<bool> {
    let mut undefined = vec![true; f.vregs.len()];
    for i in f.inst_ids() {
        for o in &f.inst(i).operands {
            if let Some(r) = o.as_reg()
                && let RegRef::Virt(v) = r.reg
                && r.is_def()
            {
                undefined[v.index()] = false;
            }
        }
    }
    undefined
}

/// [`inst`], printing the class at uses of the registers `undefined`
/// marks (all of them defined when `None`).
fn inst_with(
    t: &TargetInfo<'_>,
    f: &MachineFunction,
    i: &InstData,
    undefined: Option<&[bool]>,
) -> String {
    let ties = complex_ties(t, i);
    let ndefs = i
        .operands
        .iter()
        .take_while(|o| o.as_reg().is_some_and(|r| r.is_def() && !r.is_implicit()))
        .count();
    let mut s = String::new();
    if ndefs > 0 {
        let defs: Vec<String> = i.operands[..ndefs]
            .iter()
            .map(|o| operand(t, f, o, false, ties, undefined))
            .collect();
        let _ = write!(s, "{} = ", defs.join(", "));
    }
    for n in i.flags.names() {
        let _ = write!(s, "{n} ");
    }
    s.push_str(i.op.name(t));
    let mut rest: Vec<String> = i.operands[ndefs..]
        .iter()
        .map(|o| operand(t, f, o, true, ties, undefined))
        .collect();
    if let Some(a) = &i.attrs {
        super::inst_attrs::write(&mut rest, a);
    }
    if !rest.is_empty() {
        let _ = write!(s, " {}", rest.join(", "));
    }
    for (k, m) in i.mem.iter().enumerate() {
        s.push_str(if k == 0 { " :: " } else { ", " });
        super::mem_operand::write(&mut s, f, m);
    }
    s
}

/// One operand as MIR prints it, without definition flags or ties (for
/// messages).
pub(crate) fn operand_text(t: &TargetInfo<'_>, f: &MachineFunction, o: &Operand) -> String {
    operand(t, f, o, false, false, None)
}

fn offset(off: i64) -> String {
    match off {
        0 => String::new(),
        o if o > 0 => format!(" + {o}"),
        o => format!(" - {}", o.unsigned_abs()),
    }
}

fn operand(
    t: &TargetInfo<'_>,
    f: &MachineFunction,
    o: &Operand,
    print_def: bool,
    ties: bool,
    undefined: Option<&[bool]>,
) -> String {
    match o {
        Operand::Reg(r) => reg_operand(t, f, r, print_def, ties, undefined),
        Operand::Imm(v) => v.to_string(),
        Operand::Block(b) => format!("%bb.{}", b.0),
        Operand::Frame(fr, off) => {
            let (kind, objs) = if fr.fixed {
                ("fixed-stack", &f.fixed_stack)
            } else {
                ("stack", &f.stack)
            };
            let name = objs
                .iter()
                .find(|o| o.id == fr.id)
                .and_then(|o| o.name.as_deref());
            let name = name.map_or(String::new(), |n| format!(".{n}"));
            format!("%{kind}.{}{name}{}", fr.id, offset(*off))
        }
        Operand::Symbol(s) => {
            let flags = s
                .target_flags
                .as_deref()
                .map_or(String::new(), |f| format!("target-flags({f}) "));
            let sym = match &s.sym {
                Symbol::Global(n) => format!("@{n}"),
                Symbol::External(n) => format!("&{n}"),
                Symbol::ConstPool(n) => format!("%const.{n}"),
                Symbol::JumpTable(n) => format!("%jump-table.{n}"),
            };
            format!("{flags}{sym}{}", offset(s.offset))
        }
        Operand::RegMask(RegMask::Named(c)) => t.callee_saved_set(*c).name.to_ascii_lowercase(),
        Operand::RegMask(RegMask::Custom(regs)) => {
            let names: Vec<String> = regs
                .iter()
                .map(|&r| format!(" ${}", t.reg(r).name.to_ascii_lowercase()))
                .collect();
            format!("<regmask{}>", names.concat())
        }
        Operand::SubRegIndex(i) => format!("%subreg.{}", t.sub_reg_index(*i).name),
        Operand::Other(text) => text.to_string(),
    }
}

fn reg_operand(
    t: &TargetInfo<'_>,
    f: &MachineFunction,
    r: &RegOperand,
    print_def: bool,
    ties: bool,
    undefined: Option<&[bool]>,
) -> String {
    let mut s = String::new();
    let fl = r.flags;
    if fl.has(RegFlags::IMPLICIT) {
        s.push_str(if r.is_def() {
            "implicit-def "
        } else {
            "implicit "
        });
    } else if print_def && r.is_def() {
        s.push_str("def ");
    }
    for (flag, word) in [
        (RegFlags::INTERNAL, "internal "),
        (RegFlags::DEAD, "dead "),
        (RegFlags::KILLED, "killed "),
        (RegFlags::UNDEF, "undef "),
        (RegFlags::EARLY_CLOBBER, "early-clobber "),
        (RegFlags::RENAMABLE, "renamable "),
        (RegFlags::DEBUG_USE, "debug-use "),
    ] {
        if fl.has(flag) {
            s.push_str(word);
        }
    }
    match r.reg {
        RegRef::Virt(v) => match &f.vregs.get(v.index()).and_then(|d| d.name.as_deref()) {
            Some(n) => {
                let _ = write!(s, "%{n}");
            }
            None => {
                let _ = write!(s, "%{}", f.vreg_number(v));
            }
        },
        RegRef::Phys(p) => {
            let _ = write!(s, "${}", t.reg(p).name.to_ascii_lowercase());
        }
        RegRef::NoReg => s.push_str("$noreg"),
    }
    if let Some(i) = r.sub {
        let _ = write!(s, ".{}", t.sub_reg_index(i).name);
    }
    let class_shown = |v: VReg| r.is_def() || undefined.is_some_and(|u| u[v.index()]);
    if let RegRef::Virt(v) = r.reg
        && class_shown(v)
    {
        let class = f.vregs.get(v.index()).and_then(|d| d.class);
        let _ = write!(
            s,
            ":{}",
            class.map_or("_".to_string(), |c| t.class(c).name.to_ascii_lowercase())
        );
    }
    if let (true, Some(d), false) = (ties, r.tied_to, r.is_def()) {
        let _ = write!(s, "(tied-def {d})");
    }
    if let Some(ty) = &r.ty {
        let _ = write!(s, "({ty})");
    }
    s
}
