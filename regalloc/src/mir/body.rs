//! Reads a MIR function's `body:` text (blocks and instructions) into a `MachineFunction`, with the pest grammar in `body.pest`.
//!
//! Positions in errors are relative to the body text; the caller maps them
//! to the file.

use std::collections::HashMap;

use pest::Parser as _;
use pest::error::{ErrorVariant, LineColLocation};
use pest::iterators::Pair;

use crate::ir::{
    Block, BlockData, BlockLiveIn, FrameRef, Generic, InstAttrs, InstData, IrBlockRef,
    MachineFunction, MiFlags, Op, Operand, RegFlags, RegMask, RegOperand, RegRef, Succ, Symbol,
    SymbolOperand, UnknownOp, VReg,
};
use crate::target::{InstrFlags, LaneMask, NameIndex, TargetInfo};

use super::error::Located;
use super::verify::{self, Place, Problem};
use super::vregs::{self, VRegTable};
use super::{inst_attrs, mem_operand};

#[derive(pest_derive::Parser)]
#[grammar = "mir/body.pest"]
struct BodyParser;

/// State while reading one body.
pub(crate) struct BodyReader<'a, 't> {
    pub target: &'a TargetInfo<'t>,
    pub names: &'a NameIndex,
    pub func: &'a mut MachineFunction,
    /// The virtual registers seen so far, by how they are written.
    pub vregs: &'a mut VRegTable,
    /// By instruction, the body line and column where it starts.
    pub positions: Vec<(usize, usize)>,
    /// Where each virtual register first appeared, to report one that never
    /// gets a class.
    pub first_seen: HashMap<VReg, (usize, usize)>,
    /// Source block number -> layout position.
    pub numbers: HashMap<u32, Block>,
    /// The `jumpTable:` key's entry ids -> table positions, which
    /// `%jump-table.N` operands are read into.
    pub jump_table_ids: HashMap<u32, u32>,
    /// Virtual register operands whose class was not known when their
    /// instruction was read (instruction, operand, byte offset in the
    /// body): their class check waits for the end of the body.
    unclassed_operands: Vec<(crate::ir::Inst, usize, usize)>,
}

fn loc(p: &Pair<'_, Rule>, message: impl Into<String>) -> Located {
    let (line, col) = p.line_col();
    Located {
        line,
        col,
        message: message.into(),
    }
}

impl<'a, 't> BodyReader<'a, 't> {
    /// A reader adding to `func`.
    pub fn new(
        target: &'a TargetInfo<'t>,
        names: &'a NameIndex,
        func: &'a mut MachineFunction,
        vregs: &'a mut VRegTable,
    ) -> Self {
        BodyReader {
            target,
            names,
            func,
            vregs,
            positions: Vec::new(),
            first_seen: HashMap::new(),
            numbers: HashMap::new(),
            jump_table_ids: HashMap::new(),
            unclassed_operands: Vec::new(),
        }
    }

