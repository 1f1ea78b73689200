//! Spill, reload and copy templates per register class (our prelude's `SpillTemplates` and `CannotSpill` extensions): each def read and checked, then every class given, per kind, the defs of its nearest class that has some.
//!
//! A template is a dag whose operator is the instruction and whose
//! arguments are placeholders (`TplReg`, `TplSrc`, `TplSlot`, `TplNoReg`,
//! or a piece `(TplReg idx)`), integers or fixed registers. A def may
//! apply under subtarget features only (`Features`), give the forms for a
//! slot that only has the stack's alignment (`UnalignedSpill`,
//! `UnalignedReload`) and name the stack its slots live in (`StackID`). A
//! `CannotSpill` def says why a class cannot be spilled. The prelude
//! (`prelude/regalloc.td`) documents the language; this module enforces
//! it, each error at the def it is about.
//!
//! A class without defs giving some kind inherits that kind from its
//! nearest super-class (fewest members) that gives it, all of that class's
//! choices for the kind, most specific first; a super-class's
//! `CannotSpill` is inherited only when no super-class has spill
//! templates.

use super::access::Fields;
use super::classes::Classes;
use super::features::{FeatureBits, Features};
use super::instrs::{Instrs, OperandKind, TplOp, template_operand};
use super::regs::RegBank;
use super::reserved::Reserved;
use crate::diag::{Diagnostic, Kind, Span};
use crate::records::{Init, RecId};

/// The stack ids MIR knows (`stack-id:` of a stack object).
pub const STACK_IDS: &[&str] = &[
    "default",
    "sgpr-spill",
    "scalable-vector",
    "wasm-local",
    "noalloc",
];

/// An instruction with placeholder operands.
#[derive(Clone, Debug, PartialEq)]
pub struct Template {
    /// Instruction index.
    pub opcode: usize,
    /// Explicit operands.
    pub operands: Vec<TplOp>,
}

/// One def's template of one kind.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    /// The features a function must have for it (closed under implication).
    pub features: FeatureBits,
    /// The template.
    pub template: Template,
    /// For a spill or reload: the form for a slot with only the stack's
    /// alignment, when it differs.
    pub unaligned: Option<Template>,
}

/// The templates of one class, own or inherited.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClassTemplates {
    /// Stores to a stack slot, most specific first.
    pub spill: Vec<Choice>,
    /// Loads from a stack slot, most specific first.
    pub reload: Vec<Choice>,
    /// Register-to-register copies, most specific first.
    pub copy: Vec<Choice>,
    /// The stack the class's slots live in (`default` unless a def says).
    pub stack_id: String,
    /// Why the class cannot be spilled (`CannotSpill`), own or inherited.
    pub cannot_spill: Option<String>,
    /// The class the spill templates (else the copies) were declared for:
    /// itself, or the super-class inherited from.
    pub from: Option<usize>,
}

/// Every class's templates (same index as the model's classes).
#[derive(Clone, Debug, Default)]
pub struct Templates {
    /// Per class.
    pub per_class: Vec<ClassTemplates>,
}

/// Which template of a def.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum What {
    Spill,
    Reload,
    Copy,
}

impl What {
    fn name(self) -> &'static str {
        match self {
            What::Spill => "spill",
            What::Reload => "reload",
            What::Copy => "copy",
        }
    }
}

/// One `SpillTemplates` def, read.
struct OwnDef {
    span: Span,
    features: FeatureBits,
    spill: Option<(Template, Option<Template>)>,
    reload: Option<(Template, Option<Template>)>,
    copy: Option<Template>,
    stack_id: String,
}

/// What one class declares itself.
#[derive(Default)]
struct Own {
    defs: Vec<OwnDef>,
    cannot: Option<(String, Span)>,
}

impl Own {
    fn gives_spill(&self) -> bool {
        self.cannot.is_some() || self.defs.iter().any(|d| d.spill.is_some())
    }

    fn gives_copy(&self) -> bool {
        self.defs.iter().any(|d| d.copy.is_some())
    }
}

struct Reader<'a> {
    f: &'a Fields<'a>,
    bank: &'a RegBank,
    classes: &'a Classes,
    instrs: &'a Instrs,
    features: &'a Features,
    reserved: &'a Reserved,
    diags: Vec<Diagnostic>,
}

