//! Run-time tables: a `.td` file -> tdgen's target model -> an owned `regalloc::target::TargetInfo<'static>`.
//!
//! The third way in, beside the `regalloc!` macro and `tdgen::Builder`: for
//! the CLI's `--td` option and for trying a description without recompiling.
//! It starts from the same [`tdgen::emit::Tables`] the emitter prints, so a
//! loaded target equals the generated one field by field. An
//! `AltOrderSelect` fragment's syntax tree is interpreted where the
//! generated tables call the Rust compiled from it.
#![deny(missing_docs)]

use regalloc::target::{
    AllocOrderPolicy, BranchReversal, CalleeSavedDesc, ClassSizes, CommuteRuleDesc,
    ConditionalBranchDesc, FeatureDesc, FeatureSet, FunctionInfo, HwModeDesc, InstrDesc,
    InstrFlags, InstrTemplate, LaneMask, MemoryFoldDesc, Opcode, OperandDesc, OperandKind,
    OrderSelector, Reg, RegClass, RegClassDesc, RegFlags, RegUnit, RegUnitDesc, RegisterDesc,
    ReservedWithout, SubRegIndex, SubRegIndexDesc, TargetInfo, TemplateChoice, TemplateOperand,
    ThreeAddressDesc, ThreeAddressOperand,
};
use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tdgen::emit::Tables;
use tdgen::emit::select::{Block, Fact};
use tdgen::emit::tables::{ChoiceRow, TemplateRow};
use tdgen::target::instrs::{OperandKind as TdKind, TplOp};
use tdgen::target::three_address::Piece;

/// A function as the AltOrderSelect interpreter asks about it: its facts,
/// and its features by name through the target's feature list.
struct Asked<'f> {
    info: &'f FunctionInfo,
    features: &'f [(String, u64)],
}

impl tdgen::emit::select::Function for Asked<'_> {
    fn has_feature(&self, name: &str) -> bool {
        self.features
            .iter()
            .position(|(n, _)| n == name)
            .is_some_and(|b| self.info.features.0 >> b & 1 == 1)
    }

    fn fact(&self, fact: Fact) -> bool {
        match fact {
            Fact::Calls => self.info.has_calls,
            Fact::FramePointer => self.info.has_frame_pointer,
            Fact::BasePointer => self.info.has_base_pointer,
        }
    }
}

/// The selector that interprets `tree`, the fragment the emitter would
/// compile.
fn interpreted(tree: &Block, features: &[(String, u64)]) -> OrderSelector {
    let (tree, features) = (tree.clone(), features.to_vec());
    OrderSelector::Interpreted(Arc::new(move |info: &FunctionInfo| {
        let asked = Asked {
            info,
            features: &features,
        };
        tree.select(&asked) as usize
    }))
}

/// Reads `path` (with `include_dirs`, then tdgen's prelude) and builds its tables.
/// Errors are the rendered diagnostics (file:line:col, source line, hint).
pub fn load(
    path: impl AsRef<Path>,
    include_dirs: &[PathBuf],
) -> Result<TargetInfo<'static>, String> {
    let base = std::env::current_dir().ok();
    let compiled = tdgen::emit::compile(path.as_ref(), include_dirs, base.as_deref())
        .map_err(|f| f.rendered)?;
    from_tables(&compiled.tables)
}

fn regs(v: &[u32]) -> Cow<'static, [Reg]> {
    Cow::Owned(v.iter().map(|&r| Reg(r)).collect())
}

/// Template operands in `regalloc`'s terms.
fn template_operands(ops: &[TplOp]) -> Cow<'static, [TemplateOperand]> {
    ops.iter()
        .map(|o| match *o {
            TplOp::Reg => TemplateOperand::Reg,
            TplOp::Src => TemplateOperand::Src,
            TplOp::Slot => TemplateOperand::Slot,
            TplOp::Imm(v) => TemplateOperand::Imm(v),
            TplOp::Fixed(r) => TemplateOperand::Fixed(Reg(r as u32)),
            TplOp::NoReg => TemplateOperand::NoReg,
            TplOp::RegSub(i) => TemplateOperand::RegSub(SubRegIndex(i as u32)),
            TplOp::SrcSub(i) => TemplateOperand::SrcSub(SubRegIndex(i as u32)),
        })
        .collect()
}