    /// Parses `text` and appends its blocks and instructions to the function.
    pub fn read(&mut self, text: &str) -> Result<(), Located> {
        let body = BodyParser::parse(Rule::body, text)
            .map_err(|e| syntax_error(e, text))?
            .next()
            .expect("body rule");
        let blocks: Vec<Pair<'_, Rule>> = body
            .into_inner()
            .filter(|p| p.as_rule() == Rule::block)
            .collect();
        // Number the blocks first: branches refer to blocks further down.
        for (k, b) in blocks.iter().enumerate() {
            let header = b.clone().into_inner().next().expect("block header");
            let num = header.clone().into_inner().next().expect("block number");
            let n = num
                .as_str()
                .parse::<u32>()
                .map_err(|_| loc(&num, "block number out of range"))?;
            if self.numbers.insert(n, Block::new(k)).is_some() {
                return Err(loc(
                    &header,
                    format!("redefinition of machine basic block 'bb.{n}'"),
                ));
            }
        }
        self.func.blocks = vec![BlockData::default(); blocks.len()];
        let mut explicit_succs = vec![false; blocks.len()];
        for (k, b) in blocks.into_iter().enumerate() {
            explicit_succs[k] = self.block(Block::new(k), b)?;
        }
        // LLVM's printer leaves a block's `successors:` line out in two
        // cases: in the plain form (what `llc` prints by default) only when
        // the list is empty and the parser would guess it empty; in the
        // `-simplify-mir` form whenever the parser would guess it. The
        // guess needs to know whether the last instruction is a barrier,
        // which an opcode the description lacks does not say. So the form
        // decides: a block without the line whose guess is non-empty and
        // certain (no unknown opcode at its end) shows the simplified
        // form, and otherwise a missing line means no successors.
        // Per block without the line: its guess, and whether that is
        // certain (the block does not end in an unknown opcode).
        let guesses: Vec<Option<(Vec<Block>, bool)>> = explicit_succs
            .iter()
            .enumerate()
            .map(|(k, &explicit)| {
                (!explicit).then(|| {
                    let ends_unknown = self.func.blocks[k]
                        .insts
                        .last()
                        .is_some_and(|&i| matches!(self.func.insts[i.index()].op, Op::Unknown(_)));
                    let guess = guess_successors(self.target, self.func, Block::new(k));
                    (guess, !ends_unknown)
                })
            })
            .collect();
        let simplified = guesses
            .iter()
            .flatten()
            .any(|(guess, certain)| *certain && !guess.is_empty());
        for (k, g) in guesses.into_iter().enumerate() {
            if let Some((guess, certain)) = g
                && (certain || simplified)
            {
                self.func.blocks[k].succs = guess
                    .into_iter()
                    .map(|block| Succ { block, prob: None })
                    .collect();
            }
        }
        self.func.compute_preds();
        self.verify_unclassed_operands(text)
    }

    /// The class checks [`Self::verify`] left for the end of the body: a
    /// register still without a class is reported by the caller.
    fn verify_unclassed_operands(&self, text: &str) -> Result<(), Located> {
        for &(i, k, offset) in &self.unclassed_operands {
            let data = &self.func.insts[i.index()];
            let Some(RegRef::Virt(v)) = data.operands[k].as_reg().map(|r| r.reg) else {
                continue;
            };
            if let Some(c) = self.func.vregs[v.index()].class {
                let spell = |v| self.vregs.text(self.func, v);
                verify::operand_class(self.target, data, k, c, &spell)
                    .map_err(|p| located_at(text, offset, p.message))?;
            }
        }
        Ok(())
    }