impl Reader<'_> {
    fn err(&mut self, span: Span, msg: String) {
        self.diags
            .push(Diagnostic::error(Kind::Semantic, span, msg));
    }

    /// The lane mask of class `c`: every lane its registers' sub-registers
    /// cover (lane 0 for a class without sub-registers).
    fn class_lanes(&self, c: usize) -> u64 {
        let m = self.classes.list[c]
            .sub_class_with_subreg
            .keys()
            .fold(0u64, |m, &i| m | self.bank.indices[i].lane_mask);
        if m == 0 { 1 } else { m }
    }

    /// Whether the pieces `subs` of one register of class `c` are all held
    /// by every member, disjoint, and together the whole register; the
    /// error says what is wrong.
    fn check_pieces(&self, c: usize, subs: &[usize]) -> Result<(), String> {
        let cl = &self.classes.list[c];
        let mut seen = 0u64;
        for &i in subs {
            let name = &self.bank.indices[i].name;
            if cl.sub_class_with_subreg.get(&i) != Some(&c) {
                return Err(format!(
                    "not every register of '{}' has sub-register '{name}'",
                    cl.name
                ));
            }
            let m = self.bank.indices[i].lane_mask;
            if m & seen != 0 {
                return Err(format!("sub-register '{name}' overlaps another piece"));
            }
            seen |= m;
        }
        if seen != self.class_lanes(c) {
            return Err(format!(
                "the pieces do not cover the registers of '{}'",
                cl.name
            ));
        }
        Ok(())
    }

    /// One template dag of class `c`.
    fn template(
        &mut self,
        span: Span,
        what: What,
        c: usize,
        g: &crate::records::value::Dag,
    ) -> Option<Template> {
        let cname = self.classes.list[c].name.clone();
        let w = what.name();
        let Init::Def(op) = &g.op else {
            self.err(
                span,
                format!(
                    "{w} template of class '{cname}' must name an instruction as its dag operator"
                ),
            );
            return None;
        };
        let Some(opcode) = self.instrs.opcode_of(*op) else {
            self.err(
                span,
                format!(
                    "{w} template of class '{cname}': '{}' is not an instruction",
                    self.f.name(*op)
                ),
            );
            return None;
        };
        let inst = &self.instrs.list[opcode];
        let mut ops = Vec::new();
        for (a, _) in &g.args {
            match template_operand(self.f, self.bank, a) {
                Ok(t) => ops.push(t),
                Err(msg) => {
                    self.err(span, format!("{w} template of class '{cname}': {msg}"));
                    return None;
                }
            }
        }
        let n = inst.operands.len();
        let variadic = inst.flags & super::instrs::flags::VARIADIC != 0;
        if ops.len() != n && !(variadic && ops.len() > n) {
            self.err(
                span,
                format!(
                    "{w} template of class '{cname}': '{}' has {n} machine operands, the template gives {}",
                    inst.name,
                    ops.len()
                ),
            );
            return None;
        }
        let count = |p: fn(&TplOp) -> bool| ops.iter().filter(|o| p(o)).count();
        let (regs, reg_subs) = (
            count(|o| *o == TplOp::Reg),
            count(|o| matches!(o, TplOp::RegSub(_))),
        );
        let (srcs, src_subs) = (
            count(|o| *o == TplOp::Src),
            count(|o| matches!(o, TplOp::SrcSub(_))),
        );
        let slots = count(|o| *o == TplOp::Slot);
        let reg_ok = (regs == 1 && reg_subs == 0) || (regs == 0 && reg_subs > 0);
        let ok = if what == What::Copy {
            reg_ok && ((srcs >= 1 && src_subs == 0) || (srcs == 0 && src_subs > 0)) && slots == 0
        } else {
            reg_ok && srcs + src_subs == 0 && slots == 1
        };
        if !ok {
            let want = if what == What::Copy {
                "TplReg once (or pieces of it), TplSrc at least once (or pieces of it) and no TplSlot"
            } else {
                "TplReg once (or pieces of it), TplSlot once and no TplSrc"
            };
            self.err(
                span,
                format!(
                    "{w} template of class '{cname}' ('{}') must use {want}",
                    inst.name
                ),
            );
            return None;
        }
        for (pieces, is_src) in [(&ops, false), (&ops, true)] {
            let subs: Vec<usize> = pieces
                .iter()
                .filter_map(|o| match (o, is_src) {
                    (TplOp::RegSub(i), false) | (TplOp::SrcSub(i), true) => Some(*i),
                    _ => None,
                })
                .collect();
            if subs.is_empty() {
                continue;
            }
            if let Err(msg) = self.check_pieces(c, &subs) {
                self.err(span, format!("{w} template of class '{cname}': {msg}"));
                return None;
            }
        }
        for (k, o) in ops.iter().enumerate() {
            let (is_reg, is_src) = match o {
                TplOp::Reg | TplOp::RegSub(_) => (true, false),
                TplOp::Src | TplOp::SrcSub(_) => (false, true),
                _ => continue,
            };
            let Some(m) = inst.operands.get(k) else {
                continue;
            };
            if m.kind != OperandKind::Register {
                self.err(
                    span,
                    format!(
                        "{w} template of class '{cname}': operand {k} of '{}' ('${}') is not a register operand",
                        inst.name, m.name
                    ),
                );
                return None;
            }
            // The register a reload or copy writes is a definition; the one
            // a spill stores, and a copy's source, are uses.
            let want_def = is_reg && what != What::Spill;
            if m.is_def != want_def && !is_src || is_src && m.is_def {
                self.err(
                    span,
                    format!(
                        "{w} template of class '{cname}': operand {k} of '{}' ('${}') is a {}, but the {} must be a {}",
                        inst.name,
                        m.name,
                        if m.is_def { "definition" } else { "use" },
                        if is_src { "copy's source" } else { "register" },
                        if want_def { "definition" } else { "use" },
                    ),
                );
                return None;
            }
        }
        Some(Template {
            opcode,
            operands: ops,
        })
    }

    /// A dag field of def `t`, or `None` when it is `(ops)` or unset.
    fn dag_field(&mut self, t: RecId, field: &str) -> Option<crate::records::value::Dag> {
        match self.f.value(t, field) {
            Some(Init::Dag(g)) => {
                let none =
                    matches!(&g.op, Init::Def(o) if self.f.name(*o) == "ops") && g.args.is_empty();
                (!none).then(|| (**g).clone())
            }
            None | Some(Init::Unset) => None,
            _ => {
                self.err(
                    self.f.loc(t),
                    format!("{field} of '{}' must be a dag", self.f.name(t)),
                );
                None
            }
        }
    }

    /// The class a def's `Class` field names, or an error.
    fn class_of(&mut self, t: RecId, kind: &str) -> Option<usize> {
        let span = self.f.loc(t);
        let Some(cd) = self.f.opt_def(t, "Class") else {
            self.err(
                span,
                format!(
                    "{kind} '{}' needs Class to be a register class",
                    self.f.name(t)
                ),
            );
            return None;
        };
        let c = self.classes.list.iter().position(|c| c.def == Some(cd));
        if c.is_none() {
            self.err(
                span,
                format!(
                    "spill templates for '{}', which is not a register class",
                    self.f.name(cd)
                ),
            );
        }
        c
    }

    /// The largest spill alignment of class `c` over the HW modes, in bytes.
    fn max_spill_align(&self, c: usize) -> i64 {
        self.classes.list[c]
            .sizes
            .iter()
            .map(|s| s.2 / 8)
            .max()
            .unwrap_or(0)
    }

    /// Why an `Unaligned*` form of class `c` could never be used, if so.
    fn unaligned_unused(&self, c: usize) -> Option<String> {
        let r = self.reserved;
        let name = &self.classes.list[c].name;
        if !r.spill_realign_needs_frame_pointer {
            return Some(
                "the target's ReservedRegisters does not set SpillRealignNeedsFramePointer, so every spill slot gets its class's alignment"
                    .to_string(),
            );
        }
        let align = self.max_spill_align(c);
        (align <= i64::from(r.stack_alignment)).then(|| {
            format!(
                "the spill alignment of '{name}' ({align} bytes) does not exceed the stack alignment ({} bytes)",
                r.stack_alignment
            )
        })
    }

    /// Reads one `SpillTemplates` def of class `c`.
    fn own_def(&mut self, t: RecId, c: usize) -> Option<OwnDef> {
        let span = self.f.loc(t);
        let cname = self.classes.list[c].name.clone();
        let mut bits = Vec::new();
        {
            for i in self.f.list(t, "Features").iter() {
                match i {
                    Init::Def(d) if self.features.bit_of_def(*d).is_some() => {
                        bits.extend(self.features.bit_of_def(*d));
                    }
                    _ => {
                        self.err(
                            span,
                            format!("Features of the templates of '{cname}' must list SubtargetFeature defs"),
                        );
                        return None;
                    }
                }
            }
        }
        let features = self.features.closure(bits);
        let stack_id = self.f.string(t, "StackID");
        if !STACK_IDS.contains(&stack_id.as_str()) {
            self.err(
                span,
                format!(
                    "StackID of the templates of '{cname}' is '{stack_id}'; MIR knows {}",
                    STACK_IDS.join(", ")
                ),
            );
            return None;
        }
        let mut kinds: [Option<Template>; 5] = Default::default();
        let fields = [
            ("Spill", What::Spill),
            ("Reload", What::Reload),
            ("Copy", What::Copy),
            ("UnalignedSpill", What::Spill),
            ("UnalignedReload", What::Reload),
        ];
        for (k, (field, what)) in fields.into_iter().enumerate() {
            if let Some(g) = self.dag_field(t, field) {
                kinds[k] = Some(self.template(span, what, c, &g)?);
            }
        }
        let [spill, reload, copy, uspill, ureload] = kinds;
        if spill.is_some() != reload.is_some() {
            let (has, lacks) = if spill.is_some() {
                ("Spill", "Reload")
            } else {
                ("Reload", "Spill")
            };
            self.err(
                span,
                format!(
                    "the templates of '{cname}' give {has} without {lacks}; give both or neither"
                ),
            );
            return None;
        }
        for (given, base, field) in [
            (&uspill, &spill, "UnalignedSpill"),
            (&ureload, &reload, "UnalignedReload"),
        ] {
            if given.is_none() {
                continue;
            }
            if base.is_none() {
                self.err(
                    span,
                    format!("the templates of '{cname}' give {field} without the aligned form"),
                );
                return None;
            }
            if let Some(why) = self.unaligned_unused(c) {
                self.err(
                    span,
                    format!("{field} of '{cname}' would never be used: {why}"),
                );
                return None;
            }
        }
        Some(OwnDef {
            span,
            features,
            spill: spill.map(|s| (s, uspill)),
            reload: reload.map(|r| (r, ureload)),
            copy,
            stack_id,
        })
    }

    /// Checks the defs of one class against each other: distinct feature
    /// sets ordered by inclusion, one stack id, no `CannotSpill` beside
    /// spill templates.
    fn check_class(&mut self, c: usize, own: &Own) {
        let cname = self.classes.list[c].name.clone();
        for (k, d) in own.defs.iter().enumerate() {
            for e in &own.defs[..k] {
                let (a, b) = (&d.features, &e.features);
                let both = a.intersection(b);
                if a == b {
                    let what = if a.is_empty() {
                        String::new()
                    } else {
                        format!(" for features [{}]", self.features.names(a).join(", "))
                    };
                    let dg = Diagnostic::error(
                        Kind::Semantic,
                        d.span,
                        format!("register class '{cname}' has spill templates twice{what}"),
                    )
                    .with_secondary(e.span, "first given here");
                    self.diags.push(dg);
                } else if both != *a && both != *b {
                    let dg = Diagnostic::error(
                        Kind::Semantic,
                        d.span,
                        format!(
                            "the templates of '{cname}' for features [{}] and [{}] overlap: a function with both would match either",
                            self.features.names(b).join(", "),
                            self.features.names(a).join(", ")
                        ),
                    )
                    .with_secondary(e.span, "the other def")
                    .with_help("list one def's features in the other, so that one contains the other");
                    self.diags.push(dg);
                }
                if d.spill.is_some() && e.spill.is_some() && d.stack_id != e.stack_id {
                    self.err(
                        d.span,
                        format!(
                            "the spill templates of '{cname}' disagree on StackID ('{}' and '{}')",
                            e.stack_id, d.stack_id
                        ),
                    );
                }
            }
        }
        if let Some((_, span)) = &own.cannot
            && let Some(d) = own.defs.iter().find(|d| d.spill.is_some())
        {
            let dg = Diagnostic::error(
                Kind::Semantic,
                *span,
                format!("register class '{cname}' cannot be spilled, yet has spill templates"),
            )
            .with_secondary(d.span, "spill templates given here");
            self.diags.push(dg);
        }
    }
}

