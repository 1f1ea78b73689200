//! The tables a target model turns into: plain numbers and names, laid out exactly as `regalloc::target::TargetInfo` wants them.
//!
//! Both ways out of tdgen start here: the emitter prints these rows as Rust
//! (`static` arrays), and the run-time bridge (`regalloc-td`) copies them into
//! an owned `TargetInfo`. Computing every derived value once, in this one
//! place, is what makes the two results equal field by field.

use super::fragment::{self, Fragment};
use crate::diag::{Diagnostic, Kind, Span};
use crate::records::RecordKeeper;
use crate::target::TargetModel;
use crate::target::features::{FeatureBits, MAX_TABLE_FEATURES};
use crate::target::instrs::{OperandKind, TplOp};
use crate::target::regs::UNKNOWN;
use crate::target::three_address::Piece;
use std::path::Path;

/// A bit set over table indices as `u32` words (the layout of `regalloc::target::bits`).
pub type BitSet = Vec<u32>;

/// A bit set of `n` bits with exactly `items` set.
pub fn bitset(n: usize, items: impl IntoIterator<Item = usize>) -> BitSet {
    let mut w = vec![0u32; n.div_ceil(32)];
    for i in items {
        if let Some(x) = w.get_mut(i / 32) {
            *x |= 1 << (i % 32);
        }
    }
    w
}

/// Register flag bits (the values of `regalloc::target::RegFlags`).
pub mod reg_flags {
    /// `isConstant`.
    pub const CONSTANT: u8 = 1;
    /// `isArtificial`.
    pub const ARTIFICIAL: u8 = 2;
}

/// One physical register (`RegisterDesc`).
#[derive(Clone, Debug, PartialEq)]
pub struct RegRow {
    /// Name.
    pub name: String,
    /// `HWEncoding`.
    pub encoding: u16,
    /// Every sub-register by index, sorted by index.
    pub sub_regs: Vec<(u32, u32)>,
    /// Super-registers, nearest first.
    pub super_regs: Vec<u32>,
    /// Native register units, sorted.
    pub units: Vec<u32>,
    /// Lane mask of each unit within the register.
    pub unit_lanes: Vec<u64>,
    /// `CostPerUse` (default mode).
    pub cost_per_use: u8,
    /// [`reg_flags`] bits.
    pub flags: u8,
    /// `file:line` of the definition.
    pub loc: String,
}

/// One sub-register index (`SubRegIndexDesc`).
#[derive(Clone, Debug, PartialEq)]
pub struct IndexRow {
    /// Name.
    pub name: String,
    /// Size in bits, if known.
    pub size: Option<u16>,
    /// Offset in bits, if known.
    pub offset: Option<u16>,
    /// Lane mask.
    pub lane_mask: u64,
    /// `file:line` of the definition, or a note that it was synthesized.
    pub loc: String,
}

/// One register class (`RegClassDesc`).
#[derive(Clone, Debug, PartialEq)]
pub struct ClassRow {
    /// Name.
    pub name: String,
    /// Members in register order.
    pub members: Vec<u32>,
    /// Members as a bit set over registers.
    pub member_bits: BitSet,
    /// Allocation order 0 and the alternative orders.
    pub orders: Vec<Vec<u32>>,
    /// `AltOrderSelect`, when the class has alternative orders and a non-empty fragment.
    pub order_select: Option<Fragment>,
    /// `KeepCalleeSavedOrder = 1`: the order is used as written.
    pub as_written: bool,
    /// Register size in bits.
    pub reg_size: u32,
    /// Spill size in bytes.
    pub spill_size: u32,
    /// Spill alignment in bytes.
    pub spill_align: u32,
    /// `CopyCost`.
    pub copy_cost: i32,
    /// `isAllocatable`.
    pub allocatable: bool,
    /// `AllocationPriority`.
    pub priority: u8,
    /// LLVM's class lane mask (lane 0 for classes without sub-registers).
    pub lane_mask: u64,
    /// Sub-classes including itself, over classes.
    pub sub_classes: BitSet,
    /// Super-classes including itself, over classes.
    pub super_classes: BitSet,
    /// Per index, the largest sub-class with that sub-register; empty when none has any.
    pub sub_class_with_sub_reg: Vec<Option<u32>>,
    /// `(index, class)` pairs: the classes whose sub-registers by the index lie here, sorted.
    pub super_reg_classes: Vec<(u32, u32)>,
    /// `file:line` of the definition, or of the class it was inferred from.
    pub loc: String,
    /// Inferred by tdgen rather than defined.
    pub inferred: bool,
    /// Sizes per HW mode (register bits, spill bytes, alignment bytes);
    /// empty when the target has one mode.
    pub mode_sizes: Vec<(u32, u32, u32)>,
    /// Spill store templates (own or inherited), most specific first.
    pub spill: Vec<ChoiceRow>,
    /// Reload templates (own or inherited), most specific first.
    pub reload: Vec<ChoiceRow>,
    /// Copy templates (own or inherited), most specific first.
    pub copy: Vec<ChoiceRow>,
    /// The stack spill slots live in (`default`, `scalable-vector`).
    pub stack_id: String,
    /// Why the class cannot be spilled (`CannotSpill`).
    pub cannot_spill: Option<String>,
}