    /// Reads one block; returns whether it listed its successors.
    fn block(&mut self, id: Block, pair: Pair<'_, Rule>) -> Result<bool, Located> {
        let mut explicit = false;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::block_header => {
                    for h in p.into_inner() {
                        let bd = &mut self.func.blocks[id.index()];
                        match h.as_rule() {
                            Rule::int => {}
                            Rule::ir_name => {
                                bd.ir_block = Some(IrBlockRef::Named(h.as_str().into()))
                            }
                            Rule::ir_block => {
                                let inner = h.into_inner().next().expect("ir block name");
                                bd.ir_block = Some(match inner.as_str().parse::<u32>() {
                                    Ok(n) if inner.as_rule() == Rule::int => {
                                        IrBlockRef::Numbered(n)
                                    }
                                    _ => IrBlockRef::Named(inner.as_str().into()),
                                });
                            }
                            _ => bd.attrs.push(h.as_str().into()),
                        }
                    }
                }
                Rule::successors => {
                    explicit = true;
                    for s in p.into_inner() {
                        let mut it = s.into_inner();
                        let block = self.block_ref(it.next().expect("successor block"))?;
                        let prob = match it.next() {
                            Some(n) => Some(
                                u32::try_from(parse_number(&n)?)
                                    .map_err(|_| loc(&n, "branch probability out of range"))?,
                            ),
                            None => None,
                        };
                        self.func.blocks[id.index()]
                            .succs
                            .push(Succ { block, prob });
                    }
                }
                Rule::liveins => {
                    for l in p.into_inner() {
                        let mut it = l.into_inner();
                        let r = it.next().expect("live-in register");
                        let RegRef::Phys(reg) = self.phys(&r)? else {
                            return Err(loc(&r, "'$noreg' cannot be live-in"));
                        };
                        let lanes = it
                            .next()
                            .map(|n| parse_number(&n))
                            .transpose()?
                            .map(LaneMask);
                        self.func.blocks[id.index()]
                            .live_ins
                            .push(BlockLiveIn { reg, lanes });
                    }
                }
                Rule::inst => {
                    self.positions.push(p.line_col());
                    let data = self.inst(p)?;
                    self.func.insts.push(data);
                    let i = crate::ir::Inst::new(self.func.insts.len() - 1);
                    self.func.blocks[id.index()].insts.push(i);
                }
                _ => {}
            }
        }
        self.mark_unknown_terminators(id);
        Ok(explicit)
    }

    /// Unknown opcodes at the end of block `id` that define no register
    /// explicitly and are followed by terminators only belong to its
    /// terminators (see [`UnknownOp`]): nothing may be placed after them.
    fn mark_unknown_terminators(&mut self, id: Block) {
        let f = &mut *self.func;
        for &i in f.blocks[id.index()].insts.iter().rev() {
            let inst = &mut f.insts[i.index()];
            let explicit_def = inst
                .operands
                .iter()
                .any(|o| o.as_reg().is_some_and(|r| r.is_def() && !r.is_implicit()));
            match &mut inst.op {
                Op::Target(o) if self.target.instr(*o).is(InstrFlags::TERMINATOR) => {}
                &mut op if op.is_debug_or_probe() => {}
                Op::Unknown(u) if !explicit_def => u.terminator = true,
                _ => break,
            }
        }
    }

    fn inst(&mut self, pair: Pair<'_, Rule>) -> Result<InstData, Located> {
        let mut data = InstData::new(Op::Generic(Generic::Copy));
        let mut explicit_ties: Vec<(usize, usize, Pair<'_, Rule>)> = Vec::new();
        let mut attrs = InstAttrs::default();
        // The last attribute read (its rank in LLVM's order, its keyword):
        // operands come before every attribute, attributes in that order.
        let mut last_attr: Option<(usize, &str)> = None;
        for p in pair.clone().into_inner() {
            match p.as_rule() {
                Rule::defs => {
                    for r in p.into_inner() {
                        let (mut o, tie) = self.reg_operand(r.clone())?;
                        o.flags.set(RegFlags::DEF, true);
                        if let Some(t) = tie {
                            explicit_ties.push((data.operands.len(), t, r));
                        }
                        data.operands.push(Operand::Reg(o));
                    }
                }
                Rule::mi_flag => {
                    data.flags.0 |= MiFlags::from_name(p.as_str())
                        .expect("grammar lists only known flags")
                        .0
                }
                Rule::opcode => data.op = self.opcode(p.as_str()),
                Rule::inst_attr => {
                    let mut it = p.into_inner();
                    let name_pair = it.next().expect("attribute name");
                    let value = it.next().expect("attribute value");
                    let name = name_pair.as_str();
                    let rank = inst_attrs::rank(name);
                    match last_attr {
                        Some((r, _)) if r == rank => {
                            return Err(loc(&name_pair, format!("'{name}' is given twice")));
                        }
                        Some((r, before)) if r > rank => {
                            return Err(loc(
                                &name_pair,
                                format!("'{name}' must come before '{before}'"),
                            ));
                        }
                        _ => {}
                    }
                    inst_attrs::set(&mut attrs, name, value.as_str()).map_err(|(at, m)| {
                        located_at(value.get_input(), value.as_span().start() + at, m)
                    })?;
                    last_attr = Some((rank, name));
                }
                Rule::operand => {
                    if let Some((_, before)) = last_attr {
                        return Err(loc(&p, format!("operands must come before '{before}'")));
                    }
                    let k = data.operands.len();
                    let (o, tie) = self.operand(p.clone())?;
                    if let Some(t) = tie {
                        explicit_ties.push((k, t, p));
                    }
                    data.operands.push(o);
                }
                Rule::mem_op => {
                    let func = &*self.func;
                    let frames = |fr, name: &str| mem_operand::check_frame(func, fr, name);
                    let m = mem_operand::parse(p.as_str(), &frames).map_err(|(at, message)| {
                        located_at(p.get_input(), p.as_span().start() + at, message)
                    })?;
                    data.mem.push(m);
                }
                _ => {}
            }
        }
        if !attrs.is_empty() {
            data.attrs = Some(Box::new(attrs));
        }
        self.tie_operands(&mut data, explicit_ties)?;
        self.verify(&pair, &data)?;
        Ok(data)
    }

    /// The operation named `name`: the target's opcode, else a generic
    /// one, else an opcode the description lacks (allocated by its
    /// operands).
    fn opcode(&self, name: &str) -> Op {
        match self.names.opcode(name) {
            Some(o) => Op::Target(o),
            None => match Generic::from_name(name) {
                Some(g) => Op::Generic(g),
                None => {
                    tracing::debug!(
                        function = %self.func.name,
                        opcode = name,
                        "opcode not in the target's description: allocated by its operands"
                    );
                    Op::Unknown(UnknownOp::new(name))
                }
            },
        }
    }

    /// Ties `data`'s operands: those its description ties first (MIR does
    /// not print them), then the explicit `(tied-def N)` ones
    /// (`explicit_ties`: operand, the definition it names, where it was
    /// written), as LLVM's parser does.
    fn tie_operands(
        &self,
        data: &mut InstData,
        explicit_ties: Vec<(usize, usize, Pair<'_, Rule>)>,
    ) -> Result<(), Located> {
        if let Op::Target(o) = data.op {
            let desc = self.target.instr(o);
            let explicit_count = data
                .operands
                .iter()
                .take_while(|o| o.as_reg().is_none_or(|r| !r.is_implicit()))
                .count();
            for k in 0..explicit_count.min(desc.operands.len()) {
                if let Some(d) = desc.tied_to(k)
                    && d < data.operands.len()
                    && data.operands[k].as_reg().is_some()
                    && data.operands[d].as_reg().is_some()
                {
                    tie(&mut data.operands, d, k);
                }
            }
        }
        for (k, d, p) in explicit_ties {
            let ok = data
                .operands
                .get(d)
                .and_then(|o| o.as_reg())
                .is_some_and(|r| r.is_def())
                && d != k;
            if !ok {
                return Err(loc(
                    &p,
                    format!("tied-def {d} does not name a register definition of this instruction"),
                ));
            }
            tie(&mut data.operands, d, k);
        }
        Ok(())
    }

    /// Holds the instruction just read (the next to be added to the
    /// function) to its description (`verify.rs`). An operand whose virtual
    /// register has no class yet (it is given further down) is checked at
    /// the end of the body.
    fn verify(&mut self, pair: &Pair<'_, Rule>, data: &InstData) -> Result<(), Located> {
        verify::instruction(self.target, data).map_err(|p| problem_at(pair, p))?;
        let id = crate::ir::Inst::new(self.func.insts.len());
        let func = &*self.func;
        let table = &*self.vregs;
        let unclassed = &mut self.unclassed_operands;
        verify::operand_classes(
            self.target,
            data,
            |v| func.vregs.get(v.index()).and_then(|d| d.class),
            &|v| table.text(func, v),
            |k| {
                let offset = operand_spans(pair)
                    .nth(k)
                    .map_or(pair.as_span().start(), |s| s.start());
                unclassed.push((id, k, offset));
            },
        )
        .map_err(|p| problem_at(pair, p))
    }

    /// A `<regmask $r ...>` operand: the registers it lists.
    fn custom_mask(&self, p: &Pair<'_, Rule>) -> Result<Operand, Located> {
        let inner = &p.as_str()["<regmask".len()..p.as_str().len() - 1];
        let mut regs = Vec::new();
        for name in inner.split_whitespace() {
            let Some(reg) = name.strip_prefix('$').and_then(|n| self.names.reg(n)) else {
                return Err(loc(
                    p,
                    format!("unknown physical register '{name}' in register mask"),
                ));
            };
            regs.push(reg);
        }
        Ok(Operand::RegMask(RegMask::Custom(regs)))
    }

    /// Reads an operand; returns it and the `tied-def` index it names, if any.
    fn operand(&mut self, pair: Pair<'_, Rule>) -> Result<(Operand, Option<usize>), Located> {
        let whole = pair.as_str();
        let mut flags: Option<&str> = None;
        let mut result: Option<(Operand, Option<usize>)> = None;
        for p in pair.clone().into_inner() {
            let r = p.as_rule();
            match r {
                Rule::target_flags => {
                    flags = Some(p.into_inner().next().map_or("", |t| t.as_str()))
                }
                Rule::offset => {
                    let text: String = p.as_str().chars().filter(|c| !c.is_whitespace()).collect();
                    let off = text
                        .parse::<i64>()
                        .map_err(|_| loc(&p, "offset out of range"))?;
                    match &mut result {
                        Some((Operand::Frame(_, o), _)) => *o = off,
                        Some((Operand::Symbol(s), _)) => s.offset = off,
                        _ => {
                            return Err(loc(
                                &p,
                                "an offset is allowed only after a symbol or stack object",
                            ));
                        }
                    }
                }
                Rule::reg_operand => {
                    let (o, t) = self.reg_operand(p)?;
                    result = Some((Operand::Reg(o), t));
                }
                Rule::block_ref => result = Some((Operand::Block(self.block_ref(p)?), None)),
                Rule::frame_ref => result = Some((Operand::Frame(self.frame_ref(p)?, 0), None)),
                Rule::const_ref | Rule::jump_table_ref => {
                    let n = p.clone().into_inner().next().expect("index");
                    let n = n
                        .as_str()
                        .parse::<u32>()
                        .map_err(|_| loc(&n, "index out of range"))?;
                    let sym = if r == Rule::const_ref {
                        Symbol::ConstPool(n)
                    } else {
                        Symbol::JumpTable(*self.jump_table_ids.get(&n).ok_or_else(|| {
                            loc(&p, format!("use of undefined jump table '%jump-table.{n}'"))
                        })?)
                    };
                    result = Some((symbol_operand(sym), None));
                }
                Rule::global | Rule::external => {
                    let name: Box<str> = p.as_str()[1..].into();
                    let sym = if r == Rule::global {
                        Symbol::Global(name)
                    } else {
                        Symbol::External(name)
                    };
                    result = Some((symbol_operand(sym), None));
                }
                Rule::subreg_imm => {
                    let n = p.clone().into_inner().next().expect("sub-register name");
                    result = Some((Operand::SubRegIndex(self.sub_reg(&n)?), None));
                }
                Rule::imm => {
                    let v = p
                        .as_str()
                        .parse::<i64>()
                        .map_err(|_| loc(&p, "integer literal out of range"))?;
                    result = Some((Operand::Imm(v), None));
                }
                Rule::custom_mask => result = Some((self.custom_mask(&p)?, None)),
                Rule::named_mask => match self.names.callee_saved(p.as_str()) {
                    Some(s) => result = Some((Operand::RegMask(RegMask::Named(s)), None)),
                    None => {
                        return Err(loc(
                            &p,
                            format!("unknown register mask or operand '{}'", p.as_str()),
                        ));
                    }
                },
                _ => result = Some((Operand::Other(p.as_str().into()), None)),
            }
        }
        let (mut o, t) = result.ok_or_else(|| loc(&pair, "expected an operand"))?;
        if let Some(f) = flags {
            match &mut o {
                Operand::Symbol(s) => s.target_flags = Some(f.into()),
                // Target flags elsewhere are rare; keep the whole operand.
                _ => o = Operand::Other(whole.into()),
            }
        }
        Ok((o, t))
    }

    /// Reads a register operand; returns it and its `tied-def` index, if any.
    fn reg_operand(
        &mut self,
        pair: Pair<'_, Rule>,
    ) -> Result<(RegOperand, Option<usize>), Located> {
        let mut o = RegOperand::use_of(RegRef::NoReg);
        let mut tied = None;
        let mut class_pair = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::reg_flag => {
                    let f = match p.as_str() {
                        "implicit-def" => RegFlags::IMPLICIT | RegFlags::DEF,
                        "implicit" => RegFlags::IMPLICIT,
                        "def" => RegFlags::DEF,
                        "dead" => RegFlags::DEAD,
                        "killed" => RegFlags::KILLED,
                        "undef" => RegFlags::UNDEF,
                        "internal" => RegFlags::INTERNAL,
                        "early-clobber" => RegFlags::EARLY_CLOBBER,
                        "debug-use" => RegFlags::DEBUG_USE,
                        _ => RegFlags::RENAMABLE,
                    };
                    o.flags = o.flags | f;
                }
                Rule::phys_reg => o.reg = self.phys(&p)?,
                Rule::vreg => o.reg = RegRef::Virt(self.vreg(&p)?),
                Rule::subreg_name => o.sub = Some(self.sub_reg(&p)?),
                Rule::class_name => class_pair = Some(p),
                Rule::tied_index => {
                    tied = Some(
                        p.as_str()
                            .parse::<usize>()
                            .map_err(|_| loc(&p, "tied-def index out of range"))?,
                    )
                }
                Rule::llt => o.ty = Some(p.as_str().into()),
                _ => {}
            }
        }
        if let Some(p) = class_pair {
            let RegRef::Virt(v) = o.reg else {
                return Err(loc(
                    &p,
                    "a register class may only follow a virtual register",
                ));
            };
            if p.as_str() != "_" {
                let Some(c) = self.names.class(p.as_str()) else {
                    return Err(loc(&p, format!("unknown register class '{}'", p.as_str())));
                };
                let slot = &mut self.func.vregs[v.index()].class;
                match *slot {
                    None => *slot = Some(c),
                    Some(old) if old != c => {
                        return Err(loc(
                            &p,
                            format!(
                                "conflicting register classes for '{}': '{}' and '{}'",
                                self.vregs.text(self.func, v),
                                self.target.class(old).name.to_ascii_lowercase(),
                                p.as_str()
                            ),
                        ));
                    }
                    Some(_) => {}
                }
            }
        }
        Ok((o, tied))
    }

    fn phys(&self, p: &Pair<'_, Rule>) -> Result<RegRef, Located> {
        let name = &p.as_str()[1..];
        if name == "noreg" {
            return Ok(RegRef::NoReg);
        }
        self.names
            .reg(name)
            .map(RegRef::Phys)
            .ok_or_else(|| loc(p, format!("unknown physical register '${name}'")))
    }

    fn vreg(&mut self, p: &Pair<'_, Rule>) -> Result<VReg, Located> {
        let text = &p.as_str()[1..];
        let v = if text.starts_with(|c: char| c.is_ascii_digit()) {
            let n = vregs::parse_number(text).map_err(|m| loc(p, m))?;
            self.vregs.numbered(self.func, n)
        } else {
            self.vregs.named(self.func, text)
        };
        self.first_seen.entry(v).or_insert_with(|| p.line_col());
        Ok(v)
    }

    fn sub_reg(&self, p: &Pair<'_, Rule>) -> Result<crate::target::SubRegIndex, Located> {
        self.names
            .sub_reg_index(p.as_str())
            .ok_or_else(|| loc(p, format!("unknown sub-register index '{}'", p.as_str())))
    }

    fn block_ref(&self, p: Pair<'_, Rule>) -> Result<Block, Located> {
        let n = p.clone().into_inner().next().expect("block number");
        n.as_str()
            .parse::<u32>()
            .ok()
            .and_then(|n| self.numbers.get(&n).copied())
            .ok_or_else(|| {
                loc(
                    &p,
                    format!("use of undefined machine basic block '%bb.{}'", n.as_str()),
                )
            })
    }

    fn frame_ref(&self, p: Pair<'_, Rule>) -> Result<FrameRef, Located> {
        let mut it = p.clone().into_inner();
        let fixed = it.next().expect("frame kind").as_rule() == Rule::fixed_stack;
        let n = it.next().expect("frame index");
        let id = n
            .as_str()
            .parse::<u32>()
            .map_err(|_| loc(&n, "stack object index out of range"))?;
        let objs = if fixed {
            &self.func.fixed_stack
        } else {
            &self.func.stack
        };
        if !objs.iter().any(|o| o.id == id) {
            let kind = if fixed { "fixed-stack" } else { "stack" };
            return Err(loc(
                &p,
                format!("use of undefined stack object '%{kind}.{id}'"),
            ));
        }
        Ok(FrameRef { fixed, id })
    }
}

