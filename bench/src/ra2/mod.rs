//! The regalloc2 adapter: SSA-form machine functions converted into regalloc2 `Function`s, allocated by its `ion` and `fastalloc` algorithms, checked by its checker and counted.
//!
//! [`prepare`] converts one function (or says why it cannot), [`allocate`]
//! runs one algorithm on the result and counts spills, reloads and moves
//! from regalloc2's edits. What is approximated, and why, is listed in
//! `README.md` beside this file.

mod build;
mod files;

use std::panic::AssertUnwindSafe;
use std::time::{Duration, Instant};

use regalloc::ir::MachineFunction;
use regalloc::target::TargetInfo;
use regalloc2::{
    Algorithm, Block, Edit, Function, Inst, InstRange, Operand, PRegSet, RegClass as Ra2Class,
    RegallocOptions, VReg,
};

pub use build::{BlockInfo, InstInfo, InstKind};
pub use files::RegFiles;

/// How often the conversion had to approximate, per function.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Approximations {
    /// Virtual registers merged with the source of their COPY (or
    /// `SUBREG_TO_REG`): copies regalloc2 never sees.
    pub copies_aliased: u64,
    /// Register operands with a sub-register index, treated as the whole
    /// register.
    pub sub_register_operands: u64,
    /// `undef` uses left out (they read no value).
    pub undef_uses: u64,
    /// Ties that could not become `Reuse` (undefined or physical tied use,
    /// the same register on both sides, an early-clobber def).
    pub ties_dropped: u64,
    /// Reads of a physical register whose value was not defined earlier in
    /// the block (left out).
    pub unknown_phys_reads: u64,
    /// Blocks other than the entry with allocatable physical live-ins.
    pub phys_live_across_blocks: u64,
    /// Critical edges split with a new block.
    pub edges_split: u64,
    /// Undefined PHI inputs, each given a value defined at the end of the
    /// predecessor by a synthetic instruction.
    pub undef_phi_inputs: u64,
}

/// A function in regalloc2's terms.
#[derive(Clone, Debug)]
pub struct Ra2Function {
    /// Instructions, block by block.
    pub insts: Vec<InstInfo>,
    /// Operands of all instructions, concatenated.
    pub operands: Vec<Operand>,
    /// Where each instruction's operands start in `operands`.
    pub op_start: Vec<u32>,
    /// Registers each instruction clobbers.
    pub clobbers: Vec<PRegSet>,
    /// Blocks; block 0 is the entry.
    pub blocks: Vec<BlockInfo>,
    /// The class of each regalloc2 virtual register.
    pub vreg_class: Vec<Ra2Class>,
    /// Spill slot size per regalloc2 class, in 8-byte units.
    pub slot_units: [usize; 3],
    /// What was approximated.
    pub approx: Approximations,
    /// Instructions of the MIR function (PHIs included).
    pub mir_insts: usize,
}

impl Ra2Function {
    fn push_inst(&mut self, info: InstInfo, ops: Vec<Operand>, clobbers: PRegSet) {
        self.insts.push(info);
        self.op_start.push(self.operands.len() as u32);
        self.operands.extend(ops);
        self.clobbers.push(clobbers);
    }
}

impl Function for Ra2Function {
    fn num_insts(&self) -> usize {
        self.insts.len()
    }
    fn num_blocks(&self) -> usize {
        self.blocks.len()
    }
    fn entry_block(&self) -> Block {
        Block::new(0)
    }
    fn block_insns(&self, block: Block) -> InstRange {
        self.blocks[block.index()].range
    }
    fn block_succs(&self, block: Block) -> &[Block] {
        &self.blocks[block.index()].succs
    }
    fn block_preds(&self, block: Block) -> &[Block] {
        &self.blocks[block.index()].preds
    }
    fn block_params(&self, block: Block) -> &[VReg] {
        &self.blocks[block.index()].params
    }
    fn is_ret(&self, insn: Inst) -> bool {
        self.insts[insn.index()].kind == InstKind::Ret
    }
    fn is_branch(&self, insn: Inst) -> bool {
        self.insts[insn.index()].kind == InstKind::Branch
    }
    fn branch_blockparams(&self, block: Block, _insn: Inst, succ_idx: usize) -> &[VReg] {
        self.blocks[block.index()]
            .args
            .get(succ_idx)
            .map_or(&[], |a| &a[..])
    }
    fn inst_operands(&self, insn: Inst) -> &[Operand] {
        let s = self.op_start[insn.index()] as usize;
        let e = self
            .op_start
            .get(insn.index() + 1)
            .map_or(self.operands.len(), |&e| e as usize);
        &self.operands[s..e]
    }
    fn inst_clobbers(&self, insn: Inst) -> PRegSet {
        self.clobbers[insn.index()]
    }
    fn num_vregs(&self) -> usize {
        self.vreg_class.len()
    }
    fn spillslot_size(&self, regclass: Ra2Class) -> usize {
        self.slot_units[files::class_index(regclass)]
    }
}

