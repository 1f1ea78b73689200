//! A builder for machine functions, for backend crates using the generated typed constants and for tests.
//!
//! ```
//! use regalloc::ir::{Builder, MachineFunction, Op, Generic};
//! use regalloc::target::{Opcode, RegClass};
//! # const GPR: RegClass = RegClass(0);
//! # const MOV_ri: Opcode = Opcode(0);
//! let mut f = MachineFunction::new("f");
//! let mut b = Builder::new(&mut f);
//! let entry = b.new_block();
//! b.at_end(entry);
//! let v = b.new_vreg(GPR);
//! b.inst(Op::Target(MOV_ri)).def(v).imm(42).done();
//! let w = b.new_vreg(GPR);
//! b.inst(Op::Generic(Generic::Copy)).def(w).use_(v).done();
//! assert_eq!(f.blocks[0].insts.len(), 2);
//! ```

use crate::target::{Reg, RegClass, SubRegIndex};

use super::function::{BlockLiveIn, InstData, MachineFunction, Succ};
use super::ids::{Block, Inst, VReg};
use super::opcode::Op;
use super::operand::{FrameRef, Operand, RegFlags, RegOperand, RegRef, Symbol, SymbolOperand};

/// Appends blocks, registers and instructions to a function.
pub struct Builder<'f> {
    func: &'f mut MachineFunction,
    block: Option<Block>,
}

impl<'f> Builder<'f> {
    /// A builder over `func`, with no insertion block yet.
    pub fn new(func: &'f mut MachineFunction) -> Builder<'f> {
        Builder { func, block: None }
    }

    /// Adds a block at the end of the layout.
    pub fn new_block(&mut self) -> Block {
        self.func.new_block()
    }

    /// Appends further instructions to the end of `b`.
    pub fn at_end(&mut self, b: Block) {
        self.block = Some(b);
    }

    /// Adds a virtual register of class `class`.
    pub fn new_vreg(&mut self, class: RegClass) -> VReg {
        self.func.new_vreg(Some(class))
    }

    /// Adds an edge `from -> to` with a probability (numerator over 2^31).
    pub fn add_succ(&mut self, from: Block, to: Block, prob: Option<u32>) {
        self.func.blocks[from.index()]
            .succs
            .push(Succ { block: to, prob });
        self.func.blocks[to.index()].preds.push(from);
    }

    /// Marks `reg` live into `b`.
    pub fn add_live_in(&mut self, b: Block, reg: Reg) {
        self.func.blocks[b.index()]
            .live_ins
            .push(BlockLiveIn { reg, lanes: None });
    }

    /// Starts an instruction; [`InstBuilder::done`] appends it to the
    /// current block.
    pub fn inst(&mut self, op: Op) -> InstBuilder<'_, 'f> {
        InstBuilder {
            b: self,
            data: InstData::new(op),
        }
    }
}

/// An instruction being built; operands are added in order.
pub struct InstBuilder<'b, 'f> {
    b: &'b mut Builder<'f>,
    data: InstData,
}

impl InstBuilder<'_, '_> {
    /// Adds any operand.
    pub fn operand(mut self, o: Operand) -> Self {
        self.data.operands.push(o);
        self
    }

    /// Adds an explicit definition of `r`.
    pub fn def(self, r: impl Into<RegRef>) -> Self {
        self.operand(Operand::Reg(RegOperand::def_of(r)))
    }

    /// Adds an explicit definition of sub-register `sub` of `r`.
    pub fn def_sub(self, r: impl Into<RegRef>, sub: SubRegIndex) -> Self {
        self.operand(Operand::Reg(RegOperand {
            sub: Some(sub),
            ..RegOperand::def_of(r)
        }))
    }

    /// Adds an explicit use of `r`.
    pub fn use_(self, r: impl Into<RegRef>) -> Self {
        self.operand(Operand::Reg(RegOperand::use_of(r)))
    }

    /// Adds an explicit use of sub-register `sub` of `r`.
    pub fn use_sub(self, r: impl Into<RegRef>, sub: SubRegIndex) -> Self {
        self.operand(Operand::Reg(RegOperand {
            sub: Some(sub),
            ..RegOperand::use_of(r)
        }))
    }

    /// Adds a register operand with explicit flags.
    pub fn reg(self, r: impl Into<RegRef>, flags: RegFlags) -> Self {
        self.operand(Operand::Reg(RegOperand {
            flags,
            ..RegOperand::use_of(r)
        }))
    }

    /// Adds an implicit definition of physical register `r`.
    pub fn implicit_def(self, r: Reg) -> Self {
        self.reg(r, RegFlags::DEF | RegFlags::IMPLICIT)
    }

    /// Adds an implicit use of physical register `r`.
    pub fn implicit_use(self, r: Reg) -> Self {
        self.reg(r, RegFlags::IMPLICIT)
    }

    /// Adds an immediate.
    pub fn imm(self, v: i64) -> Self {
        self.operand(Operand::Imm(v))
    }

    /// Adds a block operand.
    pub fn block(self, b: Block) -> Self {
        self.operand(Operand::Block(b))
    }

    /// Adds a `%stack.N` operand.
    pub fn stack(self, id: u32) -> Self {
        self.operand(Operand::Frame(FrameRef { fixed: false, id }, 0))
    }

    /// Adds a global `@name` operand.
    pub fn global(self, name: &str) -> Self {
        self.operand(Operand::Symbol(SymbolOperand {
            sym: Symbol::Global(name.into()),
            offset: 0,
            target_flags: None,
        }))
    }

    /// Ties explicit operands `def` and `use_` (both indices into the operands so far).
    pub fn tie(mut self, def: u16, use_: u16) -> Self {
        for (i, j) in [(def, use_), (use_, def)] {
            if let Some(Operand::Reg(r)) = self.data.operands.get_mut(usize::from(i)) {
                r.tied_to = Some(j);
            }
        }
        self
    }

    /// Appends the instruction to the current block and returns it.
    ///
    /// # Panics
    /// When no block was chosen with [`Builder::at_end`]: that is a bug in
    /// the calling code, not bad input.
    pub fn done(self) -> Inst {
        let b = self
            .b
            .block
            .expect("Builder::at_end must be called before adding instructions");
        let f = &mut *self.b.func;
        f.insts.push(self.data);
        let i = Inst::new(f.insts.len() - 1);
        f.blocks[b.index()].insts.push(i);
        i
    }
}
