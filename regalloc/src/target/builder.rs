//! `TargetBuilder`: builds an owned `TargetInfo` from a flat description, computing the derived tables (units, super-registers, class sets, masks).
//!
//! tdgen computes these facts itself from a `.td` file; this builder is for
//! hand-written tables (test fixtures, small experiments) where deriving them
//! by hand would be error-prone. Its rules are the simple ones: a register
//! without sub-registers gets one new unit, a register with sub-registers
//! has exactly the union of their units.

use std::borrow::Cow;

use super::bits;
use super::branches::{CommuteRuleDesc, ConditionalBranchDesc};
use super::classes::{AllocOrderPolicy, CalleeSavedDesc, RegClassDesc};
use super::ids::{
    CalleeSavedSet, FeatureSet, LaneMask, Opcode, Reg, RegClass, RegUnit, SubRegIndex,
};
use super::info::TargetInfo;
use super::instrs::{InstrDesc, InstrTemplate, MemoryFoldDesc, TemplateChoice, ThreeAddressDesc};
use super::regs::{RegFlags, RegUnitDesc, RegisterDesc, SubRegIndexDesc};

/// A register class as the builder takes it.
#[derive(Clone, Debug)]
pub struct ClassSpec {
    /// Class name.
    pub name: String,
    /// Members, in allocation order.
    pub members: Vec<Reg>,
    /// Register size in bits; spill size is this in bytes, as is alignment.
    pub reg_size: u32,
    /// `CopyCost`.
    pub copy_cost: i32,
    /// Whether allocatable.
    pub allocatable: bool,
    /// Store, load and copy templates (for every subtarget).
    pub spill: Option<InstrTemplate<'static>>,
    /// See `spill`.
    pub reload: Option<InstrTemplate<'static>>,
    /// See `spill`.
    pub copy: Option<InstrTemplate<'static>>,
}

/// A register as the builder takes it: name, encoding, direct sub-registers.
type RegSpec = (String, u16, Vec<(SubRegIndex, Reg)>);

/// Collects a target's primary facts; [`TargetBuilder::build`] derives the rest.
#[derive(Clone, Debug, Default)]
pub struct TargetBuilder {
    name: String,
    regs: Vec<RegSpec>,
    sub_regs: Vec<(String, u16, u16)>,
    classes: Vec<ClassSpec>,
    callee_saved: Vec<(String, Vec<Reg>)>,
    reserved: Vec<Reg>,
    frame_pointer: Vec<Reg>,
    frame_pointer_in_non_leaf: bool,
    stack_alignment: u32,
    base_pointer: Vec<Reg>,
    base_pointer_frame_size: u32,
    instrs: Vec<InstrDesc<'static>>,
    memory_folds: Vec<MemoryFoldDesc<'static>>,
    unconditional_branch: Option<Opcode>,
    conditional_branches: Vec<ConditionalBranchDesc>,
    commute_rules: Vec<CommuteRuleDesc>,
    jump_table_branches: Vec<Opcode>,
    three_address_forms: Vec<ThreeAddressDesc<'static>>,
}

impl TargetBuilder {
    /// A builder for a target called `name`.
    pub fn new(name: &str) -> Self {
        TargetBuilder {
            name: name.to_string(),
            ..Default::default()
        }
    }

    /// Adds a sub-register index of `size` bits at bit `offset`.
    pub fn sub_reg_index(&mut self, name: &str, size: u16, offset: u16) -> SubRegIndex {
        self.sub_regs.push((name.to_string(), size, offset));
        SubRegIndex::new(self.sub_regs.len() - 1)
    }

    /// Adds a register with its direct sub-registers (which must exist).
    pub fn reg(&mut self, name: &str, encoding: u16, subs: &[(SubRegIndex, Reg)]) -> Reg {
        let mut subs = subs.to_vec();
        subs.sort();
        self.regs.push((name.to_string(), encoding, subs));
        Reg::new(self.regs.len() - 1)
    }

    /// Adds a register class.
    pub fn class(&mut self, spec: ClassSpec) -> RegClass {
        self.classes.push(spec);
        RegClass::new(self.classes.len() - 1)
    }

    /// Adds a callee-saved set.
    pub fn callee_saved(&mut self, name: &str, saves: &[Reg]) -> CalleeSavedSet {
        self.callee_saved.push((name.to_string(), saves.to_vec()));
        CalleeSavedSet::new(self.callee_saved.len() - 1)
    }