/// The choices of one kind from a class's own defs, most specific first.
fn choices(
    own: &Own,
    pick: impl Fn(&OwnDef) -> Option<(Template, Option<Template>)>,
) -> Vec<Choice> {
    let mut v: Vec<Choice> = own
        .defs
        .iter()
        .filter_map(|d| {
            pick(d).map(|(template, unaligned)| Choice {
                features: d.features.clone(),
                template,
                unaligned,
            })
        })
        .collect();
    v.sort_by_key(|c| std::cmp::Reverse(c.features.len()));
    v
}

/// Reads every `SpillTemplates` and `CannotSpill` def and resolves each
/// class's templates.
pub fn build(
    f: &Fields<'_>,
    bank: &RegBank,
    classes: &Classes,
    instrs: &Instrs,
    features: &Features,
    reserved: &Reserved,
) -> Result<Templates, Vec<Diagnostic>> {
    let mut r = Reader {
        f,
        bank,
        classes,
        instrs,
        features,
        reserved,
        diags: Vec::new(),
    };
    let nc = classes.list.len();
    let mut own: Vec<Own> = (0..nc).map(|_| Own::default()).collect();
    for t in f.rk.derived_defs("SpillTemplates") {
        let Some(c) = r.class_of(t, "SpillTemplates") else {
            continue;
        };
        if let Some(d) = r.own_def(t, c) {
            own[c].defs.push(d);
        }
    }
    for t in f.rk.derived_defs("CannotSpill") {
        let Some(c) = r.class_of(t, "CannotSpill") else {
            continue;
        };
        let span = f.loc(t);
        let reason = f.string(t, "Reason");
        let cname = &classes.list[c].name;
        if reason.trim().is_empty() {
            r.err(
                span,
                format!("CannotSpill for '{cname}' must say why (its Reason is empty)"),
            );
        } else if let Some((_, first)) = &own[c].cannot {
            let dg = Diagnostic::error(
                Kind::Semantic,
                span,
                format!("register class '{cname}' is declared unspillable twice"),
            )
            .with_secondary(*first, "first declared here");
            r.diags.push(dg);
        } else {
            own[c].cannot = Some((reason, span));
        }
    }
    for (c, o) in own.iter().enumerate() {
        r.check_class(c, o);
    }
    if !r.diags.is_empty() {
        return Err(r.diags);
    }
    let per_class = (0..nc)
        .map(|c| {
            // The class itself, then its super-classes, nearest first:
            // those of the same spill size and alignment (a class's
            // registers are sub-classes of every wider class holding
            // them, as in LLVM: x86's VR128 is a sub-class of FR16X, but
            // its spill code is VR128X's), then by fewest registers.
            let size = |k: usize| classes.list[k].sizes.first().map(|s| (s.1, s.2));
            let mut order: Vec<usize> = classes.list[c]
                .super_classes
                .iter()
                .copied()
                .filter(|&s| s != c)
                .collect();
            order.sort_by_key(|&s| (size(s) != size(c), classes.list[s].members.len(), s));
            order.insert(0, c);
            let mut ct = ClassTemplates {
                stack_id: "default".to_string(),
                ..Default::default()
            };
            // A class's own word first; then the nearest super-class with
            // templates, and only failing that a super-class's reason: a
            // sub-class whose registers a spillable class holds is
            // spillable (AArch64's FIXED_REGS cannot be spilled, but its
            // sub-class holding only FP is a GPR64all class).
            let with_templates = |s: &usize| own[*s].defs.iter().any(|d| d.spill.is_some());
            let source = if own[c].gives_spill() {
                Some(c)
            } else {
                order
                    .iter()
                    .copied()
                    .find(with_templates)
                    .or_else(|| order.iter().copied().find(|&s| own[s].cannot.is_some()))
            };
            if let Some(s) = source {
                ct.from = Some(s);
                if let Some((why, _)) = &own[s].cannot {
                    ct.cannot_spill = Some(why.clone());
                } else {
                    ct.spill = choices(&own[s], |d| d.spill.clone());
                    ct.reload = choices(&own[s], |d| d.reload.clone());
                    if let Some(d) = own[s].defs.iter().find(|d| d.spill.is_some()) {
                        ct.stack_id = d.stack_id.clone();
                    }
                }
            }
            if let Some(&s) = order.iter().find(|&&s| own[s].gives_copy()) {
                ct.from = ct.from.or(Some(s));
                ct.copy = choices(&own[s], |d| d.copy.clone().map(|t| (t, None)));
            }
            ct
        })
        .collect();
    let mut per_class: Vec<ClassTemplates> = per_class;
    for (c, ct) in per_class.iter_mut().enumerate() {
        if let Some(why) = unusable(classes, instrs, c, ct) {
            ct.cannot_spill = Some(why);
            ct.spill.clear();
            ct.reload.clear();
        }
    }
    Ok(Templates { per_class })
}

