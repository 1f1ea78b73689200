//! Unit tests of the table queries on a tiny hand-written target, built both as `static` data and with `TargetBuilder`.
//!
//! The target: 8-bit AL, AH, BL, BH; 16-bit A = AH:AL and B = BH:BL
//! (sub_lo, sub_hi); classes GR8, GR16, GR8_LO; B is callee-saved.

use std::borrow::Cow::{self, Borrowed as B};

use super::*;

const AL: Reg = Reg(0);
const AH: Reg = Reg(1);
const A: Reg = Reg(2);
const BL: Reg = Reg(3);
const BH: Reg = Reg(4);
const BB: Reg = Reg(5);
const LO: SubRegIndex = SubRegIndex(0);
const HI: SubRegIndex = SubRegIndex(1);
const GR8: RegClass = RegClass(0);
const GR16: RegClass = RegClass(1);
const GR8_LO: RegClass = RegClass(2);

const fn leaf(
    name: &'static str,
    enc: u16,
    unit: &'static [RegUnit],
    sup: &'static [Reg],
) -> RegisterDesc<'static> {
    RegisterDesc {
        name: B(name),
        encoding: enc,
        sub_regs: B(&[]),
        super_regs: B(sup),
        units: B(unit),
        unit_lanes: B(&[LaneMask::ALL]),
        cost_per_use: 0,
        flags: RegFlags::NONE,
    }
}

fn pick_second(_: &FunctionInfo) -> usize {
    1
}