/// One template choice (`TemplateChoice`).
#[derive(Clone, Debug, PartialEq)]
pub struct ChoiceRow {
    /// The features a function needs (bits of [`Tables::features`]).
    pub features: u64,
    /// The template.
    pub template: TemplateRow,
    /// The form for a slot with only the stack's alignment.
    pub unaligned: Option<TemplateRow>,
}

/// A spill/reload/copy template (`InstrTemplate`).
#[derive(Clone, Debug, PartialEq)]
pub struct TemplateRow {
    /// Opcode (index into [`Tables::instrs`]).
    pub opcode: u32,
    /// Operands with placeholders; registers as register indices.
    pub operands: Vec<TplOp>,
}

/// A memory-operand fold (`MemoryFoldDesc`).
#[derive(Clone, Debug, PartialEq)]
pub struct FoldRow {
    /// The instruction naming a register.
    pub reg_form: u32,
    /// The folded operand's index.
    pub operand: u8,
    /// For a folded definition tied to a use, that use's index.
    pub also: Option<u8>,
    /// The instruction accessing memory instead.
    pub mem_form: u32,
    /// The address operands with placeholders.
    pub address: Vec<TplOp>,
    /// A use of a sub-register at bit offset 0 folds too.
    pub little_endian: bool,
}

/// One explicit operand (`OperandDesc`).
#[derive(Clone, Debug, PartialEq)]
pub struct OperandRow {
    /// Name without `$`.
    pub name: String,
    /// What it holds.
    pub kind: OperandKind,
    /// Register class index.
    pub class: Option<u32>,
    /// A definition.
    pub is_def: bool,
    /// The definition a use is tied to.
    pub tied_to: Option<u8>,
    /// `@earlyclobber`.
    pub early_clobber: bool,
}

/// One instruction (`InstrDesc`).
#[derive(Clone, Debug, PartialEq)]
pub struct InstrRow {
    /// Opcode name.
    pub name: String,
    /// Explicit operands, definitions first.
    pub operands: Vec<OperandRow>,
    /// Number of definitions.
    pub num_defs: u8,
    /// `Defs`.
    pub implicit_defs: Vec<u32>,
    /// `Uses`.
    pub implicit_uses: Vec<u32>,
    /// Flag bits (`crate::target::instrs::flags`, the values of `InstrFlags`).
    pub flags: u32,
    /// `file:line` of the definition.
    pub loc: String,
}

/// One callee-saved set (`CalleeSavedDesc`).
#[derive(Clone, Debug, PartialEq)]
pub struct CsrRow {
    /// Name.
    pub name: String,
    /// Save list in order.
    pub saves: Vec<u32>,
    /// Preserved registers as a bit set over registers.
    pub mask: BitSet,
    /// `file:line` of the definition.
    pub loc: String,
}

