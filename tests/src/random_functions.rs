//! Random machine functions for any target described by a `TargetInfo`: classes, sub-registers, fixed registers, calls with register masks, tied operands and loops, all valid, for property tests of the allocators and the checker.
//!
//! A function has an entry block (arguments copied out of fixed registers),
//! a loop (header, body with a back edge, a value carried around it by a
//! two-address redefinition), a diamond, and an exit that copies a result
//! into a fixed register. Instructions are drawn from the target's own
//! table: those whose explicit operands are all registers of classes with
//! spill code, or immediates, with their tied operands in two-address form
//! and their implicit operands present (implicit uses only of reserved
//! registers, such as a stack pointer, whose values are not tracked). Calls carry a register mask of
//! one of the target's callee-saved sets, argument registers as implicit
//! uses and a result register as an implicit definition. Sub-register
//! copies (`%s = COPY %v.idx`, `%v.idx = COPY %s`) appear where a class has
//! a sub-register whose registers all lie in a class with spill code.
//! Every use is dominated by a definition of its register.

use crate::regs_gen::Rng;
use regalloc::ir::{Block, Builder, Generic, MachineFunction, Op, RegFlags, RegMask, VReg};
use regalloc::target::{
    CalleeSavedSet, FeatureSet, InstrFlags, Opcode, OperandKind, Reg, RegClass, SubRegIndex,
    TargetInfo,
};

/// What the generator may use on one target, computed once.
pub struct Palette {
    /// Allocatable classes with spill, reload and copy code and an
    /// unreserved member.
    pub classes: Vec<RegClass>,
    /// Instructions whose operands the generator can satisfy.
    pub instrs: Vec<Opcode>,
    /// The call instruction, if the target has one the generator can use.
    pub call: Option<Opcode>,
    /// Sub-register copies: (class of the whole, index, class of the part).
    pub subs: Vec<(RegClass, SubRegIndex, RegClass)>,
}

impl Palette {
    /// The palette of `t`.
    pub fn new(t: &TargetInfo<'_>) -> Palette {
        let usable = |c: RegClass| {
            let d = t.class(c);
            // Generated functions have no subtarget features (so no HW
            // mode: classes whose size depends on one, Hexagon's HVX, are
            // left out) and their slots live on the ordinary stack.
            let none = FeatureSet::NONE;
            d.allocatable
                && t.spill_template(c, none, true).is_some()
                && t.reload_template(c, none, true).is_some()
                && t.copy_template(c, none).is_some()
                && d.spill_stack_id == "default"
                && d.mode_sizes.windows(2).all(|w| w[0] == w[1])
                && d.members.iter().filter(|&&r| !t.is_reserved(r)).count() >= 2
        };
        let classes: Vec<RegClass> = (0..t.classes.len())
            .map(RegClass::new)
            .filter(|&c| usable(c))
            .collect();
        let plain = |op: Opcode| {
            let d = t.instr(op);
            let banned = InstrFlags::CALL
                .union(InstrFlags::TERMINATOR)
                .union(InstrFlags::BRANCH)
                .union(InstrFlags::RETURN)
                .union(InstrFlags::BARRIER)
                .union(InstrFlags::PSEUDO)
                .union(InstrFlags::VARIADIC);
            if banned_hit(d.flags, banned) {
                return false;
            }
            // A tie between operands of different classes would need a
            // cross-class copy; leave such instructions out.
            if d.operands.iter().any(|o| {
                o.tied_to.is_some_and(|k| {
                    d.operands
                        .get(usize::from(k))
                        .is_none_or(|def| def.class != o.class)
                })
            }) {
                return false;
            }
            if d.implicit_uses.iter().any(|&r| !t.is_reserved(r))
                || d.operands.is_empty()
                || d.num_defs == 0
            {
                return false;
            }
            // Implicit definitions must not touch an allocatable register
            // the generator relies on being preserved; flags are fine.
            if d.implicit_defs
                .iter()
                .any(|&r| classes.iter().any(|&c| t.class_contains(c, r)))
            {
                return false;
            }
            d.operands.iter().all(|o| match o.kind {
                OperandKind::Register => {
                    o.class.is_some_and(|c| classes.contains(&c)) && !o.early_clobber
                }
                OperandKind::Immediate => !o.is_def,
                _ => false,
            })
        };
        let instrs: Vec<Opcode> = (0..t.instrs.len())
            .map(Opcode::new)
            .filter(|&o| plain(o))
            .collect();
        let call = (0..t.instrs.len()).map(Opcode::new).find(|&o| {
            let d = t.instr(o);
            d.is(InstrFlags::CALL)
                && !d.is(InstrFlags::VARIADIC)
                && d.num_defs == 0
                && d.implicit_uses.iter().all(|&r| t.is_reserved(r))
                && d.operands.iter().all(|x| x.kind != OperandKind::Register)
        });
        let mut subs = Vec::new();
        for &c in &classes {
            for i in 0..t.sub_reg_indices.len() {
                let idx = SubRegIndex::new(i);
                let parts: Option<Vec<Reg>> = t
                    .class(c)
                    .members
                    .iter()
                    .map(|&r| t.sub_reg(r, idx))
                    .collect();
                let Some(parts) = parts else { continue };
                if let Some(&d) = classes
                    .iter()
                    .filter(|&&d| parts.iter().all(|&p| t.class_contains(d, p)))
                    .min_by_key(|&&d| t.class(d).members.len())
                {
                    subs.push((c, idx, d));
                }
            }
        }
        Palette {
            classes,
            instrs,
            call,
            subs,
        }
    }