static TINY: TargetInfo<'static> = TargetInfo {
    name: B("tiny"),
    regs: B(&[
        leaf("AL", 0, &[RegUnit(0)], &[A]),
        leaf("AH", 4, &[RegUnit(1)], &[A]),
        RegisterDesc {
            name: B("A"),
            encoding: 0,
            sub_regs: B(&[(LO, AL), (HI, AH)]),
            super_regs: B(&[]),
            units: B(&[RegUnit(0), RegUnit(1)]),
            unit_lanes: B(&[LaneMask(1), LaneMask(2)]),
            cost_per_use: 0,
            flags: RegFlags::NONE,
        },
        leaf("BL", 3, &[RegUnit(2)], &[BB]),
        leaf("BH", 7, &[RegUnit(3)], &[BB]),
        RegisterDesc {
            name: B("B"),
            encoding: 3,
            sub_regs: B(&[(LO, BL), (HI, BH)]),
            super_regs: B(&[]),
            units: B(&[RegUnit(2), RegUnit(3)]),
            unit_lanes: B(&[LaneMask(1), LaneMask(2)]),
            cost_per_use: 0,
            flags: RegFlags::NONE,
        },
    ]),
    units: B(&[
        RegUnitDesc {
            root: AL,
            root2: None,
        },
        RegUnitDesc {
            root: AH,
            root2: None,
        },
        RegUnitDesc {
            root: BL,
            root2: None,
        },
        RegUnitDesc {
            root: BH,
            root2: None,
        },
    ]),
    sub_reg_indices: B(&[
        SubRegIndexDesc {
            name: B("sub_lo"),
            size: Some(8),
            offset: Some(0),
            lane_mask: LaneMask(1),
        },
        SubRegIndexDesc {
            name: B("sub_hi"),
            size: Some(8),
            offset: Some(8),
            lane_mask: LaneMask(2),
        },
    ]),
    sub_reg_compose: B(&[None, None, None, None]),
    classes: B(&[
        RegClassDesc {
            name: B("GR8"),
            members: B(&[AL, AH, BL, BH]),
            member_bits: B(&[0b011011]),
            orders: B(&[B(&[AL, AH, BL, BH]), B(&[BL, BH])]),
            order_select: Some(OrderSelector::Compiled(pick_second)),
            order_policy: AllocOrderPolicy::CalleeSavedLast,
            reg_size: 8,
            spill_size: 1,
            spill_align: 1,
            copy_cost: 1,
            allocatable: true,
            priority: 0,
            lane_mask: LaneMask::ALL,
            sub_classes: B(&[0b101]),
            super_classes: B(&[0b001]),
            sub_class_with_sub_reg: B(&[None, None]),
            super_reg_classes: B(&[(SubRegIndex(0), GR16), (SubRegIndex(1), GR16)]),
            mode_sizes: B(&[]),
            spill: B(&[]),
            reload: B(&[]),
            copy: B(&[]),
            spill_stack_id: B("default"),
            cannot_spill: None,
        },
        RegClassDesc {
            name: B("GR16"),
            members: B(&[A, BB]),
            member_bits: B(&[0b100100]),
            orders: B(&[B(&[A, BB])]),
            order_select: None,
            order_policy: AllocOrderPolicy::CalleeSavedLast,
            reg_size: 16,
            spill_size: 2,
            spill_align: 2,
            copy_cost: 1,
            allocatable: true,
            priority: 0,
            lane_mask: LaneMask(3),
            sub_classes: B(&[0b010]),
            super_classes: B(&[0b010]),
            sub_class_with_sub_reg: B(&[Some(GR16), Some(GR16)]),
            super_reg_classes: B(&[]),
            mode_sizes: B(&[]),
            spill: B(&[]),
            reload: B(&[]),
            copy: B(&[TemplateChoice {
                features: FeatureSet::NONE,
                template: InstrTemplate {
                    opcode: Opcode(0),
                    operands: B(&[TemplateOperand::Reg, TemplateOperand::Src]),
                },
                unaligned: None,
            }]),
            spill_stack_id: B("default"),
            cannot_spill: None,
        },
        RegClassDesc {
            name: B("GR8_LO"),
            members: B(&[AL, BL]),
            member_bits: B(&[0b001001]),
            orders: B(&[B(&[AL, BL])]),
            order_select: None,
            order_policy: AllocOrderPolicy::CalleeSavedLast,
            reg_size: 8,
            spill_size: 1,
            spill_align: 1,
            copy_cost: 1,
            allocatable: true,
            priority: 0,
            lane_mask: LaneMask::ALL,
            sub_classes: B(&[0b100]),
            super_classes: B(&[0b101]),
            sub_class_with_sub_reg: B(&[None, None]),
            super_reg_classes: B(&[(SubRegIndex(0), GR16)]),
            mode_sizes: B(&[]),
            spill: B(&[]),
            reload: B(&[]),
            copy: B(&[]),
            spill_stack_id: B("default"),
            cannot_spill: None,
        },
    ]),
    callee_saved: B(&[CalleeSavedDesc {
        name: B("CSR_Tiny"),
        saves: B(&[BB]),
        mask: B(&[0b111000]),
    }]),
    reserved: B(&[0]),
    frame_pointer: B(&[0]),
    frame_pointer_in_non_leaf: false,
    stack_alignment: 0,
    base_pointer: B(&[0]),
    base_pointer_frame_size: 0,
    spill_realign_needs_frame_pointer: false,
    join_global_copies: false,
    tracks_sub_reg_liveness: false,
    reserved_without: B(&[]),
    untracked: B(&[0]),
    features: B(&[]),
    hw_modes: B(&[]),
    instrs: B(&[
        InstrDesc {
            name: B("MOV16rr"),
            operands: B(&[
                OperandDesc {
                    name: B("dst"),
                    kind: OperandKind::Register,
                    class: Some(GR16),
                    is_def: true,
                    tied_to: None,
                    early_clobber: false,
                },
                OperandDesc {
                    name: B("src"),
                    kind: OperandKind::Register,
                    class: Some(GR16),
                    is_def: false,
                    tied_to: None,
                    early_clobber: false,
                },
            ]),
            num_defs: 1,
            implicit_defs: B(&[]),
            implicit_uses: B(&[]),
            flags: InstrFlags::MOVE_REG.union(InstrFlags::CHEAP_AS_MOVE),
        },
        InstrDesc {
            name: B("ADD16rr"),
            operands: B(&[
                OperandDesc {
                    name: B("dst"),
                    kind: OperandKind::Register,
                    class: Some(GR16),
                    is_def: true,
                    tied_to: None,
                    early_clobber: false,
                },
                OperandDesc {
                    name: B("src1"),
                    kind: OperandKind::Register,
                    class: Some(GR16),
                    is_def: false,
                    tied_to: Some(0),
                    early_clobber: false,
                },
                OperandDesc {
                    name: B("src2"),
                    kind: OperandKind::Register,
                    class: Some(GR16),
                    is_def: false,
                    tied_to: None,
                    early_clobber: false,
                },
            ]),
            num_defs: 1,
            implicit_defs: B(&[]),
            implicit_uses: B(&[]),
            flags: InstrFlags::COMMUTABLE,
        },
    ]),
    memory_folds: B(&[]),
    unconditional_branch: None,
    conditional_branches: B(&[]),
    commute_rules: B(&[]),
    jump_table_branches: B(&[]),
    three_address_forms: B(&[]),
};