/// Every table of one target.
#[derive(Clone, Debug, PartialEq)]
pub struct Tables {
    /// Target name, lower case (`bpf`, `x86`).
    pub name: String,
    /// The `.td` file the tables came from, as shown in comments.
    pub source: String,
    /// Registers.
    pub regs: Vec<RegRow>,
    /// Register units: first and optional second root.
    pub units: Vec<(u32, Option<u32>)>,
    /// Sub-register indices.
    pub indices: Vec<IndexRow>,
    /// Composition, `n x n` row-major.
    pub compose: Vec<Option<u32>>,
    /// Register classes.
    pub classes: Vec<ClassRow>,
    /// Callee-saved sets.
    pub callee_saved: Vec<CsrRow>,
    /// Registers reserved in every function, as a bit set (closed under overlap).
    pub reserved: BitSet,
    /// Registers reserved in a function that keeps a frame pointer, as a bit set.
    pub frame_pointer: BitSet,
    /// Every function with calls keeps a frame pointer.
    pub frame_pointer_in_non_leaf: bool,
    /// The stack alignment in bytes beyond which a frame is realigned
    /// (0: never).
    pub stack_alignment: u32,
    /// Registers reserved in a function that needs a base pointer, as a bit set.
    pub base_pointer: BitSet,
    /// With variable-sized objects, a local frame this large needs the base
    /// pointer (0: only realignment does).
    pub base_pointer_frame_size: u32,
    /// Spill slots are aligned beyond the stack only in functions that
    /// keep a frame pointer from the start.
    pub spill_realign_needs_frame_pointer: bool,
    /// The register coalescer holds back copies local to a block
    /// (`PreAllocationPolicy`'s `JoinGlobalCopies`).
    pub join_global_copies: bool,
    /// Liveness follows sub-register lanes (`PreAllocationPolicy`'s
    /// `TracksSubRegLiveness`).
    pub tracks_sub_reg_liveness: bool,
    /// Registers reserved in a function lacking some of a feature set, as
    /// (features, bit set over registers).
    pub reserved_without: Vec<(u64, BitSet)>,
    /// Registers data-flow analyses leave untracked beyond the reserved
    /// ones, as a bit set (closed under super-registers).
    pub untracked: BitSet,
    /// Subtarget features: name and the set it turns on.
    pub features: Vec<(String, u64)>,
    /// HW modes (name, required features, excluded features), the default
    /// mode first; empty when the target has only the default mode.
    pub hw_modes: Vec<(String, u64, u64)>,
    /// Instructions, in opcode order.
    pub instrs: Vec<InstrRow>,
    /// Memory-operand folds, sorted by register form and operand.
    pub folds: Vec<FoldRow>,
    /// The direct unconditional branch's opcode, if named.
    pub unconditional_branch: Option<u32>,
    /// Conditional branches, in opcode order.
    pub conditional_branches: Vec<BranchRow>,
    /// Commuting rules, in opcode order.
    pub commute_rules: Vec<CommuteRow>,
    /// Jump-table branches whose edges are split by rewriting the table,
    /// in opcode order.
    pub jump_table_branches: Vec<u32>,
    /// Three-address forms, by two-address opcode.
    pub three_address_forms: Vec<ThreeAddressRow>,
}

/// One row of the three-address conversion table (`ThreeAddressDesc`).
#[derive(Clone, Debug, PartialEq)]
pub struct ThreeAddressRow {
    /// The two-address instruction's opcode.
    pub two_address: u32,
    /// The opcode emitted in its place.
    pub three_address: u32,
    /// Its operands (classes, sub-register indices and registers by index).
    pub operands: Vec<Piece>,
    /// The two-address form's immediate operand and the value it must hold.
    pub immediate: Option<(u8, i64)>,
    /// Positions of the new registers in `operands`, in the order made.
    pub new_register_order: Vec<u8>,
}

/// One row of the commuting-rule table.
#[derive(Clone, Debug, PartialEq)]
pub struct CommuteRow {
    /// The instruction's opcode.
    pub instr: u32,
    /// Whether swapping its two uses commutes it.
    pub commutes: bool,
    /// The condition operand (index, XOR) the swap reverses.
    pub condition: Option<(u8, i64)>,
}

/// One row of the conditional-branch table.
#[derive(Clone, Debug, PartialEq)]
pub struct BranchRow {
    /// The branch's opcode.
    pub branch: u32,
    /// The opposite branch's opcode and the condition operand (index,
    /// XOR), or `None` when the branch cannot be reversed.
    pub reverse: Option<(u32, Option<(u8, i64)>)>,
}