/// LLVM's rule for a block without a `successors:` line: every block an
/// instruction other than a PHI names (a PHI names predecessors), then the
/// next block when control can fall through (the block is empty or its
/// last instruction is not a barrier).
pub(crate) fn guess_successors(
    target: &TargetInfo<'_>,
    f: &MachineFunction,
    id: Block,
) -> Vec<Block> {
    let bd = &f.blocks[id.index()];
    let mut succs: Vec<Block> = Vec::new();
    for &i in &bd.insts {
        if f.insts[i.index()].op == Op::Generic(crate::ir::Generic::Phi) {
            continue;
        }
        for o in &f.insts[i.index()].operands {
            if let Operand::Block(b) = o
                && !succs.contains(b)
            {
                succs.push(*b);
            }
        }
    }
    let falls_through = bd
        .insts
        .last()
        .is_none_or(|&i| match f.insts[i.index()].op {
            Op::Target(o) => !target.instr(o).is(InstrFlags::BARRIER),
            // Whether an unknown opcode ends control flow is not known;
            // LLVM prints the successors whenever it could not guess them.
            Op::Generic(_) | Op::Unknown(_) => true,
        });
    let next = Block::new(id.index() + 1);
    if falls_through && next.index() < f.blocks.len() && !succs.contains(&next) {
        succs.push(next);
    }
    succs
}