    /// Whether the target offers enough to generate functions.
    pub fn usable(&self) -> bool {
        !self.classes.is_empty() && !self.instrs.is_empty()
    }
}

fn banned_hit(flags: InstrFlags, banned: InstrFlags) -> bool {
    [
        InstrFlags::CALL,
        InstrFlags::TERMINATOR,
        InstrFlags::BRANCH,
        InstrFlags::RETURN,
        InstrFlags::BARRIER,
        InstrFlags::PSEUDO,
        InstrFlags::VARIADIC,
    ]
    .iter()
    .any(|&f| banned.contains(f) && flags.contains(f))
}

/// Values available in a block, by class.
#[derive(Clone, Default)]
struct Live {
    vals: Vec<(VReg, RegClass)>,
}

impl Live {
    fn of(&self, rng: &mut Rng, c: RegClass) -> Option<VReg> {
        let v: Vec<VReg> = self
            .vals
            .iter()
            .filter(|(_, k)| *k == c)
            .map(|(v, _)| *v)
            .collect();
        (!v.is_empty()).then(|| *rng.pick(&v))
    }
}

/// Generator state for one function.
struct Gen<'a, 'b> {
    t: &'a TargetInfo<'b>,
    p: &'a Palette,
    rng: Rng,
}

impl Gen<'_, '_> {
    /// An unreserved member of `c`, in the first allocation order.
    fn fixed_reg(&mut self, c: RegClass) -> Option<Reg> {
        let members: Vec<Reg> = self
            .t
            .class(c)
            .members
            .iter()
            .copied()
            .filter(|&r| !self.t.is_reserved(r))
            .collect();
        (!members.is_empty()).then(|| *self.rng.pick(&members))
    }

    /// A value of class `c`: an existing one, or a new one made from an
    /// immediate-only instruction or an IMPLICIT_DEF.
    fn value(&mut self, b: &mut Builder<'_>, live: &mut Live, c: RegClass) -> VReg {
        if !self.rng.chance(20)
            && let Some(v) = live.of(&mut self.rng, c)
        {
            return v;
        }
        let v = b.new_vreg(c);
        b.inst(Op::Generic(Generic::ImplicitDef)).def(v).done();
        live.vals.push((v, c));
        v
    }