/// Why class `c` cannot use its (inherited) spill or reload templates, if
/// it cannot: every choice of one kind names an instruction whose register
/// operand takes none of the class's registers. (LLVM 19 spills the tuples
/// of four SVE vectors that start at an odd register with STR_ZZZZXI,
/// whose operand takes only ZPR4StridedOrContiguous tuples; its verifier
/// rejects the result.)
fn unusable(classes: &Classes, instrs: &Instrs, c: usize, ct: &ClassTemplates) -> Option<String> {
    let cl = &classes.list[c];
    let excluding = |t: &Template| {
        t.operands.iter().enumerate().find_map(|(k, o)| {
            let op = instrs.list[t.opcode].operands.get(k)?;
            let r = op.class.filter(|_| *o == TplOp::Reg)?;
            let holds_none = !cl.members.iter().any(|&m| classes.list[r].contains(m));
            holds_none.then(|| {
                format!(
                    "LLVM 19 spills it with {}, whose operand '${}' takes only {} registers, and the class has none (llc-19's verifier rejects the result)",
                    instrs.list[t.opcode].name, op.name, classes.list[r].name
                )
            })
        })
    };
    [&ct.spill, &ct.reload].into_iter().find_map(|choices| {
        let reasons: Vec<String> = choices
            .iter()
            .flat_map(|ch| std::iter::once(&ch.template).chain(&ch.unaligned))
            .map(&excluding)
            .collect::<Option<Vec<_>>>()?;
        reasons.into_iter().next()
    })
}