/// Shows `file:line` for a span, the file relative to `base` when it lies under it, else its file name.
pub fn loc_string(rk: &RecordKeeper, base: Option<&Path>, span: Span) -> String {
    if (span.file.0 as usize) >= rk.sources.len() {
        return "<unknown>".to_string();
    }
    let f = rk.sources.file(span.file);
    let shown = display_path(&f.name, base);
    format!("{}:{}", shown, f.line_of(span.start))
}

/// A path as shown in generated comments: as given when relative, relative to `base` if under it, else its last component.
pub fn display_path(name: &str, base: Option<&Path>) -> String {
    let p = Path::new(name);
    if p.is_relative() {
        return name.replace('\\', "/");
    }
    if let Some(rel) = base.and_then(|b| p.strip_prefix(b).ok()) {
        return rel.to_string_lossy().replace('\\', "/");
    }
    p.file_name()
        .map_or_else(|| name.to_string(), |n| n.to_string_lossy().into_owned())
}

fn narrow<T: TryFrom<i64>>(
    v: i64,
    what: &str,
    name: &str,
    span: Span,
    diags: &mut Vec<Diagnostic>,
) -> Option<T> {
    match T::try_from(v) {
        Ok(x) => Some(x),
        Err(_) => {
            diags.push(Diagnostic::error(
                Kind::Semantic,
                span,
                format!("{what} of '{name}' is {v}, which does not fit the allocator's table"),
            ));
            None
        }
    }
}

/// The checked `AltOrderSelect` of class `c`, when it has one: its code
/// is in the language, names the target's features and picks only orders
/// the class has. A fragment without `AltOrders` is an error (it could
/// only pick order 0). Classes tdgen infers inherit their super-class's
/// fragment and orders, so only defs are checked, once.
fn order_select(
    rk: &RecordKeeper,
    m: &TargetModel,
    c: &crate::target::classes::RegClass,
    diags: &mut Vec<Diagnostic>,
) -> Option<Fragment> {
    if c.alt_order_select.trim().is_empty() {
        return None;
    }
    let checked = fragment::check(rk, c.def, c.loc, &c.alt_order_select).and_then(|f| {
        if c.def.is_some() && c.orders.len() < 2 {
            return Err(Diagnostic::error(
                Kind::Semantic,
                f.span,
                format!("class '{}' has an AltOrderSelect but no AltOrders", c.name),
            )
            .with_label("this code picks among orders the class does not have")
            .with_help("add `let AltOrders = [...]` to the class, or remove the AltOrderSelect"));
        }
        fragment::check_orders(&f, &c.name, c.orders.len(), &m.features)?;
        Ok(f)
    });
    match checked {
        // A class with one order needs no selector.
        Ok(f) => (c.orders.len() > 1).then_some(f),
        Err(d) => {
            if c.def.is_some() {
                diags.push(d);
            }
            None
        }
    }
}

/// The allocator's `FeatureSet` is one `u64`: a target naming more
/// features than that is an error here, where tables are laid
/// out for it (reading the model, `tdgen regs` and `records` have no limit).
fn too_many_features(rk: &RecordKeeper, m: &TargetModel, diags: &mut Vec<Diagnostic>) {
    let list = &m.features.list;
    if list.len() <= MAX_TABLE_FEATURES {
        return;
    }
    let at = list[MAX_TABLE_FEATURES]
        .def
        .and_then(|d| rk.get(d).locs.first().copied())
        .unwrap_or_default();
    diags.push(
        Diagnostic::error(
            Kind::Semantic,
            at,
            format!(
                "the target names {} subtarget features; the allocator's tables hold {MAX_TABLE_FEATURES}",
                list.len()
            ),
        )
        .with_help("declare only the features that spill templates or HW modes depend on"),
    );
}

fn u32s(v: impl IntoIterator<Item = usize>) -> Vec<u32> {
    v.into_iter().map(|x| x as u32).collect()
}