    /// One random target instruction (two-address form for ties).
    fn instr(&mut self, b: &mut Builder<'_>, live: &mut Live) {
        let op = *self.rng.pick(&self.p.instrs);
        let d = self.t.instr(op);
        let ops = d.operands.clone();
        // Uses first (they must exist before the copy a tie needs).
        let mut uses: Vec<Option<VReg>> = vec![None; ops.len()];
        for (k, o) in ops.iter().enumerate() {
            if !o.is_def && o.kind == OperandKind::Register {
                let c = o
                    .class
                    .expect("register operands have classes in the palette");
                uses[k] = Some(self.value(b, live, c));
            }
        }
        let mut defs: Vec<Option<VReg>> = vec![None; ops.len()];
        for (k, o) in ops.iter().enumerate() {
            if o.is_def {
                let c = o
                    .class
                    .expect("register operands have classes in the palette");
                let tied_use = ops.iter().position(|u| u.tied_to == Some(k as u8));
                let v = b.new_vreg(c);
                if let Some(u) = tied_use {
                    let src = uses[u].expect("tied use is a register");
                    // Two-address form: the tied use reads the defined register.
                    b.inst(Op::Generic(Generic::Copy)).def(v).use_(src).done();
                    uses[u] = Some(v);
                }
                defs[k] = Some(v);
                live.vals.push((v, c));
            }
        }
        let mut ib = b.inst(Op::Target(op));
        for (k, o) in ops.iter().enumerate() {
            ib = match (o.kind, o.is_def) {
                (OperandKind::Register, true) => ib.def(defs[k].expect("def made")),
                (OperandKind::Register, false) => ib.use_(uses[k].expect("use made")),
                _ => ib.imm(i64::from(self.rng.range(0, 8))),
            };
        }
        for &r in d.implicit_defs.iter() {
            ib = ib.reg(r, RegFlags::DEF | RegFlags::IMPLICIT | RegFlags::DEAD);
        }
        for &r in d.implicit_uses.iter() {
            ib = ib.implicit_use(r);
        }
        for (k, o) in ops.iter().enumerate() {
            if let Some(def) = o.tied_to {
                ib = ib.tie(u16::from(def), k as u16);
            }
        }
        ib.done();
    }

    /// A sub-register copy out of, or into, a value.
    fn sub_copy(&mut self, b: &mut Builder<'_>, live: &mut Live) {
        if self.p.subs.is_empty() {
            return;
        }
        let (c, idx, part) = *self.rng.pick(&self.p.subs);
        let whole = self.value(b, live, c);
        if self.rng.chance(50) {
            let s = b.new_vreg(part);
            b.inst(Op::Generic(Generic::Copy))
                .def(s)
                .use_sub(whole, idx)
                .done();
            live.vals.push((s, part));
        } else {
            let s = self.value(b, live, part);
            // A partial redefinition keeps the other lanes of `whole`.
            b.inst(Op::Generic(Generic::Copy))
                .def_sub(whole, idx)
                .use_(s)
                .done();
        }
    }

    /// A call: arguments copied into registers the mask clobbers, the
    /// result copied out of one.
    fn call(&mut self, b: &mut Builder<'_>, live: &mut Live, csr: CalleeSavedSet) {
        let Some(op) = self.p.call else { return };
        let c = *self.rng.pick(&self.p.classes);
        let clobbered: Vec<Reg> = self
            .t
            .class(c)
            .members
            .iter()
            .copied()
            .filter(|&r| !self.t.is_reserved(r) && !self.t.mask_preserves(csr, r))
            .collect();
        if clobbered.len() < 2 {
            return;
        }
        let nargs = self.rng.range(0, 3) as usize;
        let mut args = Vec::new();
        for &arg in clobbered.iter().take(nargs.min(clobbered.len() - 1)) {
            let v = self.value(b, live, c);
            b.inst(Op::Generic(Generic::Copy)).def(arg).use_(v).done();
            args.push(arg);
        }
        let ret = clobbered[0];
        let d = self.t.instr(op);
        let mut ib = b.inst(Op::Target(op));
        for _ in d.operands.iter() {
            ib = ib.imm(0);
        }
        ib = ib.operand(regalloc::ir::Operand::RegMask(RegMask::Named(csr)));
        for &r in d.implicit_uses.iter() {
            ib = ib.implicit_use(r);
        }
        for &a in &args {
            ib = ib.implicit_use(a);
        }
        for &r in d.implicit_defs.iter() {
            ib = ib.reg(r, RegFlags::DEF | RegFlags::IMPLICIT | RegFlags::DEAD);
        }
        ib = ib.implicit_def(ret);
        ib.done();
        let v = b.new_vreg(c);
        b.inst(Op::Generic(Generic::Copy)).def(v).use_(ret).done();
        live.vals.push((v, c));
    }

