//! Table rows for register classes, their allocation orders and the function facts an order selector may look at.

use std::borrow::Cow;

use super::ids::{FeatureSet, LaneMask, Reg, RegClass, SubRegIndex};
use super::instrs::TemplateChoice;

/// Facts about the function being allocated that an allocation-order
/// selector (`AltOrderSelect` in the `.td` file) may depend on.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct FunctionInfo {
    /// The function keeps a frame pointer (so it is reserved).
    pub has_frame_pointer: bool,
    /// The function needs a base pointer (so the target's base-pointer
    /// registers are reserved).
    pub has_base_pointer: bool,
    /// The function contains calls.
    pub has_calls: bool,
    /// The function's subtarget features (bits of
    /// [`TargetInfo::features`](super::TargetInfo::features)).
    pub features: FeatureSet,
    /// The function may realign its stack for a spill slot that asks for
    /// more than the stack's alignment: it keeps a frame pointer (and a
    /// base pointer if its stack pointer moves), or the target realigns
    /// without them (`SpillRealignNeedsFramePointer` unset).
    pub spill_realign: bool,
}

/// An allocation-order selector (`AltOrderSelect`): returns the index of
/// the order in [`RegClassDesc::orders`] to use for a function.
///
/// Both kinds run one fragment of the AltOrderSelect language (tdgen's
/// `emit::select`): compiled to Rust by the `regalloc!` macro and build
/// scripts, or its syntax tree interpreted, for tables built at run time
/// (`regalloc-td`). tdgen has checked at description time that every
/// index it returns names an order.
#[derive(Clone)]
pub enum OrderSelector {
    /// The fragment compiled to a function.
    Compiled(fn(&FunctionInfo) -> usize),
    /// The fragment's tree and an interpreter for it.
    Interpreted(std::sync::Arc<dyn Fn(&FunctionInfo) -> usize + Send + Sync>),
}

impl OrderSelector {
    /// The order index for a function with facts `f`.
    pub fn select(&self, f: &FunctionInfo) -> usize {
        match self {
            OrderSelector::Compiled(sel) => sel(f),
            OrderSelector::Interpreted(sel) => sel(f),
        }
    }
}

impl std::fmt::Debug for OrderSelector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            OrderSelector::Compiled(_) => "OrderSelector::Compiled",
            OrderSelector::Interpreted(_) => "OrderSelector::Interpreted",
        })
    }
}

/// Where callee-saved registers go in an allocation order.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub enum AllocOrderPolicy {
    /// LLVM's behaviour (`RegisterClassInfo::compute`): callee-saved
    /// registers are moved after the others, keeping relative order.
    #[default]
    CalleeSavedLast,
    /// The order is used as written. Our extension for targets whose
    /// hardware saves some callee-saved registers for free.
    AsWritten,
}

/// A class's register size, spill size and spill alignment in one HW mode.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct ClassSizes {
    /// Register size in bits.
    pub reg_size: u32,
    /// Spill slot size in bytes.
    pub spill_size: u32,
    /// Spill slot alignment in bytes.
    pub spill_align: u32,
}