/// The spans of an instruction's operands, in the order the reader adds
/// them to the instruction (definitions, then the rest).
fn operand_spans<'i>(inst: &Pair<'i, Rule>) -> impl Iterator<Item = pest::Span<'i>> {
    inst.clone().into_inner().flat_map(|p| match p.as_rule() {
        Rule::defs => p.into_inner().map(|d| d.as_span()).collect::<Vec<_>>(),
        Rule::operand => vec![p.as_span()],
        _ => Vec::new(),
    })
}

/// Places a problem [`verify`] found in instruction `inst`. A missing
/// operand is reported where LLVM's parser reports it: at the token after
/// the last operand (`::`, `,` or the end of the line, comments skipped),
/// or after the whole instruction when it has no operands.
fn problem_at(inst: &Pair<'_, Rule>, p: Problem) -> Located {
    let text = inst.get_input();
    let offset = match p.place {
        Place::Operand(k) => operand_spans(inst)
            .nth(k)
            .map_or(inst.as_span().start(), |s| s.start()),
        Place::AfterOperands => {
            let end = operand_spans(inst)
                .last()
                .map_or(inst.as_span().end(), |s| s.end());
            next_token(text, end)
        }
    };
    located_at(text, offset, p.message)
}

/// The offset of the first token at or after `from`: spaces, tabs and a
/// `;` comment skipped, stopping at the end of the line.
fn next_token(text: &str, from: usize) -> usize {
    let rest = &text[from..];
    let blank = rest.len() - rest.trim_start_matches([' ', '\t']).len();
    let at = from + blank;
    if text[at..].starts_with(';') {
        text[at..].find(['\n', '\r']).map_or(text.len(), |n| at + n)
    } else {
        at
    }
}