    /// Names the direct unconditional branch (an instruction added before).
    pub fn unconditional_branch(&mut self, op: Opcode) {
        self.unconditional_branch = Some(op);
    }

    /// Names an indirect branch through a jump table whose edges are split
    /// by rewriting the table.
    pub fn jump_table_branch(&mut self, op: Opcode) {
        self.jump_table_branches.push(op);
    }

    /// Says what commuting an instruction does beyond swapping its first
    /// two uses.
    pub fn commute_rule(&mut self, rule: CommuteRuleDesc) {
        self.commute_rules.push(rule);
    }

    /// Adds a three-address form (forms of one instruction are tried in
    /// the order added).
    pub fn three_address_form(&mut self, form: ThreeAddressDesc<'static>) {
        self.three_address_forms.push(form);
    }

    /// Adds a conditional branch the branch analysis understands.
    pub fn conditional_branch(&mut self, branch: ConditionalBranchDesc) {
        self.conditional_branches.push(branch);
    }

    /// Reserves `r` in every function. Like the `.td` description, the
    /// built tables reserve every register overlapping `r` too.
    pub fn reserve(&mut self, r: Reg) {
        self.reserved.push(r);
    }

    /// Names the frame-pointer registers, reserved in functions that keep a
    /// frame pointer (every function with calls when `in_non_leaf`).
    pub fn frame_pointer(&mut self, regs: &[Reg], in_non_leaf: bool) {
        self.frame_pointer.extend_from_slice(regs);
        self.frame_pointer_in_non_leaf = in_non_leaf;
    }

    /// Sets the stack alignment in bytes the calling convention guarantees:
    /// a function whose frame asks for more realigns its stack, so keeps a
    /// frame pointer (0, the default: never).
    pub fn stack_alignment(&mut self, bytes: u32) {
        self.stack_alignment = bytes;
    }

    /// Names the base-pointer registers, reserved in functions with
    /// variable-sized objects (or an opaque stack-pointer adjustment) whose
    /// stack is realigned or whose local frame is at least `frame_size`
    /// bytes (0: realignment only). Overlapping registers are reserved too.
    pub fn base_pointer(&mut self, regs: &[Reg], frame_size: u32) {
        self.base_pointer.extend_from_slice(regs);
        self.base_pointer_frame_size = frame_size;
    }

    /// Adds an instruction.
    pub fn instr(&mut self, d: InstrDesc<'static>) -> Opcode {
        self.instrs.push(d);
        Opcode::new(self.instrs.len() - 1)
    }

    /// Adds a memory-operand fold (in any order; [`TargetBuilder::build`]
    /// sorts them).
    pub fn memory_fold(&mut self, f: MemoryFoldDesc<'static>) {
        self.memory_folds.push(f);
    }