/// A function ready for regalloc2: the function and its machine environment.
#[derive(Clone, Debug)]
pub struct Prepared {
    /// The converted function.
    pub func: Ra2Function,
    /// Its register files and the machine environment.
    pub files: RegFiles,
}

/// Converts the SSA-form `func` for regalloc2, or says why it cannot be
/// expressed.
pub fn prepare(t: &TargetInfo<'_>, func: &MachineFunction) -> Result<Prepared, String> {
    let files = RegFiles::new(t, func)?;
    let f = build::convert(t, func, &files)?;
    Ok(Prepared { func: f, files })
}

/// regalloc2's two algorithms.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Ra2Algorithm {
    /// The backtracking allocator (`Algorithm::Ion`, the default).
    Ion,
    /// The fast single-pass allocator (`Algorithm::Fastalloc`).
    Fastalloc,
}

impl Ra2Algorithm {
    /// `ion` or `fastalloc`.
    pub fn name(self) -> &'static str {
        match self {
            Ra2Algorithm::Ion => "ion",
            Ra2Algorithm::Fastalloc => "fastalloc",
        }
    }
}

/// What one regalloc2 run cost.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Ra2Counts {
    /// Moves from a register to a spill slot.
    pub spills: u64,
    /// Moves from a spill slot to a register.
    pub reloads: u64,
    /// Moves between registers regalloc2 inserted.
    pub moves: u64,
    /// Original COPYs kept as instructions whose source and destination
    /// got different registers.
    pub copies_left: u64,
    /// Spills weighted by block frequency (relative to the entry).
    pub spill_cost: f64,
    /// Reloads weighted by block frequency.
    pub reload_cost: f64,
    /// Moves and copies left, weighted by block frequency.
    pub move_cost: f64,
    /// Spill slots used.
    pub slots: usize,
    /// Time in `regalloc2::run`.
    pub time: Duration,
    /// The checker's verdict: `None` when it was not run.
    pub checked: Option<Result<(), String>>,
}

fn panic_message(e: Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = e.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = e.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".into()
    }
}

/// Runs `algo` on `p`, timing `regalloc2::run`, then (if `check`) runs
/// regalloc2's checker on the output. An error (regalloc2's, or a panic
/// inside it, caught) is returned as text.
pub fn allocate(p: &Prepared, algo: Ra2Algorithm, check: bool) -> Result<Ra2Counts, String> {
    let opts = RegallocOptions {
        verbose_log: false,
        validate_ssa: false,
        algorithm: match algo {
            Ra2Algorithm::Ion => Algorithm::Ion,
            Ra2Algorithm::Fastalloc => Algorithm::Fastalloc,
        },
    };
    let f = &p.func;
    let env = &p.files.env;
    let start = Instant::now();
    let result = std::panic::catch_unwind(AssertUnwindSafe(|| regalloc2::run(f, env, &opts)));
    let time = start.elapsed();
    let out = match result {
        Ok(Ok(out)) => out,
        Ok(Err(e)) => {
            // Ask again with the SSA validator on, for a clearer reason.
            let v = RegallocOptions {
                validate_ssa: true,
                ..opts
            };
            let again = std::panic::catch_unwind(AssertUnwindSafe(|| regalloc2::run(f, env, &v)));
            return Err(match again {
                Ok(Err(e2)) => format!("regalloc2 {}: {e2:?}", algo.name()),
                _ => format!("regalloc2 {}: {e:?}", algo.name()),
            });
        }
        Err(panic) => {
            return Err(format!(
                "regalloc2 {} panicked: {}",
                algo.name(),
                panic_message(panic)
            ));
        }
    };
    let mut c = Ra2Counts {
        time,
        slots: out.num_spillslots,
        ..Default::default()
    };
    for (point, edit) in &out.edits {
        let Edit::Move { from, to } = edit;
        if from == to {
            continue;
        }
        let w = f.blocks[f.insts[point.inst().index()].block as usize].weight;
        match (from.is_reg(), to.is_reg()) {
            (true, false) => {
                c.spills += 1;
                c.spill_cost += w;
            }
            (false, true) => {
                c.reloads += 1;
                c.reload_cost += w;
            }
            (true, true) => {
                c.moves += 1;
                c.move_cost += w;
            }
            (false, false) => {}
        }
    }
    for (k, info) in f.insts.iter().enumerate() {
        if info.kept_copy {
            let a = out.inst_allocs(Inst::new(k));
            if a.len() >= 2 && a[0] != a[1] {
                c.copies_left += 1;
                c.move_cost += f.blocks[info.block as usize].weight;
            }
        }
    }
    if check {
        let verdict = std::panic::catch_unwind(AssertUnwindSafe(|| {
            let mut ch = regalloc2::checker::Checker::new(f, env);
            ch.prepare(&out);
            ch.run()
        }));
        c.checked = Some(match verdict {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(format!("{e:?}").chars().take(300).collect()),
            Err(panic) => Err(format!("checker panicked: {}", panic_message(panic))),
        });
    }
    Ok(c)
}
