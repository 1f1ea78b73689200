//! `TargetInfo`: the whole table set for one target, and the queries the allocator and the MIR reader make of it.

use std::borrow::Cow;

use super::bits;
use super::branches::{CommuteRuleDesc, ConditionalBranchDesc};
use super::classes::{CalleeSavedDesc, ClassSizes, FunctionInfo, RegClassDesc, ReservedWithout};
use super::ids::{CalleeSavedSet, FeatureSet, Opcode, Reg, RegClass, RegUnit, SubRegIndex};
use super::instrs::{
    FeatureDesc, HwModeDesc, InstrDesc, InstrTemplate, MemoryFoldDesc, TemplateOperand,
    ThreeAddressDesc, ThreeAddressOperand, choose,
};
use super::regs::{RegUnitDesc, RegisterDesc, SubRegIndexDesc};

/// Every table describing one target.
///
/// Generated code builds a `TargetInfo<'static>` from `static` arrays with
/// `Cow::Borrowed`; the run-time path (`tdgen::load`) and test fixtures build
/// one from `Vec`s with `Cow::Owned`. Both are the same type, so everything
/// downstream takes `&TargetInfo`.
#[derive(Clone, PartialEq, Debug)]
pub struct TargetInfo<'a> {
    /// Target name (`bpf`, `x86`, ...).
    pub name: Cow<'a, str>,
    /// Physical registers, indexed by [`Reg`].
    pub regs: Cow<'a, [RegisterDesc<'a>]>,
    /// Register units, indexed by [`RegUnit`].
    pub units: Cow<'a, [RegUnitDesc]>,
    /// Sub-register indices, indexed by [`SubRegIndex`].
    pub sub_reg_indices: Cow<'a, [SubRegIndexDesc<'a>]>,
    /// Composition of sub-register indices, row-major `n x n` where `n` is
    /// the number of indices: entry `a * n + b` is the index of sub-register
    /// `b` of sub-register `a` (LLVM's `composeSubRegIndices(a, b)`).
    pub sub_reg_compose: Cow<'a, [Option<SubRegIndex>]>,
    /// Register classes, indexed by [`RegClass`].
    pub classes: Cow<'a, [RegClassDesc<'a>]>,
    /// Callee-saved sets and their masks, indexed by [`CalleeSavedSet`].
    pub callee_saved: Cow<'a, [CalleeSavedDesc<'a>]>,
    /// Registers reserved in every function, as a bit set over registers
    /// (closed under overlap: every register sharing a unit with a reserved
    /// one is in the set).
    pub reserved: Cow<'a, [u32]>,
    /// Registers reserved in a function that keeps a frame pointer, as a bit
    /// set over registers (closed under overlap like `reserved`).
    pub frame_pointer: Cow<'a, [u32]>,
    /// Every function that makes calls keeps a frame pointer (AArch64's
    /// frame records); otherwise only functions that need one do.
    pub frame_pointer_in_non_leaf: bool,
    /// The stack alignment the calling convention guarantees, in bytes: a
    /// function whose frame asks for more realigns its stack, and so keeps
    /// a frame pointer. 0: the target never realigns.
    pub stack_alignment: u32,
    /// Registers reserved in a function that needs a base pointer, as a bit
    /// set over registers (closed under overlap like `reserved`).
    pub base_pointer: Cow<'a, [u32]>,
    /// With variable-sized objects, a local frame of at least this many
    /// bytes needs the base pointer too. 0: only a realigned stack does.
    pub base_pointer_frame_size: u32,
    /// A spill slot may ask for more than `stack_alignment` only in a
    /// function that keeps a frame pointer (and a base pointer if its
    /// stack pointer moves) from the start (x86); elsewhere it gets the
    /// stack's alignment and the unaligned spill forms are used.
    pub spill_realign_needs_frame_pointer: bool,
    /// The register coalescer holds back a copy whose registers live in
    /// one block until its walk leaves the copy's loop depth, and joins
    /// the copies that cross blocks first (LLVM's `enableJoinGlobalCopies`,
    /// a C++ hook there; the description's `PreAllocationPolicy` here).
    pub join_global_copies: bool,
    /// Liveness follows sub-register lanes: `detect-dead-lanes` runs, and
    /// the allocators' interference and rewriting follow lanes (LLVM's
    /// `enableSubRegLiveness`, a subtarget hook there; the description's
    /// `PreAllocationPolicy` here: our Hexagon alone).
    pub tracks_sub_reg_liveness: bool,
    /// Registers reserved in functions whose subtarget lacks some
    /// features (see [`TargetInfo::reserved_in`]).
    pub reserved_without: Cow<'a, [ReservedWithout<'a>]>,
    /// Registers data-flow analyses after allocation (RDF) leave untracked
    /// beyond the reserved ones, as a bit set over registers (closed under
    /// super-registers, not overlap): registers LLVM reports reserved that
    /// allocation need not know of. Allocation ignores this set.
    pub untracked: Cow<'a, [u32]>,
    /// Subtarget features, by bit of [`FeatureSet`].
    pub features: Cow<'a, [FeatureDesc<'a>]>,
    /// HW modes; index 0 is the default mode. Empty when the target has
    /// only the default mode.
    pub hw_modes: Cow<'a, [HwModeDesc<'a>]>,
    /// Target instructions, indexed by [`Opcode`].
    pub instrs: Cow<'a, [InstrDesc<'a>]>,
    /// Memory-operand folds, sorted by register form, operand and second
    /// operand.
    pub memory_folds: Cow<'a, [MemoryFoldDesc<'a>]>,
    /// The direct unconditional branch to a block (`JMP_1`, `B`), which a
    /// block made by splitting an edge ends with; `None` when the target
    /// names none (no edge is then split).
    pub unconditional_branch: Option<Opcode>,
    /// The conditional branches the target's branch analysis understands,
    /// sorted by opcode (see `target/branches.rs`).
    pub conditional_branches: Cow<'a, [ConditionalBranchDesc]>,
    /// What commuting an instruction does beyond swapping its first two
    /// uses, sorted by opcode (see `target/branches.rs`).
    pub commute_rules: Cow<'a, [CommuteRuleDesc]>,
    /// Indirect branches through a jump table whose edges are split by
    /// rewriting the table, sorted (see `target/branches.rs`).
    pub jump_table_branches: Cow<'a, [Opcode]>,
    /// What two-address instructions become when their tie would cost a
    /// copy, sorted by two-address opcode (an instruction's forms in the
    /// order the description gives them).
    pub three_address_forms: Cow<'a, [ThreeAddressDesc<'a>]>,
}