#[cfg(test)]
mod tests {
    use super::{Choice, TplOp};
    use crate::target::TargetModel;

    const HEAD: &str = r#"
include "regalloc.td"
def lo : SubRegIndex<16>; def hi : SubRegIndex<16, 16>;
def R0 : Register<"r0">; def R1 : Register<"r1">; def R2 : Register<"r2">;
let SubRegIndices = [lo, hi] in
def P0 : RegisterWithSubRegs<"p0", [R0, R1]>;
def GPR : RegisterClass<"T", [i32], 32, (add R0, R1, R2)>;
def LOW : RegisterClass<"T", [i32], 32, (add R0, R1)>;
def PAIR : RegisterClass<"T", [i64], 32, (add P0)>;
def WIDE : RegisterClass<"T", [v4i32], 128, (add R2)>;
def imm : Operand<i32>;
def mem : Operand<i32> { let MIOperandInfo = (ops GPR:$base, imm:$off); }
def ST : Instruction { let OutOperandList = (outs); let InOperandList = (ins GPR:$v, mem:$a); }
def LD : Instruction { let OutOperandList = (outs GPR:$v); let InOperandList = (ins mem:$a); }
def STW : Instruction { let OutOperandList = (outs); let InOperandList = (ins WIDE:$v, mem:$a); }
def LDW : Instruction { let OutOperandList = (outs WIDE:$v); let InOperandList = (ins mem:$a); }
def STP : Instruction { let OutOperandList = (outs); let InOperandList = (ins GPR:$a, GPR:$b, mem:$m); }
def LDP : Instruction { let OutOperandList = (outs GPR:$a, GPR:$b); let InOperandList = (ins mem:$m); }
def MOV : Instruction { let OutOperandList = (outs GPR:$d); let InOperandList = (ins GPR:$s); }
def FV : SubtargetFeature<"v", "HasV", "true", "vectors">;
def FW : SubtargetFeature<"w", "HasW", "true", "wide vectors", [FV]>;
def FX : SubtargetFeature<"x", "HasX", "true", "other">;
"#;