impl Tables {
    /// Lays out a model's tables; `base` is the directory locations are shown relative to.
    ///
    /// Errors: values that do not fit the tables' integer types, and
    /// `[{ }]` fragments that are not Rust.
    pub fn from_model(
        rk: &RecordKeeper,
        m: &TargetModel,
        base: Option<&Path>,
    ) -> Result<Tables, Vec<Diagnostic>> {
        let b = &m.bank;
        let mut diags = Vec::new();
        let loc = |s: Span| loc_string(rk, base, s);
        let def_span =
            |d: crate::records::RecId| rk.get(d).locs.first().copied().unwrap_or_default();
        let (nr, nc, ni) = (b.regs.len(), m.classes.list.len(), b.indices.len());
        too_many_features(rk, m, &mut diags);
        // Past the limit every set is written empty: the error above stops the output.
        let word = |set: &FeatureBits| set.to_u64().unwrap_or(0);

        let mut regs = Vec::with_capacity(nr);
        for reg in &b.regs {
            let encoding = narrow(
                reg.hw_encoding,
                "HWEncoding",
                &reg.name,
                reg.loc,
                &mut diags,
            )
            .unwrap_or(0);
            let cost = reg.cost_per_use.first().copied().unwrap_or(0);
            let cost_per_use =
                narrow(cost, "CostPerUse", &reg.name, reg.loc, &mut diags).unwrap_or(0);
            let units: Vec<u32> = reg.native_units.iter().copied().collect();
            // LLVM's RegUnitLaneMasks: the lanes of the leaf sub-registers
            // holding each unit; "none" means the whole register, which the
            // allocator's tables spell as all lanes.
            let unit_lanes = units
                .iter()
                .map(|u| {
                    let m = reg
                        .subregs
                        .iter()
                        .filter(|&(_, &s)| {
                            b.regs[s].subregs.is_empty() && b.regs[s].native_units.contains(u)
                        })
                        .fold(0u64, |m, (&i, _)| m | b.indices[i].lane_mask);
                    if m == 0 { u64::MAX } else { m }
                })
                .collect();
            let mut flags = 0;
            if reg.constant {
                flags |= reg_flags::CONSTANT;
            }
            if reg.artificial {
                flags |= reg_flags::ARTIFICIAL;
            }
            regs.push(RegRow {
                name: reg.name.clone(),
                encoding,
                sub_regs: reg
                    .subregs
                    .iter()
                    .map(|(&i, &s)| (i as u32, s as u32))
                    .collect(),
                super_regs: u32s(reg.super_regs.iter().copied()),
                units,
                unit_lanes,
                cost_per_use,
                flags,
                loc: loc(reg.loc),
            });
        }

        let units = b.units[..b.num_native_units]
            .iter()
            .map(|u| {
                (
                    u.roots.first().copied().unwrap_or(0) as u32,
                    u.roots.get(1).map(|&r| r as u32),
                )
            })
            .collect();

        let known = |v: i64| (v & UNKNOWN != UNKNOWN && v >= 0).then_some((v & UNKNOWN) as u16);
        let indices = b
            .indices
            .iter()
            .map(|x| {
                let (size, offset) = x.range.first().copied().unwrap_or((UNKNOWN, UNKNOWN));
                IndexRow {
                    name: x.name.clone(),
                    size: known(size),
                    offset: known(offset),
                    lane_mask: x.lane_mask,
                    loc: x
                        .def
                        .map_or_else(|| "synthesized by tdgen".to_string(), |d| loc(def_span(d))),
                }
            })
            .collect();

        let mut compose = vec![None; ni * ni];
        for (a, x) in b.indices.iter().enumerate() {
            for (&bi, &c) in &x.composites {
                if bi < ni {
                    compose[a * ni + bi] = Some(c as u32);
                }
            }
        }

        let row = |t: &crate::target::templates::Template| TemplateRow {
            opcode: t.opcode as u32,
            operands: t.operands.clone(),
        };
        let choices = |v: &[crate::target::templates::Choice]| -> Vec<ChoiceRow> {
            v.iter()
                .map(|c| ChoiceRow {
                    features: word(&c.features),
                    template: row(&c.template),
                    unaligned: c.unaligned.as_ref().map(row),
                })
                .collect()
        };
        let mut instrs = Vec::with_capacity(m.instrs.list.len());
        for i in &m.instrs.list {
            if i.operands.len() > 255 {
                diags.push(Diagnostic::error(
                    Kind::Semantic,
                    i.loc,
                    format!(
                        "instruction '{}' has {} machine operands; the allocator's table allows 255",
                        i.name,
                        i.operands.len()
                    ),
                ));
                continue;
            }
            instrs.push(InstrRow {
                name: i.name.clone(),
                operands: i
                    .operands
                    .iter()
                    .map(|o| OperandRow {
                        name: o.name.clone(),
                        kind: o.kind,
                        class: o.class.map(|c| c as u32),
                        is_def: o.is_def,
                        tied_to: o.tied_to.map(|t| t as u8),
                        early_clobber: o.early_clobber,
                    })
                    .collect(),
                num_defs: i.num_defs as u8,
                implicit_defs: u32s(i.implicit_defs.iter().copied()),
                implicit_uses: u32s(i.implicit_uses.iter().copied()),
                flags: i.flags,
                loc: loc(i.loc),
            });
        }

        let mut classes = Vec::with_capacity(nc);
        for (id, c) in m.classes.list.iter().enumerate() {
            let (rs, ss, sa) = c.sizes.first().copied().unwrap_or((0, 0, 0));
            let order_select = order_select(rk, m, c, &mut diags);
            let mut lane_mask = c
                .sub_class_with_subreg
                .keys()
                .fold(0u64, |m, &i| m | b.indices[i].lane_mask);
            if lane_mask == 0 {
                lane_mask = 1;
            }
            let mut sub_class_with_sub_reg: Vec<Option<u32>> = (0..ni)
                .map(|i| c.sub_class_with_subreg.get(&i).map(|&s| s as u32))
                .collect();
            if sub_class_with_sub_reg.iter().all(Option::is_none) {
                sub_class_with_sub_reg.clear();
            }
            let super_reg_classes: Vec<(u32, u32)> = (0..ni)
                .flat_map(|i| {
                    let mut set: Vec<usize> = c
                        .super_reg_classes
                        .get(&i)
                        .into_iter()
                        .flatten()
                        .copied()
                        .collect();
                    set.sort_unstable();
                    set.dedup();
                    set.into_iter().map(move |d| (i as u32, d as u32))
                })
                .collect();
            let name = &c.name;
            classes.push(ClassRow {
                name: name.clone(),
                members: u32s(c.members.iter().copied()),
                member_bits: bitset(nr, c.members.iter().copied()),
                orders: c.orders.iter().map(|o| u32s(o.iter().copied())).collect(),
                order_select,
                as_written: c.keep_callee_saved_order == Some(true),
                reg_size: narrow(rs, "register size", name, c.loc, &mut diags).unwrap_or(0),
                spill_size: narrow(ss / 8, "spill size", name, c.loc, &mut diags).unwrap_or(0),
                spill_align: narrow(sa / 8, "spill alignment", name, c.loc, &mut diags)
                    .unwrap_or(0),
                copy_cost: narrow(c.copy_cost, "CopyCost", name, c.loc, &mut diags).unwrap_or(0),
                allocatable: c.allocatable,
                priority: narrow(
                    c.allocation_priority,
                    "AllocationPriority",
                    name,
                    c.loc,
                    &mut diags,
                )
                .unwrap_or(0),
                lane_mask,
                sub_classes: bitset(nc, c.sub_classes.iter().copied().chain([id])),
                super_classes: bitset(nc, c.super_classes.iter().copied().chain([id])),
                sub_class_with_sub_reg,
                super_reg_classes,
                loc: loc(c.loc),
                inferred: c.def.is_none(),
                mode_sizes: if b.modes.len() > 1 {
                    c.sizes
                        .iter()
                        .map(|&(rs, ss, sa)| {
                            (
                                narrow(rs, "register size", name, c.loc, &mut diags).unwrap_or(0),
                                narrow(ss / 8, "spill size", name, c.loc, &mut diags).unwrap_or(0),
                                narrow(sa / 8, "spill alignment", name, c.loc, &mut diags)
                                    .unwrap_or(0),
                            )
                        })
                        .collect()
                } else {
                    Vec::new()
                },
                spill: choices(&m.templates.per_class[id].spill),
                reload: choices(&m.templates.per_class[id].reload),
                copy: choices(&m.templates.per_class[id].copy),
                stack_id: m.templates.per_class[id].stack_id.clone(),
                cannot_spill: m.templates.per_class[id].cannot_spill.clone(),
            });
        }

        let callee_saved = m
            .callee_saved
            .iter()
            .map(|c| CsrRow {
                name: c.name.clone(),
                saves: u32s(c.save_list.iter().copied()),
                mask: bitset(nr, c.mask.iter().copied()),
                loc: loc(def_span(c.def)),
            })
            .collect();

        if !diags.is_empty() {
            return Err(diags);
        }
        let name = if m.target.is_empty() {
            m.namespace.to_lowercase()
        } else {
            m.target.to_lowercase()
        };
        // The root file is loaded first, so it is file 0.
        let source = if rk.sources.is_empty() {
            String::new()
        } else {
            display_path(&rk.sources.file(crate::diag::FileId(0)).name, base)
        };
        Ok(Tables {
            name,
            source,
            regs,
            units,
            indices,
            compose,
            classes,
            callee_saved,
            reserved: bitset(nr, m.reserved.always.iter().copied()),
            frame_pointer: bitset(nr, m.reserved.frame_pointer.iter().copied()),
            frame_pointer_in_non_leaf: m.reserved.frame_pointer_in_non_leaf,
            stack_alignment: m.reserved.stack_alignment,
            base_pointer: bitset(nr, m.reserved.base_pointer.iter().copied()),
            base_pointer_frame_size: m.reserved.base_pointer_frame_size,
            spill_realign_needs_frame_pointer: m.reserved.spill_realign_needs_frame_pointer,
            join_global_copies: m.pre_allocation.join_global_copies,
            tracks_sub_reg_liveness: m.pre_allocation.tracks_sub_reg_liveness,
            reserved_without: m
                .reserved
                .without_features
                .iter()
                .map(|(fs, regs)| (word(fs), bitset(nr, regs.iter().copied())))
                .collect(),
            untracked: bitset(nr, m.reserved.untracked.iter().copied()),
            features: m
                .features
                .list
                .iter()
                .map(|f| (f.name.clone(), word(&f.implies)))
                .collect(),
            hw_modes: if b.modes.len() > 1 {
                b.modes
                    .iter()
                    .zip(&m.features.modes)
                    .map(|(n, f)| (n.clone(), word(&f.requires), word(&f.excludes)))
                    .collect()
            } else {
                Vec::new()
            },
            instrs,
            folds: m
                .folds
                .iter()
                .map(|f| FoldRow {
                    reg_form: f.reg_form as u32,
                    // Instructions with more than 255 operands were refused above.
                    operand: u8::try_from(f.operand).unwrap_or(u8::MAX),
                    also: f.also.map(|u| u8::try_from(u).unwrap_or(u8::MAX)),
                    mem_form: f.mem_form as u32,
                    address: f.address.clone(),
                    little_endian: f.little_endian,
                })
                .collect(),
            unconditional_branch: m.branches.unconditional.map(|b| b as u32),
            conditional_branches: m
                .branches
                .conditional
                .iter()
                .map(|c| BranchRow {
                    branch: c.branch as u32,
                    reverse: c.reverse.as_ref().map(|r| {
                        (
                            r.inverse as u32,
                            // Instructions with more than 255 operands were refused above.
                            r.condition
                                .map(|(k, x)| (u8::try_from(k).unwrap_or(u8::MAX), x)),
                        )
                    }),
                })
                .collect(),
            jump_table_branches: m.branches.jump_table.iter().map(|&b| b as u32).collect(),
            commute_rules: m
                .commute_rules
                .iter()
                .map(|r| CommuteRow {
                    instr: r.instr as u32,
                    commutes: r.commutes,
                    // Instructions with more than 255 operands were refused above.
                    condition: r
                        .condition
                        .map(|(k, x)| (u8::try_from(k).unwrap_or(u8::MAX), x)),
                })
                .collect(),
            three_address_forms: m
                .three_address_forms
                .iter()
                .map(|r| ThreeAddressRow {
                    two_address: r.two_address as u32,
                    three_address: r.three_address as u32,
                    operands: r.operands.clone(),
                    // Instructions with more than 255 operands were refused above.
                    immediate: r
                        .immediate
                        .map(|(k, v)| (u8::try_from(k).unwrap_or(u8::MAX), v)),
                    new_register_order: r
                        .new_register_order
                        .iter()
                        .map(|&k| u8::try_from(k).unwrap_or(u8::MAX))
                        .collect(),
                })
                .collect(),
        })
    }
}