/// One register class.
///
/// Equality compares the selector by presence only: two tables built by
/// different routes (generated and run time) cannot share function
/// pointers, and comparing fn pointers is not meaningful anyway.
#[derive(Clone, Debug)]
pub struct RegClassDesc<'a> {
    /// Name as written in the `.td` file; MIR prints it lower-cased.
    pub name: Cow<'a, str>,
    /// Members in definition order.
    pub members: Cow<'a, [Reg]>,
    /// Membership as a bit set over registers, for O(1) `contains`.
    pub member_bits: Cow<'a, [u32]>,
    /// Allocation orders; `orders[0]` is the default (`MemberList` order),
    /// the rest are `AltOrders`. Each is a permutation of a subset of members.
    pub orders: Cow<'a, [Cow<'a, [Reg]>]>,
    /// Picks an entry of `orders` for a function (`AltOrderSelect`); `None`
    /// means always order 0.
    pub order_select: Option<OrderSelector>,
    /// Where callee-saved registers go in the final order.
    pub order_policy: AllocOrderPolicy,
    /// Register size in bits.
    pub reg_size: u32,
    /// Spill slot size in bytes.
    pub spill_size: u32,
    /// Spill slot alignment in bytes.
    pub spill_align: u32,
    /// The sizes per HW mode (index 0: the default mode, equal to the
    /// three fields above); empty when the target has one mode.
    pub mode_sizes: Cow<'a, [ClassSizes]>,
    /// Cost of copying between two registers of this class (`CopyCost`);
    /// negative means very expensive or impossible.
    pub copy_cost: i32,
    /// Whether the allocator may assign registers of this class.
    pub allocatable: bool,
    /// Allocation priority (`AllocationPriority`), higher first.
    pub priority: u8,
    /// Union of the lane masks of the members' sub-registers.
    pub lane_mask: LaneMask,
    /// Sub-classes (classes whose members are all members here), as a bit set
    /// over classes; includes the class itself.
    pub sub_classes: Cow<'a, [u32]>,
    /// Super-classes as a bit set over classes; includes the class itself.
    pub super_classes: Cow<'a, [u32]>,
    /// For each sub-register index, the largest sub-class whose every member
    /// has that sub-register (`getSubClassWithSubReg`), or `None`.
    pub sub_class_with_sub_reg: Cow<'a, [Option<RegClass>]>,
    /// The pairs `(i, C)` such that every `R` in class `C` has `R:i` in this
    /// class (LLVM's super-register classes, the basis of
    /// [`TargetInfo::matching_super_reg_class`](super::TargetInfo::matching_super_reg_class)),
    /// sorted by index, then class. Sparse: most (index, class) pairs are absent.
    pub super_reg_classes: Cow<'a, [(SubRegIndex, RegClass)]>,
    /// How to store a register of this class to a stack slot, per
    /// subtarget, most specific first (see
    /// [`TargetInfo::spill_template`](super::TargetInfo::spill_template)).
    pub spill: Cow<'a, [TemplateChoice<'a>]>,
    /// How to load a register of this class from a stack slot.
    pub reload: Cow<'a, [TemplateChoice<'a>]>,
    /// How to copy between two registers of this class.
    pub copy: Cow<'a, [TemplateChoice<'a>]>,
    /// The stack its spill slots live in, as MIR spells it (`default`,
    /// `scalable-vector`).
    pub spill_stack_id: Cow<'a, str>,
    /// Why the class cannot be spilled (`CannotSpill`), when it cannot.
    pub cannot_spill: Option<Cow<'a, str>>,
}

impl PartialEq for RegClassDesc<'_> {
    fn eq(&self, o: &Self) -> bool {
        self.name == o.name
            && self.members == o.members
            && self.member_bits == o.member_bits
            && self.orders == o.orders
            && self.order_select.is_some() == o.order_select.is_some()
            && self.order_policy == o.order_policy
            && self.reg_size == o.reg_size
            && self.spill_size == o.spill_size
            && self.spill_align == o.spill_align
            && self.mode_sizes == o.mode_sizes
            && self.copy_cost == o.copy_cost
            && self.allocatable == o.allocatable
            && self.priority == o.priority
            && self.lane_mask == o.lane_mask
            && self.sub_classes == o.sub_classes
            && self.super_classes == o.super_classes
            && self.sub_class_with_sub_reg == o.sub_class_with_sub_reg
            && self.super_reg_classes == o.super_reg_classes
            && self.spill == o.spill
            && self.reload == o.reload
            && self.copy == o.copy
            && self.spill_stack_id == o.spill_stack_id
            && self.cannot_spill == o.cannot_spill
    }
}

/// Registers reserved in a function whose subtarget lacks some of
/// `features` (`ReservedWithoutFeatures`: x86's XMM16-31 without AVX-512).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ReservedWithout<'a> {
    /// The features that free the registers.
    pub features: FeatureSet,
    /// The registers, as a bit set over registers (closed under overlap).
    pub regs: Cow<'a, [u32]>,
}

/// One callee-saved register set (`CalleeSavedRegs`), with its register mask.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct CalleeSavedDesc<'a> {
    /// Name as in the `.td` file; MIR prints the mask lower-cased (`csr_64`).
    pub name: Cow<'a, str>,
    /// Registers the prologue saves, in save order.
    pub saves: Cow<'a, [Reg]>,
    /// Registers preserved across a call with this mask: the save list and
    /// all their sub-registers, as a bit set over registers.
    pub mask: Cow<'a, [u32]>,
}
