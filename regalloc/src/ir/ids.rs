//! Index newtypes for machine IR: virtual registers, blocks and instructions.
//!
//! Indices into a [`MachineFunction`](super::MachineFunction)'s tables, never
//! pointers, so that functions can be cloned, compared and edited freely.

macro_rules! index_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
        pub struct $name(pub u32);

        impl $name {
            /// The index as a `usize`, for indexing a table.
            #[inline]
            pub const fn index(self) -> usize {
                self.0 as usize
            }

            /// The value for table position `i`.
            #[inline]
            pub const fn new(i: usize) -> Self {
                Self(i as u32)
            }
        }

        impl super::index_vec::Id for $name {
            #[inline]
            fn index(self) -> usize {
                self.0 as usize
            }

            #[inline]
            fn new(i: usize) -> Self {
                Self(i as u32)
            }
        }
    };
}

index_type!(
    /// A virtual register: an index into
    /// [`MachineFunction::vregs`](super::MachineFunction::vregs), printed
    /// `%N` in MIR.
    VReg
);
index_type!(
    /// A basic block: an index into
    /// [`MachineFunction::blocks`](super::MachineFunction::blocks), which
    /// are kept in layout order, so this is also the `bb.N` number.
    Block
);
index_type!(
    /// An instruction: an index into
    /// [`MachineFunction::insts`](super::MachineFunction::insts). Its
    /// position is given by the owning block's instruction list.
    Inst
);