/// An error at byte `offset` of the body text.
fn located_at(text: &str, offset: usize, message: String) -> Located {
    let (line, col) = pest::Position::new(text, offset).map_or((1, 1), |p| p.line_col());
    Located { line, col, message }
}

/// Ties operands `d` (a definition) and `u` (a use).
fn tie(ops: &mut [Operand], d: usize, u: usize) {
    if let Some(r) = ops[d].as_reg_mut() {
        r.tied_to = Some(u as u16);
    }
    if let Some(r) = ops[u].as_reg_mut() {
        r.tied_to = Some(d as u16);
    }
}

/// A decimal or `0x` hexadecimal number.
fn parse_number(p: &Pair<'_, Rule>) -> Result<u64, Located> {
    let s = p.as_str();
    let v = match s.strip_prefix("0x") {
        Some(h) => u64::from_str_radix(h, 16),
        None => s.parse::<u64>(),
    };
    v.map_err(|_| loc(p, format!("number '{s}' out of range")))
}

/// Turns a pest syntax error into a message naming what was expected and
/// what was found.
fn syntax_error(e: pest::error::Error<Rule>, text: &str) -> Located {
    let (line, col) = match e.line_col {
        LineColLocation::Pos(p) | LineColLocation::Span(p, _) => p,
    };
    let expected = match &e.variant {
        ErrorVariant::ParsingError { positives, .. } => {
            // Rules without a description are grammar plumbing; name only
            // the meaningful ones when there are any.
            let mut names: Vec<&str> = positives.iter().filter_map(describe).collect();
            names.dedup();
            match names.len() {
                0 => "valid MIR".to_string(),
                1 => names[0].to_string(),
                n => format!("{} or {}", names[..n - 1].join(", "), names[n - 1]),
            }
        }
        ErrorVariant::CustomError { message } => message.clone(),
    };
    let rest = text.lines().nth(line - 1).map_or("", |l| {
        l.get(l.char_indices().nth(col - 1).map_or(l.len(), |(i, _)| i)..)
            .unwrap_or("")
    });
    let found: String = rest
        .chars()
        .take_while(|c| !c.is_whitespace() && *c != ',')
        .collect();
    let after: usize = text.lines().take(line).map(|l| l.len() + 1).sum();
    let found = if !found.is_empty() {
        format!("'{found}'")
    } else if text
        .get(after.min(text.len())..)
        .is_none_or(|t| t.trim().is_empty())
    {
        "end of body".to_string()
    } else {
        "end of line".to_string()
    };
    Located {
        line,
        col,
        message: format!("expected {expected}, found {found}"),
    }
}

/// What a grammar rule means, for error messages.
fn describe(r: &Rule) -> Option<&'static str> {
    Some(match r {
        Rule::operand | Rule::operand_item => "an operand",
        Rule::reg_operand | Rule::defs | Rule::phys_reg | Rule::vreg => "a register",
        Rule::opcode | Rule::mi_flag => "an instruction name",
        Rule::inst | Rule::inst_line => "an instruction",
        Rule::block | Rule::block_header => "a block header 'bb.N:'",
        Rule::successors | Rule::succ | Rule::block_ref => "a block reference '%bb.N'",
        Rule::liveins | Rule::livein => "a live-in register",
        Rule::mem_op => "a memory operand",
        Rule::class_name => "a register class name",
        Rule::subreg_name => "a sub-register index name",
        Rule::int | Rule::number | Rule::tied_index | Rule::imm => "a number",
        Rule::EOI => "end of body",
        Rule::eol | Rule::eob => "end of line",
        _ => return None,
    })
}

/// An operand naming `sym`, without offset or target flags (an offset and
/// flags written after it are set on it later).
fn symbol_operand(sym: Symbol) -> Operand {
    Operand::Symbol(SymbolOperand {
        sym,
        offset: 0,
        target_flags: None,
    })
}