    crate::target::test_machine!(HEAD);

    fn class(m: &TargetModel, name: &str) -> usize {
        m.classes.list.iter().position(|c| c.name == name).unwrap()
    }

    #[test]
    fn templates_are_inherited_from_the_nearest_super_class() {
        let m = model(
            r#"
def : SpillTemplates<GPR> {
  let Spill = (ST TplReg, TplSlot, 0);
  let Reload = (LD TplReg, TplSlot, 0);
  let Copy = (MOV TplReg, TplSrc);
}
"#,
        )
        .unwrap();
        let (low, gpr) = (class(&m, "LOW"), class(&m, "GPR"));
        let t = &m.templates.per_class[low];
        assert_eq!(t.from, Some(gpr));
        assert_eq!(t.spill, m.templates.per_class[gpr].spill);
        assert_eq!(
            t.spill[0].template.operands,
            [TplOp::Reg, TplOp::Slot, TplOp::Imm(0)]
        );
        assert!(t.spill[0].features.is_empty());
        assert!(t.copy.len() == 1 && t.reload.len() == 1);
        assert_eq!(t.stack_id, "default");
    }

    #[test]
    fn feature_variants_are_ordered_most_specific_first() {
        let m = model(
            r#"
def : SpillTemplates<GPR> { let Spill = (ST TplReg, TplSlot, 0); let Reload = (LD TplReg, TplSlot, 0); }
def : SpillTemplates<GPR> { let Features = [FW];
  let Spill = (ST TplReg, TplSlot, 2); let Reload = (LD TplReg, TplSlot, 2); }
def : SpillTemplates<GPR> { let Features = [FV];
  let Spill = (ST TplReg, TplSlot, 1); let Reload = (LD TplReg, TplSlot, 1); }
"#,
        )
        .unwrap();
        let t = &m.templates.per_class[class(&m, "GPR")];
        let offsets: Vec<(Vec<usize>, TplOp)> = t
            .spill
            .iter()
            .map(|c: &Choice| (c.features.iter().collect(), c.template.operands[2]))
            .collect();
        // w implies v: [w] is {v, w} (v is bit 0, w bit 1).
        assert_eq!(
            offsets,
            [
                (vec![0, 1], TplOp::Imm(2)),
                (vec![0], TplOp::Imm(1)),
                (vec![], TplOp::Imm(0))
            ]
        );
    }