/// A spill, reload or copy template in `regalloc`'s terms.
fn template(t: &TemplateRow) -> InstrTemplate<'static> {
    InstrTemplate {
        opcode: Opcode(t.opcode),
        operands: template_operands(&t.operands),
    }
}

/// A class's choices of one kind in `regalloc`'s terms.
fn choices(v: &[ChoiceRow]) -> Cow<'static, [TemplateChoice<'static>]> {
    v.iter()
        .map(|c| TemplateChoice {
            features: FeatureSet(c.features),
            template: template(&c.template),
            unaligned: c.unaligned.as_ref().map(template),
        })
        .collect()
}

/// Copies tables into an owned `TargetInfo`.
pub fn from_tables(t: &Tables) -> Result<TargetInfo<'static>, String> {
    let mut classes = Vec::with_capacity(t.classes.len());
    for c in &t.classes {
        let order_select = c
            .order_select
            .as_ref()
            .map(|f| interpreted(&f.tree, &t.features));
        classes.push(RegClassDesc {
            name: Cow::Owned(c.name.clone()),
            members: regs(&c.members),
            member_bits: Cow::Owned(c.member_bits.clone()),
            orders: Cow::Owned(c.orders.iter().map(|o| regs(o)).collect()),
            order_select,
            order_policy: if c.as_written {
                AllocOrderPolicy::AsWritten
            } else {
                AllocOrderPolicy::CalleeSavedLast
            },
            reg_size: c.reg_size,
            spill_size: c.spill_size,
            spill_align: c.spill_align,
            mode_sizes: c
                .mode_sizes
                .iter()
                .map(|&(reg_size, spill_size, spill_align)| ClassSizes {
                    reg_size,
                    spill_size,
                    spill_align,
                })
                .collect(),
            copy_cost: c.copy_cost,
            allocatable: c.allocatable,
            priority: c.priority,
            lane_mask: LaneMask(c.lane_mask),
            sub_classes: Cow::Owned(c.sub_classes.clone()),
            super_classes: Cow::Owned(c.super_classes.clone()),
            sub_class_with_sub_reg: Cow::Owned(
                c.sub_class_with_sub_reg
                    .iter()
                    .map(|x| x.map(RegClass))
                    .collect(),
            ),
            super_reg_classes: Cow::Owned(
                c.super_reg_classes
                    .iter()
                    .map(|&(i, d)| (SubRegIndex(i), RegClass(d)))
                    .collect(),
            ),
            spill: choices(&c.spill),
            reload: choices(&c.reload),
            copy: choices(&c.copy),
            spill_stack_id: Cow::Owned(c.stack_id.clone()),
            cannot_spill: c.cannot_spill.clone().map(Cow::Owned),
        });
    }
    Ok(TargetInfo {
        name: Cow::Owned(t.name.clone()),
        regs: Cow::Owned(
            t.regs
                .iter()
                .map(|r| RegisterDesc {
                    name: Cow::Owned(r.name.clone()),
                    encoding: r.encoding,
                    sub_regs: Cow::Owned(
                        r.sub_regs
                            .iter()
                            .map(|&(i, s)| (SubRegIndex(i), Reg(s)))
                            .collect(),
                    ),
                    super_regs: regs(&r.super_regs),
                    units: Cow::Owned(r.units.iter().map(|&u| RegUnit(u)).collect()),
                    unit_lanes: Cow::Owned(r.unit_lanes.iter().map(|&m| LaneMask(m)).collect()),
                    cost_per_use: r.cost_per_use,
                    flags: RegFlags(r.flags),
                })
                .collect(),
        ),
        units: Cow::Owned(
            t.units
                .iter()
                .map(|&(a, b)| RegUnitDesc {
                    root: Reg(a),
                    root2: b.map(Reg),
                })
                .collect(),
        ),
        sub_reg_indices: Cow::Owned(
            t.indices
                .iter()
                .map(|x| SubRegIndexDesc {
                    name: Cow::Owned(x.name.clone()),
                    size: x.size,
                    offset: x.offset,
                    lane_mask: LaneMask(x.lane_mask),
                })
                .collect(),
        ),
        sub_reg_compose: Cow::Owned(t.compose.iter().map(|c| c.map(SubRegIndex)).collect()),
        classes: Cow::Owned(classes),
        callee_saved: Cow::Owned(
            t.callee_saved
                .iter()
                .map(|c| CalleeSavedDesc {
                    name: Cow::Owned(c.name.clone()),
                    saves: regs(&c.saves),
                    mask: Cow::Owned(c.mask.clone()),
                })
                .collect(),
        ),
        reserved: Cow::Owned(t.reserved.clone()),
        frame_pointer: Cow::Owned(t.frame_pointer.clone()),
        frame_pointer_in_non_leaf: t.frame_pointer_in_non_leaf,
        stack_alignment: t.stack_alignment,
        base_pointer: Cow::Owned(t.base_pointer.clone()),
        base_pointer_frame_size: t.base_pointer_frame_size,
        spill_realign_needs_frame_pointer: t.spill_realign_needs_frame_pointer,
        join_global_copies: t.join_global_copies,
        tracks_sub_reg_liveness: t.tracks_sub_reg_liveness,
        reserved_without: t
            .reserved_without
            .iter()
            .map(|(fs, regs)| ReservedWithout {
                features: FeatureSet(*fs),
                regs: Cow::Owned(regs.clone()),
            })
            .collect(),
        untracked: Cow::Owned(t.untracked.clone()),
        features: t
            .features
            .iter()
            .map(|(name, implies)| FeatureDesc {
                name: Cow::Owned(name.clone()),
                implies: FeatureSet(*implies),
            })
            .collect(),
        hw_modes: t
            .hw_modes
            .iter()
            .map(|(name, requires, excludes)| HwModeDesc {
                name: Cow::Owned(name.clone()),
                requires: FeatureSet(*requires),
                excludes: FeatureSet(*excludes),
            })
            .collect(),
        instrs: Cow::Owned(
            t.instrs
                .iter()
                .map(|i| InstrDesc {
                    name: Cow::Owned(i.name.clone()),
                    operands: Cow::Owned(
                        i.operands
                            .iter()
                            .map(|o| OperandDesc {
                                name: Cow::Owned(o.name.clone()),
                                kind: match o.kind {
                                    TdKind::Register => OperandKind::Register,
                                    TdKind::Immediate => OperandKind::Immediate,
                                    TdKind::Block => OperandKind::Block,
                                    TdKind::Other => OperandKind::Other,
                                },
                                class: o.class.map(RegClass),
                                is_def: o.is_def,
                                tied_to: o.tied_to,
                                early_clobber: o.early_clobber,
                            })
                            .collect(),
                    ),
                    num_defs: i.num_defs,
                    implicit_defs: regs(&i.implicit_defs),
                    implicit_uses: regs(&i.implicit_uses),
                    flags: InstrFlags(i.flags),
                })
                .collect(),
        ),
        memory_folds: t
            .folds
            .iter()
            .map(|f| MemoryFoldDesc {
                reg_form: Opcode(f.reg_form),
                operand: f.operand,
                also: f.also,
                mem_form: Opcode(f.mem_form),
                address: template_operands(&f.address),
                little_endian: f.little_endian,
            })
            .collect(),
        unconditional_branch: t.unconditional_branch.map(Opcode),
        conditional_branches: t
            .conditional_branches
            .iter()
            .map(|b| ConditionalBranchDesc {
                branch: Opcode(b.branch),
                reverse: b.reverse.map(|(inverse, condition)| BranchReversal {
                    inverse: Opcode(inverse),
                    condition,
                }),
            })
            .collect(),
        jump_table_branches: t.jump_table_branches.iter().map(|&b| Opcode(b)).collect(),
        commute_rules: t
            .commute_rules
            .iter()
            .map(|r| CommuteRuleDesc {
                instr: Opcode(r.instr),
                commutes: r.commutes,
                condition: r.condition,
            })
            .collect(),
        three_address_forms: t
            .three_address_forms
            .iter()
            .map(|r| ThreeAddressDesc {
                two_address: Opcode(r.two_address),
                three_address: Opcode(r.three_address),
                operands: r
                    .operands
                    .iter()
                    .map(|&p| three_address_operand(p))
                    .collect(),
                immediate: r.immediate,
                new_register_order: Cow::Owned(r.new_register_order.clone()),
            })
            .collect(),
    })
}