    fn straight(
        &mut self,
        b: &mut Builder<'_>,
        live: &mut Live,
        n: u32,
        csr: Option<CalleeSavedSet>,
    ) {
        for _ in 0..n {
            match self.rng.range(0, 100) {
                0..=69 => self.instr(b, live),
                70..=84 => self.sub_copy(b, live),
                85..=91 => {
                    if let Some(s) = csr {
                        self.call(b, live, s)
                    }
                }
                _ => {
                    let c = *self.rng.pick(&self.p.classes);
                    let src = self.value(b, live, c);
                    let v = b.new_vreg(c);
                    b.inst(Op::Generic(Generic::Copy)).def(v).use_(src).done();
                    live.vals.push((v, c));
                }
            }
        }
    }
}

/// A random function for `t` from `seed`; `size` scales its length (and so
/// its register pressure).
pub fn generate(t: &TargetInfo<'_>, p: &Palette, seed: u64, size: u32) -> MachineFunction {
    let mut f = MachineFunction::new(&format!("random_{seed:x}"));
    let mut g = Gen {
        t,
        p,
        rng: Rng::new(seed),
    };
    let csr = (!t.callee_saved.is_empty())
        .then(|| CalleeSavedSet::new(g.rng.index(t.callee_saved.len())));
    let mut b = Builder::new(&mut f);
    let blocks: Vec<Block> = (0..7).map(|_| b.new_block()).collect();
    let [entry, header, body, then_, else_, join, exit] = blocks[..] else {
        unreachable!("seven blocks")
    };
    b.add_succ(entry, header, None);
    b.add_succ(header, body, None);
    b.add_succ(header, then_, None);
    b.add_succ(body, header, None);
    b.add_succ(then_, join, None);
    b.add_succ(then_, else_, None);
    b.add_succ(else_, join, None);
    b.add_succ(join, exit, None);

    // Entry: arguments out of fixed registers, then some work.
    b.at_end(entry);
    let mut live = Live::default();
    let main = *g.rng.pick(&p.classes);
    let nargs = g.rng.range(1, 3);
    let mut taken = Vec::new();
    for _ in 0..nargs {
        let Some(r) = g.fixed_reg(main) else { break };
        if taken.iter().any(|&x| t.regs_overlap(x, r)) {
            continue;
        }
        taken.push(r);
        b.add_live_in(entry, r);
        let v = b.new_vreg(main);
        b.inst(Op::Generic(Generic::Copy)).def(v).use_(r).done();
        live.vals.push((v, main));
    }
    g.straight(&mut b, &mut live, size, csr);
    // A value carried around the loop, redefined in the body in two-address form.
    let carried = g.value(&mut b, &mut live, main);

    b.at_end(header);
    let mut in_header = live.clone();
    g.straight(&mut b, &mut in_header, size / 3 + 1, csr);

    b.at_end(body);
    let mut in_body = in_header.clone();
    g.straight(&mut b, &mut in_body, size / 2 + 1, csr);
    let step = g.value(&mut b, &mut in_body, main);
    b.inst(Op::Generic(Generic::Copy))
        .def(carried)
        .use_(step)
        .done();

    // The diamond sees what the header defined; its arms' values die in them.
    b.at_end(then_);
    let mut in_then = in_header.clone();
    g.straight(&mut b, &mut in_then, size / 3 + 1, csr);
    b.at_end(else_);
    let mut in_else = in_then.clone();
    g.straight(&mut b, &mut in_else, size / 3 + 1, csr);
    b.at_end(join);
    let mut in_join = in_then.clone();
    g.straight(&mut b, &mut in_join, size / 4 + 1, csr);

    // Exit: the carried value and one more into a fixed register.
    b.at_end(exit);
    let mut in_exit = in_join;
    let out = g.value(&mut b, &mut in_exit, main);
    if let Some(r) = g.fixed_reg(main) {
        b.inst(Op::Generic(Generic::Copy)).def(r).use_(out).done();
        let keep = b.new_vreg(main);
        b.inst(Op::Generic(Generic::Copy))
            .def(keep)
            .use_(carried)
            .done();
    }
    f
}