    /// Derives units, super-registers, lane masks, compositions, class sets
    /// and masks, and returns the tables.
    pub fn build(self) -> TargetInfo<'static> {
        let layout = self.register_layout();
        let regs = self.register_descs(&layout);
        let classes = self.class_descs(&layout);
        let callee_saved = self.callee_saved_descs(&layout);
        let sub_reg_indices = self.sub_reg_index_descs();
        let reserved = overlapping(&regs, &self.reserved);
        let untracked = vec![0; reserved.len()];
        let frame_pointer = overlapping(&regs, &self.frame_pointer);
        let base_pointer = overlapping(&regs, &self.base_pointer);
        let mut memory_folds = self.memory_folds;
        memory_folds.sort_by_key(|f| (f.reg_form, f.operand, f.also));
        let mut conditional_branches = self.conditional_branches;
        conditional_branches.sort_by_key(|c| c.branch);
        let mut commute_rules = self.commute_rules;
        commute_rules.sort_by_key(|c| c.instr);
        let mut three_address_forms = self.three_address_forms;
        three_address_forms.sort_by_key(|f| f.two_address);
        let mut jump_table_branches = self.jump_table_branches;
        jump_table_branches.sort_unstable();
        jump_table_branches.dedup();
        TargetInfo {
            name: Cow::Owned(self.name),
            regs: Cow::Owned(regs),
            units: Cow::Owned(layout.unit_roots),
            sub_reg_indices: Cow::Owned(sub_reg_indices),
            sub_reg_compose: Cow::Owned(layout.compose),
            classes: Cow::Owned(classes),
            callee_saved: Cow::Owned(callee_saved),
            reserved,
            frame_pointer,
            frame_pointer_in_non_leaf: self.frame_pointer_in_non_leaf,
            stack_alignment: self.stack_alignment,
            base_pointer,
            base_pointer_frame_size: self.base_pointer_frame_size,
            spill_realign_needs_frame_pointer: false,
            join_global_copies: false,
            tracks_sub_reg_liveness: false,
            reserved_without: Cow::Borrowed(&[]),
            // As wide as the reserved set, with nothing in it.
            untracked: Cow::Owned(untracked),
            features: Cow::Borrowed(&[]),
            hw_modes: Cow::Borrowed(&[]),
            instrs: Cow::Owned(self.instrs),
            memory_folds: Cow::Owned(memory_folds),
            unconditional_branch: self.unconditional_branch,
            conditional_branches: Cow::Owned(conditional_branches),
            commute_rules: Cow::Owned(commute_rules),
            jump_table_branches: Cow::Owned(jump_table_branches),
            three_address_forms: Cow::Owned(three_address_forms),
        }
    }

    /// Each register's sub-registers and units, the units' roots, and the
    /// composition of sub-register indices.
    fn register_layout(&self) -> RegisterLayout {
        let nr = self.regs.len();
        let ni = self.sub_regs.len();
        // Registers are added after their sub-registers, so one pass in order
        // sees every sub-register's units complete. A register's sub-register
        // list is what was declared: list indirect ones too (with their
        // composite index) to make them visible.
        let mut subs: Vec<Vec<(SubRegIndex, Reg)>> = Vec::with_capacity(nr);
        let mut units: Vec<Vec<RegUnit>> = Vec::with_capacity(nr);
        let mut unit_roots: Vec<RegUnitDesc> = Vec::new();
        let mut compose = vec![None; ni * ni];
        for (k, (_, _, direct)) in self.regs.iter().enumerate() {
            let all = direct.clone();
            for &(a, s) in direct {
                for &(b, t) in &subs[s.index()] {
                    // Sub-register b of sub-register a: find the direct index naming t, if any.
                    // Only indices declared directly are composed; an
                    // undeclared composite has no index to record it under.
                    if let Some(&(c, _)) = direct.iter().find(|&&(_, r)| r == t) {
                        compose[a.index() * ni + b.index()] = Some(c);
                    }
                }
            }
            let mut u: Vec<RegUnit> = if direct.is_empty() {
                unit_roots.push(RegUnitDesc {
                    root: Reg::new(k),
                    root2: None,
                });
                vec![RegUnit::new(unit_roots.len() - 1)]
            } else {
                direct
                    .iter()
                    .flat_map(|&(_, s)| units[s.index()].clone())
                    .collect()
            };
            u.sort();
            u.dedup();
            subs.push(all);
            units.push(u);
        }
        RegisterLayout {
            subs,
            units,
            unit_roots,
            compose,
        }
    }

    /// The registers' descriptions: sub- and super-registers, units and
    /// the lanes of each unit.
    fn register_descs(&self, layout: &RegisterLayout) -> Vec<RegisterDesc<'static>> {
        let RegisterLayout { subs, units, .. } = layout;
        let mut supers: Vec<Vec<Reg>> = vec![Vec::new(); self.regs.len()];
        for (k, s) in subs.iter().enumerate() {
            for &(_, r) in s {
                supers[r.index()].push(Reg::new(k));
            }
        }
        self.regs
            .iter()
            .enumerate()
            .map(|(k, (name, enc, _))| {
                let unit_lanes = units[k]
                    .iter()
                    .map(|&u| {
                        subs[k]
                            .iter()
                            .filter(|&&(_, s)| units[s.index()].contains(&u))
                            .fold(LaneMask::NONE, |m, &(i, _)| LaneMask(m.0 | lane(i).0))
                    })
                    .map(|m| {
                        if m == LaneMask::NONE {
                            LaneMask::ALL
                        } else {
                            m
                        }
                    })
                    .collect::<Vec<_>>();
                RegisterDesc {
                    name: Cow::Owned(name.clone()),
                    encoding: *enc,
                    sub_regs: Cow::Owned(subs[k].clone()),
                    super_regs: Cow::Owned(supers[k].clone()),
                    units: Cow::Owned(units[k].clone()),
                    unit_lanes: Cow::Owned(unit_lanes),
                    cost_per_use: 0,
                    flags: RegFlags::NONE,
                }
            })
            .collect()
    }

    /// The classes' descriptions: members, sub- and super-classes, the
    /// classes reached through sub-register indices, lane masks.
    fn class_descs(&self, layout: &RegisterLayout) -> Vec<RegClassDesc<'static>> {
        let nr = self.regs.len();
        let member_bits: Vec<Vec<u32>> = self
            .classes
            .iter()
            .map(|c| bits::from_indices(nr, c.members.iter().map(|r| r.index())))
            .collect();
        let relations = ClassRelations {
            classes: &self.classes,
            member_bits: &member_bits,
            subs: &layout.subs,
            sub_reg_count: self.sub_regs.len(),
        };
        (0..self.classes.len())
            .map(|c| {
                let spec = &self.classes[c];
                let lane_mask = spec
                    .members
                    .iter()
                    .flat_map(|r| layout.subs[r.index()].iter().map(|&(i, _)| lane(i)))
                    .fold(LaneMask::NONE, |m, l| LaneMask(m.0 | l.0));
                RegClassDesc {
                    name: Cow::Owned(spec.name.clone()),
                    members: Cow::Owned(spec.members.clone()),
                    member_bits: Cow::Owned(member_bits[c].clone()),
                    orders: Cow::Owned(vec![Cow::Owned(spec.members.clone())]),
                    order_select: None,
                    order_policy: AllocOrderPolicy::CalleeSavedLast,
                    reg_size: spec.reg_size,
                    spill_size: spec.reg_size / 8,
                    spill_align: spec.reg_size / 8,
                    copy_cost: spec.copy_cost,
                    allocatable: spec.allocatable,
                    priority: 0,
                    lane_mask: if lane_mask == LaneMask::NONE {
                        LaneMask::ALL
                    } else {
                        lane_mask
                    },
                    sub_classes: Cow::Owned(relations.sub_classes(c)),
                    super_classes: Cow::Owned(relations.super_classes(c)),
                    sub_class_with_sub_reg: Cow::Owned(relations.sub_class_with_sub_reg(c)),
                    super_reg_classes: Cow::Owned(relations.super_reg_classes(c)),
                    mode_sizes: Cow::Borrowed(&[]),
                    spill: any_subtarget(&spec.spill),
                    reload: any_subtarget(&spec.reload),
                    copy: any_subtarget(&spec.copy),
                    spill_stack_id: Cow::Borrowed("default"),
                    cannot_spill: None,
                }
            })
            .collect()
    }

    /// The callee-saved sets, each with the mask of the registers it
    /// preserves (sub-registers of saved ones included).
    fn callee_saved_descs(&self, layout: &RegisterLayout) -> Vec<CalleeSavedDesc<'static>> {
        let nr = self.regs.len();
        self.callee_saved
            .iter()
            .map(|(name, saves)| {
                let preserved = saves.iter().flat_map(|&r| {
                    std::iter::once(r).chain(layout.subs[r.index()].iter().map(|&(_, s)| s))
                });
                CalleeSavedDesc {
                    name: Cow::Owned(name.clone()),
                    saves: Cow::Owned(saves.clone()),
                    mask: Cow::Owned(bits::from_indices(nr, preserved.map(|r| r.index()))),
                }
            })
            .collect()
    }

    /// The sub-register indices' descriptions, one lane each.
    fn sub_reg_index_descs(&self) -> Vec<SubRegIndexDesc<'static>> {
        self.sub_regs
            .iter()
            .enumerate()
            .map(|(i, (name, size, offset))| SubRegIndexDesc {
                name: Cow::Owned(name.clone()),
                size: Some(*size),
                offset: Some(*offset),
                lane_mask: lane(SubRegIndex::new(i)),
            })
            .collect()
    }
}