impl<'a> TargetInfo<'a> {
    /// The description of register `r`.
    #[inline]
    pub fn reg(&self, r: Reg) -> &RegisterDesc<'a> {
        &self.regs[r.index()]
    }

    /// The description of class `c`.
    #[inline]
    pub fn class(&self, c: RegClass) -> &RegClassDesc<'a> {
        &self.classes[c.index()]
    }

    /// The description of instruction `op`.
    #[inline]
    pub fn instr(&self, op: Opcode) -> &InstrDesc<'a> {
        &self.instrs[op.index()]
    }

    /// The description of sub-register index `i`.
    #[inline]
    pub fn sub_reg_index(&self, i: SubRegIndex) -> &SubRegIndexDesc<'a> {
        &self.sub_reg_indices[i.index()]
    }

    /// The description of callee-saved set `s`.
    #[inline]
    pub fn callee_saved_set(&self, s: CalleeSavedSet) -> &CalleeSavedDesc<'a> {
        &self.callee_saved[s.index()]
    }

    /// Number of physical registers.
    #[inline]
    pub fn num_regs(&self) -> usize {
        self.regs.len()
    }

    /// The register units of `r`, sorted.
    #[inline]
    pub fn units(&self, r: Reg) -> &[RegUnit] {
        &self.regs[r.index()].units
    }

    /// The root registers of unit `u` (one or two).
    pub fn unit_roots(&self, u: RegUnit) -> impl Iterator<Item = Reg> + '_ {
        let d = &self.units[u.index()];
        std::iter::once(d.root).chain(d.root2)
    }

    /// Whether `a` and `b` share a register unit (O(units of a + units of b)).
    pub fn regs_overlap(&self, a: Reg, b: Reg) -> bool {
        if a == b {
            return true;
        }
        let (ua, ub) = (self.units(a), self.units(b));
        let (mut i, mut j) = (0, 0);
        while i < ua.len() && j < ub.len() {
            match ua[i].cmp(&ub[j]) {
                std::cmp::Ordering::Less => i += 1,
                std::cmp::Ordering::Greater => j += 1,
                std::cmp::Ordering::Equal => return true,
            }
        }
        false
    }

    /// Sub-register `idx` of `r`, if `r` has one (binary search over the
    /// few sub-registers of `r`).
    pub fn sub_reg(&self, r: Reg, idx: SubRegIndex) -> Option<Reg> {
        let subs = &self.regs[r.index()].sub_regs;
        subs.binary_search_by_key(&idx, |&(i, _)| i)
            .ok()
            .map(|k| subs[k].1)
    }

    /// The index under which `sub` is a sub-register of `r`, if it is one.
    pub fn sub_reg_index_of(&self, r: Reg, sub: Reg) -> Option<SubRegIndex> {
        self.regs[r.index()]
            .sub_regs
            .iter()
            .find(|&&(_, s)| s == sub)
            .map(|&(i, _)| i)
    }

    /// Registers containing `r`, nearest first.
    #[inline]
    pub fn super_regs(&self, r: Reg) -> &[Reg] {
        &self.regs[r.index()].super_regs
    }

    /// The index of sub-register `b` of sub-register `a`, if it exists.
    pub fn compose_sub_reg(&self, a: SubRegIndex, b: SubRegIndex) -> Option<SubRegIndex> {
        let n = self.sub_reg_indices.len();
        self.sub_reg_compose
            .get(a.index() * n + b.index())
            .copied()
            .flatten()
    }

    /// Whether `r` is a member of class `c` (O(1)).
    #[inline]
    pub fn class_contains(&self, c: RegClass, r: Reg) -> bool {
        bits::test(&self.classes[c.index()].member_bits, r.index())
    }

    /// Whether every member of `a` is a member of `b` (O(1)).
    #[inline]
    pub fn is_sub_class(&self, a: RegClass, b: RegClass) -> bool {
        bits::test(&self.classes[b.index()].sub_classes, a.index())
    }

    /// The largest sub-class of `c` whose members all have sub-register
    /// `idx` (LLVM's `getSubClassWithSubReg`).
    pub fn sub_class_with_sub_reg(&self, c: RegClass, idx: SubRegIndex) -> Option<RegClass> {
        self.classes[c.index()]
            .sub_class_with_sub_reg
            .get(idx.index())
            .copied()
            .flatten()
    }

    /// The largest sub-class `C` of `a` such that for every `R` in `C`,
    /// `R:idx` is in `b` (LLVM's `getMatchingSuperRegClass`). O(log n + classes
    /// listed for `idx`).
    pub fn matching_super_reg_class(
        &self,
        a: RegClass,
        b: RegClass,
        idx: SubRegIndex,
    ) -> Option<RegClass> {
        let supers = &self.classes[b.index()].super_reg_classes;
        let start = supers.partition_point(|&(i, _)| i < idx);
        supers[start..]
            .iter()
            .take_while(|&&(i, _)| i == idx)
            .map(|&(_, c)| c)
            .filter(|&c| self.is_sub_class(c, a))
            .max_by_key(|&c| (self.classes[c.index()].members.len(), std::cmp::Reverse(c)))
    }

    /// The feature named `name` (its bit), if the target has it.
    pub fn find_feature(&self, name: &str) -> Option<usize> {
        self.features.iter().position(|f| f.name == name)
    }

    /// `set` with the changes of a feature string applied in order
    /// (`"+c,-m"`, as `llc -mattr=` takes it: `+name` turns a feature on
    /// with what it implies, `-name` off with what implies it; later
    /// entries win). A library caller overrides a function's features
    /// with it (`func.features = t.apply_feature_string(func.features,
    /// "+c")?`) before allocating; `regalloc alloc --mattr` does the same.
    ///
    /// Errors: an entry without its sign, or a name the target does not
    /// describe.
    pub fn apply_feature_string(&self, set: FeatureSet, text: &str) -> Result<FeatureSet, String> {
        let mut set = set;
        for entry in text.split(',').map(str::trim).filter(|e| !e.is_empty()) {
            let (on, name) = match entry.split_at_checked(1) {
                Some(("+", name)) => (true, name),
                Some(("-", name)) => (false, name),
                _ => {
                    return Err(format!(
                        "feature '{entry}' must start with '+' (turn on) or '-' (turn off)"
                    ));
                }
            };
            let Some(k) = self.find_feature(name) else {
                let known: Vec<&str> = self.features.iter().map(|f| &*f.name).collect();
                return Err(format!(
                    "target '{}' has no feature '{name}' (it has: {})",
                    self.name,
                    if known.is_empty() {
                        "none".to_string()
                    } else {
                        known.join(", ")
                    }
                ));
            };
            set = self.with_feature(set, k, on);
        }
        Ok(set)
    }

    /// `set` with feature `k` turned on, with everything it implies, or
    /// off, with everything that implies it (as LLVM applies `+k` and
    /// `-k` in a feature string).
    pub fn with_feature(&self, set: FeatureSet, k: usize, on: bool) -> FeatureSet {
        let Some(f) = self.features.get(k) else {
            return set;
        };
        if on {
            return set.union(f.implies);
        }
        let bit = FeatureSet(1 << k);
        let dependents = self
            .features
            .iter()
            .enumerate()
            .filter(|(_, g)| g.implies.contains(bit))
            .fold(bit, |m, (j, _)| m.union(FeatureSet(1 << j)));
        set.minus(dependents)
    }

    /// The HW mode of a function with features `f`: the first mode whose
    /// features it satisfies (0, the default mode, when none does).
    pub fn hw_mode(&self, f: FeatureSet) -> usize {
        self.hw_modes
            .iter()
            .enumerate()
            .skip(1)
            .find(|(_, m)| f.contains(m.requires) && f.excludes(m.excludes))
            .map_or(0, |(k, _)| k)
    }

    /// The register size, spill size and spill alignment of class `c` for
    /// a function with features `f` (its HW mode's).
    pub fn class_sizes(&self, c: RegClass, f: FeatureSet) -> ClassSizes {
        let d = &self.classes[c.index()];
        d.mode_sizes
            .get(self.hw_mode(f))
            .copied()
            .unwrap_or(ClassSizes {
                reg_size: d.reg_size,
                spill_size: d.spill_size,
                spill_align: d.spill_align,
            })
    }

    /// The store of a register of class `c` to a stack slot, for a function
    /// with features `f`, to a slot aligned as the class asks (`aligned`)
    /// or only as the stack is; `None` when the class has none.
    pub fn spill_template(
        &self,
        c: RegClass,
        f: FeatureSet,
        aligned: bool,
    ) -> Option<&InstrTemplate<'a>> {
        choose(&self.classes[c.index()].spill, f).map(|t| t.for_slot(aligned))
    }

    /// The load of a register of class `c` from a stack slot (see
    /// [`TargetInfo::spill_template`]).
    pub fn reload_template(
        &self,
        c: RegClass,
        f: FeatureSet,
        aligned: bool,
    ) -> Option<&InstrTemplate<'a>> {
        choose(&self.classes[c.index()].reload, f).map(|t| t.for_slot(aligned))
    }

    /// The copy between two registers of class `c`, for a function with
    /// features `f`.
    pub fn copy_template(&self, c: RegClass, f: FeatureSet) -> Option<&InstrTemplate<'a>> {
        choose(&self.classes[c.index()].copy, f).map(|t| &t.template)
    }

    /// The raw allocation order of `c` for a function: the order its
    /// selector picks (order 0 without a selector). The allocator applies
    /// the class's [`AllocOrderPolicy`](super::AllocOrderPolicy) and drops
    /// reserved registers on top of this.
    pub fn alloc_order(&self, c: RegClass, f: &FunctionInfo) -> &[Reg] {
        let d = &self.classes[c.index()];
        let k = d.order_select.as_ref().map_or(0, |sel| sel.select(f));
        d.orders
            .get(k)
            .or_else(|| d.orders.first())
            .map_or(&d.members[..], |o| &o[..])
    }

    /// Whether `r` is reserved in every function (O(1)).
    #[inline]
    pub fn is_reserved(&self, r: Reg) -> bool {
        bits::test(&self.reserved, r.index())
    }

    /// Whether data-flow analyses leave `r` untracked although allocation
    /// may treat it as free ([`TargetInfo::untracked`]; O(1)).
    #[inline]
    pub fn is_untracked(&self, r: Reg) -> bool {
        bits::test(&self.untracked, r.index())
    }

    /// The registers reserved in every function.
    pub fn reserved_regs(&self) -> impl Iterator<Item = Reg> + '_ {
        bits::iter(&self.reserved).map(Reg::new)
    }

    /// The registers reserved in a function with facts `f`, by register:
    /// those reserved in every function, plus the frame-pointer registers
    /// when `f.has_frame_pointer`, the base-pointer registers when
    /// `f.has_base_pointer`, and those its subtarget's features do not
    /// free ([`TargetInfo::reserved_without`]).
    pub fn reserved_in(&self, f: &FunctionInfo) -> Vec<bool> {
        let groups = self.reserved_groups(f.features);
        (0..self.regs.len())
            .map(|r| {
                bits::test(&self.reserved, r)
                    || (f.has_frame_pointer && bits::test(&self.frame_pointer, r))
                    || (f.has_base_pointer && bits::test(&self.base_pointer, r))
                    || self.in_groups(groups, r)
            })
            .collect()
    }

    /// Which [`TargetInfo::reserved_without`] entries reserve their
    /// registers in a function with features `f` (bit `k`: entry `k`).
    pub fn reserved_groups(&self, f: FeatureSet) -> u64 {
        self.reserved_without
            .iter()
            .enumerate()
            .filter(|(_, g)| !f.contains(g.features))
            .fold(0, |m, (k, _)| m | 1 << k)
    }

    /// Whether register `r` is in one of the `groups` of
    /// [`TargetInfo::reserved_without`].
    pub fn in_groups(&self, groups: u64, r: usize) -> bool {
        self.reserved_without
            .iter()
            .enumerate()
            .any(|(k, g)| groups >> k & 1 == 1 && bits::test(&g.regs, r))
    }

    /// Whether a call with mask `s` preserves `r` (O(1)).
    #[inline]
    pub fn mask_preserves(&self, s: CalleeSavedSet, r: Reg) -> bool {
        bits::test(&self.callee_saved[s.index()].mask, r.index())
    }

    /// Whether `r` is saved by callees under convention `s`.
    pub fn is_callee_saved(&self, s: CalleeSavedSet, r: Reg) -> bool {
        self.callee_saved[s.index()].saves.contains(&r)
    }

    /// The register named `name`, ignoring ASCII case (MIR prints `$r1`
    /// for `R1`). Linear; use [`NameIndex`](super::NameIndex) for bulk look-ups.
    pub fn find_reg(&self, name: &str) -> Option<Reg> {
        self.regs
            .iter()
            .position(|r| r.name.eq_ignore_ascii_case(name))
            .map(Reg::new)
    }

    /// The class named `name`, ignoring ASCII case (MIR prints `gpr` for `GPR`).
    pub fn find_class(&self, name: &str) -> Option<RegClass> {
        self.classes
            .iter()
            .position(|c| c.name.eq_ignore_ascii_case(name))
            .map(RegClass::new)
    }

    /// The instruction named exactly `name`.
    pub fn find_opcode(&self, name: &str) -> Option<Opcode> {
        self.instrs
            .iter()
            .position(|i| i.name == name)
            .map(Opcode::new)
    }

    /// The sub-register index named exactly `name`.
    pub fn find_sub_reg_index(&self, name: &str) -> Option<SubRegIndex> {
        self.sub_reg_indices
            .iter()
            .position(|i| i.name == name)
            .map(SubRegIndex::new)
    }

    /// The callee-saved set (register mask) named `name`, ignoring ASCII case
    /// (MIR prints `csr_64` for `CSR_64`).
    pub fn find_callee_saved(&self, name: &str) -> Option<CalleeSavedSet> {
        self.callee_saved
            .iter()
            .position(|c| c.name.eq_ignore_ascii_case(name))
            .map(CalleeSavedSet::new)
    }

    /// The folds that let explicit operand `operand` of an `op` instruction
    /// live in a stack slot (several when they differ in their second
    /// operand, [`MemoryFoldDesc::also`]).
    pub fn memory_folds_for(&self, op: Opcode, operand: usize) -> &[MemoryFoldDesc<'a>] {
        let Ok(k) = u8::try_from(operand) else {
            return &[];
        };
        let key = (op, k);
        let start = self
            .memory_folds
            .partition_point(|f| (f.reg_form, f.operand) < key);
        let end = self
            .memory_folds
            .partition_point(|f| (f.reg_form, f.operand) <= key);
        &self.memory_folds[start..end]
    }

    /// What the branch analysis knows of conditional branch `op`; `None`
    /// when it is not one it understands.
    pub fn conditional_branch(&self, op: Opcode) -> Option<&ConditionalBranchDesc> {
        self.conditional_branches
            .binary_search_by_key(&op, |c| c.branch)
            .ok()
            .map(|k| &self.conditional_branches[k])
    }

    /// Whether `op` is an indirect branch through a jump table whose
    /// edges are split by rewriting the table.
    pub fn is_jump_table_branch(&self, op: Opcode) -> bool {
        self.jump_table_branches.binary_search(&op).is_ok()
    }

    /// What commuting `op` does beyond swapping its first two uses, when
    /// the description says.
    pub fn commute_rule(&self, op: Opcode) -> Option<&CommuteRuleDesc> {
        self.commute_rules
            .binary_search_by_key(&op, |c| c.instr)
            .ok()
            .map(|k| &self.commute_rules[k])
    }

    /// The three-address forms of `op`, in the order to try them.
    pub fn three_address_forms(&self, op: Opcode) -> &[ThreeAddressDesc<'a>] {
        let start = self
            .three_address_forms
            .partition_point(|f| f.two_address < op);
        let end = self
            .three_address_forms
            .partition_point(|f| f.two_address <= op);
        &self.three_address_forms[start..end]
    }

    /// Checks that every index in the tables is in range and that parallel
    /// tables have matching lengths. Generated tables are correct by
    /// construction; tables built at run time should be checked once.
    pub fn validate(&self) -> Result<(), String> {
        self.validate_sub_reg_compose()?;
        self.validate_regs()?;
        self.validate_units()?;
        for c in self.classes.iter() {
            self.validate_class(c)?;
        }
        self.validate_instrs()?;
        self.validate_memory_folds()?;
        self.validate_branches()?;
        self.validate_commute_rules()?;
        self.validate_three_address_forms()
    }

    /// The three-address forms are sorted, and name instructions, operands,
    /// classes, indices and registers of the target, one operand per
    /// operand of the new instruction.
    fn validate_three_address_forms(&self) -> Result<(), String> {
        if self
            .three_address_forms
            .windows(2)
            .any(|w| w[0].two_address > w[1].two_address)
        {
            return Err("three_address_forms not sorted by two-address opcode".into());
        }
        for f in self.three_address_forms.iter() {
            let (Some(two), Some(three)) = (
                self.instrs.get(f.two_address.index()),
                self.instrs.get(f.three_address.index()),
            ) else {
                return Err("three-address form: opcode out of range".into());
            };
            let what = format!("three-address form of {} as {}", two.name, three.name);
            if f.operands.len() != three.operands.len() {
                return Err(format!("{what}: operand count"));
            }
            let in_two = |k: u8| usize::from(k) < two.operands.len();
            let class_ok = |c: RegClass| c.index() < self.classes.len();
            let index_ok = |i: SubRegIndex| i.index() < self.sub_reg_indices.len();
            for o in f.operands.iter() {
                let ok = match *o {
                    ThreeAddressOperand::Def
                    | ThreeAddressOperand::Imm(_)
                    | ThreeAddressOperand::NoReg => true,
                    ThreeAddressOperand::Operand(k) | ThreeAddressOperand::Negated(k, _) => {
                        in_two(k)
                    }
                    ThreeAddressOperand::Constrained(k, c) => in_two(k) && class_ok(c),
                    ThreeAddressOperand::Widened(k, c, i)
                    | ThreeAddressOperand::Inserted(k, c, i) => {
                        in_two(k) && class_ok(c) && index_ok(i)
                    }
                    ThreeAddressOperand::Result(c, i) => class_ok(c) && index_ok(i),
                    ThreeAddressOperand::Fixed(r) => r.index() < self.regs.len(),
                };
                if !ok {
                    return Err(format!("{what}: an operand is out of range"));
                }
            }
            if f.immediate.is_some_and(|(k, _)| !in_two(k))
                || f.new_register_order.iter().any(|&k| {
                    !f.operands
                        .get(usize::from(k))
                        .is_some_and(|o| o.is_new_register())
                })
            {
                return Err(format!(
                    "{what}: immediate or new-register position out of range"
                ));
            }
        }
        Ok(())
    }

    /// The commuting facts name instructions of the target, once each, in
    /// opcode order, and condition operands they have.
    fn validate_commute_rules(&self) -> Result<(), String> {
        if self.jump_table_branches.windows(2).any(|w| w[0] >= w[1])
            || self
                .jump_table_branches
                .iter()
                .any(|b| b.index() >= self.instrs.len())
        {
            return Err("jump_table_branches not sorted, repeated or out of range".into());
        }
        if self
            .commute_rules
            .windows(2)
            .any(|w| w[0].instr >= w[1].instr)
        {
            return Err("commute_rules not sorted by opcode, or one given twice".into());
        }
        for r in self.commute_rules.iter() {
            let Some(desc) = self.instrs.get(r.instr.index()) else {
                return Err(format!("commute rule: opcode {} out of range", r.instr.0));
            };
            if let Some((k, _)) = r.condition
                && usize::from(k) >= desc.operands.len()
            {
                return Err(format!(
                    "commute rule of {}: condition operand {k} out of range",
                    desc.name
                ));
            }
        }
        Ok(())
    }

    /// The branch facts name instructions of the target, once each, in
    /// opcode order, and condition operands they have.
    fn validate_branches(&self) -> Result<(), String> {
        let n = self.instrs.len();
        if self.unconditional_branch.is_some_and(|b| b.index() >= n) {
            return Err("unconditional branch: opcode out of range".into());
        }
        if self
            .conditional_branches
            .windows(2)
            .any(|w| w[0].branch >= w[1].branch)
        {
            return Err("conditional_branches not sorted by opcode, or one given twice".into());
        }
        for c in self.conditional_branches.iter() {
            let Some(desc) = self.instrs.get(c.branch.index()) else {
                return Err(format!(
                    "conditional branch: opcode {} out of range",
                    c.branch.0
                ));
            };
            let Some(r) = c.reverse else { continue };
            let Some(inverse) = self.instrs.get(r.inverse.index()) else {
                return Err(format!("reverse of {}: opcode out of range", desc.name));
            };
            if let Some((k, _)) = r.condition
                && (usize::from(k) >= desc.operands.len()
                    || usize::from(k) >= inverse.operands.len())
            {
                return Err(format!(
                    "reverse of {}: condition operand {k} out of range",
                    desc.name
                ));
            }
        }
        Ok(())
    }

    /// `Err` naming `what` when `r` is not a register of the target.
    fn reg_in_range(&self, r: Reg, what: &str) -> Result<(), String> {
        if r.index() < self.regs.len() {
            Ok(())
        } else {
            Err(format!("{what}: register {} out of range", r.0))
        }
    }

    /// The composition table has an entry per pair of indices.
    fn validate_sub_reg_compose(&self) -> Result<(), String> {
        let ni = self.sub_reg_indices.len();
        if self.sub_reg_compose.len() != ni * ni {
            return Err(format!(
                "sub_reg_compose has {} entries, expected {}",
                self.sub_reg_compose.len(),
                ni * ni
            ));
        }
        Ok(())
    }

    /// Each register's units (sorted, with a lane mask each) and sub- and
    /// super-registers are in range; no register is its own sub-register.
    fn validate_regs(&self) -> Result<(), String> {
        let (nu, ni) = (self.units.len(), self.sub_reg_indices.len());
        for (k, r) in self.regs.iter().enumerate() {
            let what = format!("register {}", r.name);
            if r.units.len() != r.unit_lanes.len() {
                return Err(format!("{what}: units and unit_lanes differ in length"));
            }
            if r.units.windows(2).any(|w| w[0] >= w[1]) || r.units.iter().any(|u| u.index() >= nu) {
                return Err(format!("{what}: units not sorted or out of range"));
            }
            if r.sub_regs.windows(2).any(|w| w[0].0 >= w[1].0) {
                return Err(format!("{what}: sub_regs not sorted by index"));
            }
            for &(i, s) in r.sub_regs.iter() {
                self.reg_in_range(s, &what)?;
                if i.index() >= ni {
                    return Err(format!("{what}: sub-register index {} out of range", i.0));
                }
                if s.index() == k {
                    return Err(format!("{what}: is its own sub-register"));
                }
            }
            for &s in r.super_regs.iter() {
                self.reg_in_range(s, &what)?;
            }
        }
        Ok(())
    }

    /// Each unit's roots are registers.
    fn validate_units(&self) -> Result<(), String> {
        for u in self.units.iter() {
            self.reg_in_range(u.root, "unit root")?;
            if let Some(r) = u.root2 {
                self.reg_in_range(r, "unit root")?;
            }
        }
        Ok(())
    }

    /// Class `c`'s members and orders lie in its member bits, its
    /// sub-register classes and templates are in range, and it has a size
    /// per HW mode if any.
    fn validate_class(&self, c: &RegClassDesc<'_>) -> Result<(), String> {
        let (nc, ni) = (self.classes.len(), self.sub_reg_indices.len());
        let what = format!("class {}", c.name);
        for &r in c
            .members
            .iter()
            .chain(c.orders.iter().flat_map(|o| o.iter()))
        {
            self.reg_in_range(r, &what)?;
            if !bits::test(&c.member_bits, r.index()) {
                return Err(format!(
                    "{what}: {} is in an order or member list but not in member_bits",
                    self.regs[r.index()].name
                ));
            }
        }
        if c.sub_class_with_sub_reg.len() != ni && !c.sub_class_with_sub_reg.is_empty() {
            return Err(format!(
                "{what}: sub_class_with_sub_reg has {} entries, expected {ni}",
                c.sub_class_with_sub_reg.len()
            ));
        }
        if c.sub_class_with_sub_reg
            .iter()
            .flatten()
            .any(|s| s.index() >= nc)
        {
            return Err(format!(
                "{what}: sub_class_with_sub_reg names a class out of range"
            ));
        }
        let templates = [&c.spill, &c.reload, &c.copy]
            .into_iter()
            .flat_map(|k| k.iter())
            .flat_map(|ch| std::iter::once(&ch.template).chain(&ch.unaligned));
        for t in templates {
            self.validate_template(t, &what)?;
        }
        if !c.mode_sizes.is_empty() && c.mode_sizes.len() != self.hw_modes.len() {
            return Err(format!(
                "{what}: {} mode sizes for {} HW modes",
                c.mode_sizes.len(),
                self.hw_modes.len()
            ));
        }
        Ok(())
    }

    /// A spill, reload or copy template's opcode, fixed registers and
    /// sub-register indices are in range.
    fn validate_template(&self, t: &InstrTemplate<'_>, what: &str) -> Result<(), String> {
        let ni = self.sub_reg_indices.len();
        if t.opcode.index() >= self.instrs.len() {
            return Err(format!(
                "{what}: template opcode {} out of range",
                t.opcode.0
            ));
        }
        for &o in t.operands.iter() {
            match o {
                TemplateOperand::Fixed(x) => self.reg_in_range(x, what)?,
                TemplateOperand::RegSub(i) | TemplateOperand::SrcSub(i) if i.index() >= ni => {
                    return Err(format!(
                        "{what}: template sub-register index {} out of range",
                        i.0
                    ));
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Each instruction's definitions, ties, operand classes and implicit
    /// registers are consistent and in range.
    fn validate_instrs(&self) -> Result<(), String> {
        let nc = self.classes.len();
        for i in self.instrs.iter() {
            let what = format!("instruction {}", i.name);
            if usize::from(i.num_defs) > i.operands.len() {
                return Err(format!("{what}: num_defs exceeds operand count"));
            }
            for (k, o) in i.operands.iter().enumerate() {
                if let Some(t) = o.tied_to {
                    let t = usize::from(t);
                    if t >= usize::from(i.num_defs) || k < usize::from(i.num_defs) {
                        return Err(format!(
                            "{what}: operand {} tied to {t}, which is not a definition",
                            o.name
                        ));
                    }
                }
                if o.class.is_some_and(|c| c.index() >= nc) {
                    return Err(format!(
                        "{what}: operand {} names a class out of range",
                        o.name
                    ));
                }
            }
            for &r in i.implicit_defs.iter().chain(i.implicit_uses.iter()) {
                self.reg_in_range(r, &what)?;
            }
        }
        Ok(())
    }

    /// The memory folds are sorted, and each one's opcodes, operands and
    /// address fit.
    fn validate_memory_folds(&self) -> Result<(), String> {
        if self.memory_folds.windows(2).any(|w| {
            (w[0].reg_form, w[0].operand, w[0].also) >= (w[1].reg_form, w[1].operand, w[1].also)
        }) {
            return Err(
                "memory_folds not sorted by register form, operand and second operand".into(),
            );
        }
        for f in self.memory_folds.iter() {
            let (Some(r), Some(m)) = (
                self.instrs.get(f.reg_form.index()),
                self.instrs.get(f.mem_form.index()),
            ) else {
                return Err(format!(
                    "memory fold: opcode {} or {} out of range",
                    f.reg_form.0, f.mem_form.0
                ));
            };
            let what = format!("memory fold of {} into {}", r.name, m.name);
            let slots = f
                .address
                .iter()
                .filter(|&&a| a == TemplateOperand::Slot)
                .count();
            let removed = 1 + usize::from(f.also.is_some());
            if usize::from(f.operand) >= r.operands.len()
                || f.also
                    .is_some_and(|u| u <= f.operand || usize::from(u) >= r.operands.len())
                || slots != 1
                || m.operands.len() + removed != r.operands.len() + f.address.len()
            {
                return Err(format!(
                    "{what}: operand, address or operand counts do not fit"
                ));
            }
            for &a in f.address.iter() {
                if let TemplateOperand::Fixed(x) = a {
                    self.reg_in_range(x, &what)?;
                }
            }
        }
        Ok(())
    }
}