#[test]
fn static_table_is_valid() {
    TINY.validate().unwrap();
}

#[test]
fn overlap_and_units() {
    let t = &TINY;
    assert!(t.regs_overlap(A, AL) && t.regs_overlap(AH, A) && t.regs_overlap(A, A));
    assert!(!t.regs_overlap(AL, AH) && !t.regs_overlap(A, BB) && !t.regs_overlap(AL, BL));
    assert_eq!(t.units(A), &[RegUnit(0), RegUnit(1)]);
    assert_eq!(t.unit_roots(RegUnit(3)).collect::<Vec<_>>(), vec![BH]);
    assert_eq!(t.super_regs(BL), &[BB]);
}

#[test]
fn sub_registers() {
    let t = &TINY;
    assert_eq!(t.sub_reg(A, HI), Some(AH));
    assert_eq!(t.sub_reg(BB, LO), Some(BL));
    assert_eq!(t.sub_reg(AL, LO), None);
    assert_eq!(t.sub_reg_index_of(BB, BH), Some(HI));
    assert_eq!(t.compose_sub_reg(LO, HI), None);
}

#[test]
fn classes() {
    let t = &TINY;
    assert!(
        t.class_contains(GR8, AH) && !t.class_contains(GR8, A) && !t.class_contains(GR8_LO, AH)
    );
    assert!(
        t.is_sub_class(GR8_LO, GR8) && !t.is_sub_class(GR8, GR8_LO) && t.is_sub_class(GR16, GR16)
    );
    assert_eq!(t.sub_class_with_sub_reg(GR16, LO), Some(GR16));
    assert_eq!(t.sub_class_with_sub_reg(GR8, LO), None);
    assert_eq!(t.matching_super_reg_class(GR16, GR8_LO, LO), Some(GR16));
    assert_eq!(t.matching_super_reg_class(GR16, GR8_LO, HI), None);
    let f = FunctionInfo::default();
    assert_eq!(
        t.alloc_order(GR8, &f),
        &[BL, BH],
        "the selector picks order 1"
    );
    assert_eq!(t.alloc_order(GR16, &f), &[A, BB]);
}

#[test]
fn masks_reserved_and_instrs() {
    let t = &TINY;
    let csr = t.find_callee_saved("csr_tiny").unwrap();
    assert!(t.mask_preserves(csr, BH) && t.mask_preserves(csr, BB) && !t.mask_preserves(csr, AL));
    assert!(t.is_callee_saved(csr, BB) && !t.is_callee_saved(csr, BL));
    assert_eq!(t.reserved_regs().count(), 0);
    let add = t.find_opcode("ADD16rr").unwrap();
    assert_eq!(t.instr(add).tied_to(1), Some(0));
    assert!(t.instr(add).is(InstrFlags::COMMUTABLE) && !t.instr(add).is(InstrFlags::CALL));
    assert_eq!(t.find_opcode("add16rr"), None, "opcodes are case-sensitive");
}