/// What [`TargetBuilder::build`] derives about the registers first.
struct RegisterLayout {
    /// Per register, its sub-registers (indirect ones included).
    subs: Vec<Vec<(SubRegIndex, Reg)>>,
    /// Per register, its units, sorted.
    units: Vec<Vec<RegUnit>>,
    /// Per unit, its root register.
    unit_roots: Vec<RegUnitDesc>,
    /// Per pair of sub-register indices, their composition.
    compose: Vec<Option<SubRegIndex>>,
}

/// The lane of sub-register index `i`: one lane per index, in index order.
fn lane(i: SubRegIndex) -> LaneMask {
    LaneMask(1u64 << (i.index() % 64))
}

/// How the classes relate: by members, and through sub-registers.
struct ClassRelations<'b> {
    classes: &'b [ClassSpec],
    /// Per class, its members as a bit set.
    member_bits: &'b [Vec<u32>],
    /// Per register, its sub-registers.
    subs: &'b [Vec<(SubRegIndex, Reg)>],
    sub_reg_count: usize,
}

impl ClassRelations<'_> {
    /// Sub-register `i` of `r`.
    fn sub_reg_of(&self, r: Reg, i: SubRegIndex) -> Option<Reg> {
        self.subs[r.index()]
            .iter()
            .find(|&&(j, _)| j == i)
            .map(|&(_, s)| s)
    }

    /// Whether every member of class `a` is a member of class `b`.
    fn is_sub(&self, a: usize, b: usize) -> bool {
        self.classes[a]
            .members
            .iter()
            .all(|r| bits::test(&self.member_bits[b], r.index()))
    }

    /// The classes contained in class `c`, as a bit set.
    fn sub_classes(&self, c: usize) -> Vec<u32> {
        let nc = self.classes.len();
        bits::from_indices(nc, (0..nc).filter(|&a| self.is_sub(a, c)))
    }

    /// The classes containing class `c`, as a bit set.
    fn super_classes(&self, c: usize) -> Vec<u32> {
        let nc = self.classes.len();
        bits::from_indices(nc, (0..nc).filter(|&b| self.is_sub(c, b)))
    }

    /// Per sub-register index, the largest non-empty sub-class of `c`
    /// whose members all have that sub-register.
    fn sub_class_with_sub_reg(&self, c: usize) -> Vec<Option<RegClass>> {
        let nc = self.classes.len();
        (0..self.sub_reg_count)
            .map(|i| {
                let i = SubRegIndex::new(i);
                (0..nc)
                    .filter(|&a| self.is_sub(a, c) && !self.classes[a].members.is_empty())
                    .filter(|&a| {
                        self.classes[a]
                            .members
                            .iter()
                            .all(|&r| self.sub_reg_of(r, i).is_some())
                    })
                    .max_by_key(|&a| (self.classes[a].members.len(), std::cmp::Reverse(a)))
                    .map(RegClass::new)
            })
            .collect()
    }

    /// Every (index, class) whose members' sub-registers at that index all
    /// lie in class `c`.
    fn super_reg_classes(&self, c: usize) -> Vec<(SubRegIndex, RegClass)> {
        let nc = self.classes.len();
        let mut out = Vec::new();
        for i in 0..self.sub_reg_count {
            let i = SubRegIndex::new(i);
            out.extend(
                (0..nc)
                    .filter(|&d| {
                        let m = &self.classes[d].members;
                        !m.is_empty()
                            && m.iter().all(|&r| {
                                self.sub_reg_of(r, i)
                                    .is_some_and(|s| bits::test(&self.member_bits[c], s.index()))
                            })
                    })
                    .map(|d| (i, RegClass::new(d))),
            );
        }
        out
    }
}

/// The registers overlapping any of `set`, as a bit set: reserving a
/// register reserves everything overlapping it.
fn overlapping(regs: &[RegisterDesc<'static>], set: &[Reg]) -> Cow<'static, [u32]> {
    let nr = regs.len();
    let hit: std::collections::BTreeSet<RegUnit> = set
        .iter()
        .flat_map(|r| regs[r.index()].units.iter().copied())
        .collect();
    let members = (0..nr).filter(|&k| regs[k].units.iter().any(|u| hit.contains(u)));
    Cow::Owned(bits::from_indices(nr, members))
}

/// A template as the one choice of its kind, for every subtarget.
fn any_subtarget(t: &Option<InstrTemplate<'static>>) -> Cow<'static, [TemplateChoice<'static>]> {
    Cow::Owned(
        t.iter()
            .map(|t| TemplateChoice {
                features: FeatureSet::NONE,
                template: t.clone(),
                unaligned: None,
            })
            .collect(),
    )
}