/// One operand of a three-address form, as the allocator's table holds it
/// (operand positions were checked to fit in a byte by the emitter).
fn three_address_operand(p: Piece) -> ThreeAddressOperand {
    let k = |k: usize| u8::try_from(k).unwrap_or(u8::MAX);
    let class = |c: usize| RegClass(c as u32);
    let index = |i: usize| SubRegIndex(i as u32);
    match p {
        Piece::Def => ThreeAddressOperand::Def,
        Piece::Operand(j) => ThreeAddressOperand::Operand(k(j)),
        Piece::Constrained(j, c) => ThreeAddressOperand::Constrained(k(j), class(c)),
        Piece::Negated(j, bits) => ThreeAddressOperand::Negated(k(j), bits),
        Piece::Widen(j, c, i) => ThreeAddressOperand::Widened(k(j), class(c), index(i)),
        Piece::Insert(j, c, i) => ThreeAddressOperand::Inserted(k(j), class(c), index(i)),
        Piece::Result(c, i) => ThreeAddressOperand::Result(class(c), index(i)),
        Piece::Imm(v) => ThreeAddressOperand::Imm(v),
        Piece::NoReg => ThreeAddressOperand::NoReg,
        Piece::Fixed(r) => ThreeAddressOperand::Fixed(Reg(r as u32)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_interpreted_selector_asks_for_features_by_bit() {
        use tdgen::emit::select::Expr;
        let value = |n| Block {
            stmts: Vec::new(),
            tail: Some(Box::new(Expr::Int(n))),
        };
        // if func.has_feature("c") && !func.has_calls() { 1 } else { 0 }
        let tree = Block {
            stmts: Vec::new(),
            tail: Some(Box::new(Expr::If(
                Box::new(Expr::Binary(
                    tdgen::emit::select::BinOp::And,
                    Box::new(Expr::Feature("c".into())),
                    Box::new(Expr::Not(Box::new(Expr::Fact(Fact::Calls)))),
                )),
                value(1),
                Some(Box::new(Expr::Block(value(0)))),
            ))),
        };
        let features = [("m".to_string(), 1), ("c".to_string(), 2)];
        let s = interpreted(&tree, &features);
        let f = |bits, has_calls| FunctionInfo {
            features: FeatureSet(bits),
            has_calls,
            ..FunctionInfo::default()
        };
        assert_eq!(s.select(&f(0b10, false)), 1);
        assert_eq!(s.select(&f(0b01, false)), 0);
        assert_eq!(s.select(&f(0b10, true)), 0);
    }

    #[test]
    fn missing_file_is_an_error_value() {
        let e = load("/nonexistent/x.td", &[]).unwrap_err();
        assert!(e.contains("cannot read"), "{e}");
    }
}