#[test]
fn name_lookups() {
    let t = &TINY;
    let ix = NameIndex::new(t);
    for (n, r) in [("al", AL), ("AH", AH), ("b", BB)] {
        assert_eq!(t.find_reg(n), Some(r));
        assert_eq!(ix.reg(n), Some(r));
    }
    assert_eq!(ix.class("gr8_lo"), Some(GR8_LO));
    assert_eq!(t.find_class("Gr16"), Some(GR16));
    assert_eq!(ix.sub_reg_index("sub_hi"), Some(HI));
    assert_eq!(ix.opcode("MOV16rr"), Some(Opcode(0)));
    assert_eq!(ix.callee_saved("CSR_TINY"), Some(CalleeSavedSet(0)));
    assert_eq!(ix.reg("zz"), None);
}

/// The tiny target's registers, declared on `b` in the order of the
/// statics: `AL`, `AH`, their pair `A`, `BL`, `BH`, their pair `B`.
fn tiny_registers(b: &mut TargetBuilder) -> [Reg; 6] {
    let lo = b.sub_reg_index("sub_lo", 8, 0);
    let hi = b.sub_reg_index("sub_hi", 8, 8);
    let al = b.reg("AL", 0, &[]);
    let ah = b.reg("AH", 4, &[]);
    let a = b.reg("A", 0, &[(lo, al), (hi, ah)]);
    let bl = b.reg("BL", 3, &[]);
    let bh = b.reg("BH", 7, &[]);
    let bb = b.reg("B", 3, &[(lo, bl), (hi, bh)]);
    [al, ah, a, bl, bh, bb]
}

/// The builder derives the same tables as the hand-written statics (the
/// selector and alt order aside, which the builder does not take).
#[test]
fn builder_matches_static() {
    let mut b = TargetBuilder::new("tiny");
    let [al, ah, a, bl, bh, bb] = tiny_registers(&mut b);
    let spec = |name: &str, members: Vec<Reg>, reg_size| ClassSpec {
        name: name.into(),
        members,
        reg_size,
        copy_cost: 1,
        allocatable: true,
        spill: None,
        reload: None,
        copy: None,
    };
    b.class(spec("GR8", vec![al, ah, bl, bh], 8));
    b.class(ClassSpec {
        copy: Some(TINY.classes[1].copy[0].template.clone()),
        ..spec("GR16", vec![a, bb], 16)
    });
    b.class(spec("GR8_LO", vec![al, bl], 8));
    b.callee_saved("CSR_Tiny", &[bb]);
    for d in TINY.instrs.iter() {
        b.instr(d.clone());
    }
    let built = b.build();
    built.validate().unwrap();
    let mut expect = TINY.clone();
    let gr8 = &mut expect.classes.to_mut()[0];
    gr8.order_select = None;
    gr8.orders = Cow::Owned(vec![gr8.members.clone()]);
    assert_eq!(built, expect);
}

/// The builder's frame and base pointers reserve their registers and every
/// register overlapping them, each only in a function that keeps or needs
/// one; the stack alignment and frame size are carried as given.
#[test]
fn builder_reserves_frame_and_base_pointers_per_function() {
    let mut b = TargetBuilder::new("tiny");
    let [al, ah, a, bl, bh, bb] = tiny_registers(&mut b);
    b.frame_pointer(&[a], false);
    b.stack_alignment(16);
    b.base_pointer(&[bl], 256);
    let t = b.build();
    assert_eq!((t.stack_alignment, t.base_pointer_frame_size), (16, 256));
    let reserved = |has_frame_pointer, has_base_pointer| {
        let f = FunctionInfo {
            has_frame_pointer,
            has_base_pointer,
            ..FunctionInfo::default()
        };
        let r = t.reserved_in(&f);
        [al, ah, a, bl, bh, bb].map(|x| r[x.index()])
    };
    assert_eq!(reserved(false, false), [false; 6]);
    assert_eq!(
        reserved(true, false),
        [true, true, true, false, false, false]
    );
    // BL alone is named; B overlaps it, BH does not.
    assert_eq!(
        reserved(false, true),
        [false, false, false, true, false, true]
    );
    assert_eq!(reserved(true, true), [true, true, true, true, false, true]);
}