    #[test]
    fn pieces_must_cover_the_register() {
        let m = model(
            r#"
def : SpillTemplates<PAIR> {
  let Spill = (STP (TplReg lo), (TplReg hi), TplSlot, 0);
  let Reload = (LDP (TplReg lo), (TplReg hi), TplSlot, 0);
}
"#,
        )
        .unwrap();
        let t = &m.templates.per_class[class(&m, "PAIR")];
        assert!(matches!(t.reload[0].template.operands[0], TplOp::RegSub(_)));
        let e = err(
            "def : SpillTemplates<PAIR> { let Spill = (STP (TplReg lo), (TplReg lo), TplSlot, 0);
             let Reload = (LDP (TplReg lo), (TplReg hi), TplSlot, 0); }",
        );
        assert!(
            e.contains("spill template of class 'PAIR': sub-register 'lo' overlaps another piece"),
            "{e}"
        );
        let e = err(
            "def : SpillTemplates<PAIR> { let Spill = (ST (TplReg lo), TplSlot, 0);
             let Reload = (LD (TplReg lo), TplSlot, 0); }",
        );
        assert!(
            e.contains("the pieces do not cover the registers of 'PAIR'"),
            "{e}"
        );
        let e = err(
            "def : SpillTemplates<GPR> { let Spill = (ST (TplReg lo), TplSlot, 0);
             let Reload = (LD TplReg, TplSlot, 0); }",
        );
        assert!(
            e.contains("not every register of 'GPR' has sub-register 'lo'"),
            "{e}"
        );
        let e = err(
            "def : SpillTemplates<GPR> { let Spill = (ST (TplSlot lo), TplSlot, 0);
             let Reload = (LD TplReg, TplSlot, 0); }",
        );
        assert!(
            e.contains("a dag operand must be (TplReg idx) or (TplSrc idx)"),
            "{e}"
        );
    }

    #[test]
    fn bad_templates_are_errors() {
        let e = err(
            "def : SpillTemplates<GPR> { let Spill = (ST TplReg, TplSlot); let Reload = (LD TplReg, TplSlot, 0); }",
        );
        assert!(
            e.contains("has 3 machine operands, the template gives 2"),
            "{e}"
        );
        let e = err(
            "def : SpillTemplates<GPR> { let Spill = (GPR TplReg, TplSlot, 0); let Reload = (LD TplReg, TplSlot, 0); }",
        );
        assert!(e.contains("'GPR' is not an instruction"), "{e}");
        let e = err("def : SpillTemplates<GPR> { let Copy = (MOV TplReg, TplReg); }");
        assert!(e.contains("must use TplReg once"), "{e}");
        let e = err(
            "def : SpillTemplates<GPR> { let Spill = (ST 0, TplSlot, TplReg); let Reload = (LD TplReg, TplSlot, 0); }",
        );
        assert!(e.contains("is not a register operand"), "{e}");
        let e = err(
            "def : SpillTemplates<GPR> { let Spill = (LD TplReg, TplSlot, 0); let Reload = (LD TplReg, TplSlot, 0); }",
        );
        assert!(
            e.contains("spill template of class 'GPR': operand 0 of 'LD' ('$v') is a definition, but the register must be a use"),
            "{e}"
        );
        let e = err("def : SpillTemplates<GPR> { let Spill = (ST TplReg, TplSlot, 0); }");
        assert!(
            e.contains("give Spill without Reload; give both or neither"),
            "{e}"
        );
        let e = err(
            "def : SpillTemplates<GPR> { let StackID = \"vector\"; let Spill = (ST TplReg, TplSlot, 0); let Reload = (LD TplReg, TplSlot, 0); }",
        );
        assert!(e.contains("StackID of the templates of 'GPR' is 'vector'; MIR knows default, sgpr-spill, scalable-vector"), "{e}");
    }

    #[test]
    fn defs_of_one_class_must_be_distinct_and_nested() {
        let base = "let Spill = (ST TplReg, TplSlot, 0); let Reload = (LD TplReg, TplSlot, 0);";
        let e = err(&format!(
            "def : SpillTemplates<GPR> {{ {base} }}\ndef : SpillTemplates<GPR> {{ {base} }}"
        ));
        assert!(
            e.contains("register class 'GPR' has spill templates twice"),
            "{e}"
        );
        assert!(e.contains("first given here"), "{e}");
        let e = err(&format!(
            "def : SpillTemplates<GPR> {{ let Features = [FV]; {base} }}\n\
             def : SpillTemplates<GPR> {{ let Features = [FX]; {base} }}"
        ));
        assert!(
            e.contains("the templates of 'GPR' for features [v] and [x] overlap: a function with both would match either"),
            "{e}"
        );
        let e = err(&format!(
            "def : SpillTemplates<GPR> {{ let StackID = \"scalable-vector\"; {base} }}\n\
             def : SpillTemplates<GPR> {{ let Features = [FV]; {base} }}"
        ));
        assert!(
            e.contains("disagree on StackID ('scalable-vector' and 'default')"),
            "{e}"
        );
    }

    #[test]
    fn an_overlap_is_reported_at_both_defs() {
        // Exact text: the error at the second def, the first as the other.
        let e = err("def : SpillTemplates<GPR> { let Features = [FV];\n\
             let Spill = (ST TplReg, TplSlot, 0); let Reload = (LD TplReg, TplSlot, 0); }\n\
             def : SpillTemplates<GPR> { let Features = [FX];\n\
             let Spill = (ST TplReg, TplSlot, 0); let Reload = (LD TplReg, TplSlot, 0); }");
        let first = HEAD.lines().count() + 1;
        let want = format!(
            "error: the templates of 'GPR' for features [v] and [x] overlap: a function with both would match either\n   \
             ┌─ t.td:{}:1\n",
            first + 2
        );
        assert!(e.starts_with(&want), "{e}");
        assert!(e.contains("' the other def\n"), "{e}");
        assert!(
            e.ends_with(
                "= help: list one def's features in the other, so that one contains the other\n\n"
            ),
            "{e:?}"
        );
    }

    #[test]
    fn unaligned_forms_must_be_reachable() {
        let wide = "let Spill = (STW TplReg, TplSlot, 0); let Reload = (LDW TplReg, TplSlot, 0);
                    let UnalignedSpill = (STW TplReg, TplSlot, 1);";
        let e = err(&format!("def : SpillTemplates<WIDE> {{ {wide} }}"));
        assert!(
            e.contains("UnalignedSpill of 'WIDE' would never be used: the target's ReservedRegisters does not set SpillRealignNeedsFramePointer"),
            "{e}"
        );
        let rr = |a: u32| {
            format!(
                "def : ReservedRegisters {{ let StackAlignment = {a}; let SpillRealignNeedsFramePointer = true; }}"
            )
        };
        let e = err(&format!(
            "{}\ndef : SpillTemplates<WIDE> {{ {wide} }}",
            rr(16)
        ));
        assert!(
            e.contains("the spill alignment of 'WIDE' (16 bytes) does not exceed the stack alignment (16 bytes)"),
            "{e}"
        );
        let m = model(&format!(
            "{}\ndef : SpillTemplates<WIDE> {{ {wide} }}",
            rr(8)
        ))
        .unwrap();
        let t = &m.templates.per_class[class(&m, "WIDE")];
        assert!(t.spill[0].unaligned.is_some() && t.reload[0].unaligned.is_none());
    }

    #[test]
    fn cannot_spill_is_inherited_and_exclusive() {
        let m = model("def : CannotSpill<GPR, \"no store reaches it\">;").unwrap();
        let low = class(&m, "LOW");
        assert_eq!(
            m.templates.per_class[low].cannot_spill.as_deref(),
            Some("no store reaches it")
        );
        let e = err("def : CannotSpill<GPR, \"why\">;\n\
             def : SpillTemplates<GPR> { let Spill = (ST TplReg, TplSlot, 0); let Reload = (LD TplReg, TplSlot, 0); }");
        assert!(
            e.contains("register class 'GPR' cannot be spilled, yet has spill templates"),
            "{e}"
        );
        // A super-class with templates beats a nearer one's reason.
        let m = model(
            "def : CannotSpill<LOW, \"no store reaches it\">;\n\
             def ONE : RegisterClass<\"T\", [i32], 32, (add R0)>;\n\
             def : SpillTemplates<GPR> { let Spill = (ST TplReg, TplSlot, 0); let Reload = (LD TplReg, TplSlot, 0); }",
        )
        .unwrap();
        let one = &m.templates.per_class[class(&m, "ONE")];
        assert_eq!(one.cannot_spill, None);
        assert_eq!(one.from, Some(class(&m, "GPR")));
        let e = err("def : CannotSpill<GPR, \"\">;");
        assert!(e.contains("CannotSpill for 'GPR' must say why"), "{e}");
    }
}
