//! Instructions: `Instruction` defs -> machine operands (sub-operands expanded), ties, early-clobbers, implicit registers and flags; and the per-class spill/reload/copy templates.
//!
//! Follows llvm-tblgen's `CodeGenInstruction`: the explicit operands are the
//! `OutOperandList` arguments (definitions) followed by the `InOperandList`
//! arguments (uses); an `Operand` with a non-empty `MIOperandInfo` stands for
//! one machine operand per sub-operand. `Constraints` is a comma-separated
//! list of `$a = $b` (tie a use to a definition) and `@earlyclobber $x`.
//! Instructions are numbered in name order, so opcode numbers only change
//! when instructions are added or renamed.
//!
//! Templates come from our prelude extension `SpillTemplates` (see
//! `prelude/regalloc.td`): per register class, a dag per kind whose operator
//! is the instruction and whose arguments are placeholders (`TplReg`,
//! `TplSrc`, `TplSlot`, `TplNoReg`), integers or fixed registers. A class
//! without templates of its own inherits those of its nearest super-class
//! (fewest members) that has them.
//!
//! A `PointerLikeRegClass<Kind>` operand takes the class that our prelude
//! extension `PointerRegClass<Kind, Class>` gives its kind (LLVM's
//! `getPointerRegClass`, C++ there), and no class when the target gives none.

use super::access::Fields;
use super::classes::Classes;
use super::regs::RegBank;
use crate::diag::{Diagnostic, Kind, Span};
use crate::records::{Init, RecId, RecordKeeper};
use rustc_hash::FxHashMap as HashMap;

/// Instruction flag bits; the values of `regalloc::target::InstrFlags`.
pub mod flags {
    /// `isReMaterializable`.
    pub const REMAT: u32 = 1 << 0;
    /// `isAsCheapAsAMove`.
    pub const CHEAP_AS_MOVE: u32 = 1 << 1;
    /// `isMoveImm`.
    pub const MOVE_IMM: u32 = 1 << 2;
    /// `isCommutable`.
    pub const COMMUTABLE: u32 = 1 << 3;
    /// `isConvertibleToThreeAddress`.
    pub const CONVERTIBLE_TO_3ADDR: u32 = 1 << 4;
    /// `isCall`.
    pub const CALL: u32 = 1 << 5;
    /// `isTerminator`.
    pub const TERMINATOR: u32 = 1 << 6;
    /// `isBranch`.
    pub const BRANCH: u32 = 1 << 7;
    /// `isIndirectBranch`.
    pub const INDIRECT_BRANCH: u32 = 1 << 8;
    /// `isReturn`.
    pub const RETURN: u32 = 1 << 9;
    /// `isBarrier`.
    pub const BARRIER: u32 = 1 << 10;
    /// `mayLoad`.
    pub const MAY_LOAD: u32 = 1 << 11;
    /// `mayStore`.
    pub const MAY_STORE: u32 = 1 << 12;
    /// `isMoveReg`.
    pub const MOVE_REG: u32 = 1 << 13;
    /// `isPseudo`.
    pub const PSEUDO: u32 = 1 << 14;
    /// `variable_ops` in the operand list.
    pub const VARIADIC: u32 = 1 << 15;
    /// `hasSideEffects`.
    pub const SIDE_EFFECTS: u32 = 1 << 16;
    /// `isPredicated` (a target's own field, Hexagon's TSFlags bit):
    /// executes under a predicate, so its definitions may keep the old value.
    pub const PREDICATED: u32 = 1 << 17;
    /// `isRegisterCopy` (a target's own field): output 0 takes input 1's
    /// value (LLVM's Hexagon RDF optimiser's copies, C++ there).
    pub const REGISTER_COPY: u32 = 1 << 18;
    /// `isCopyWhenZero` (a target's own field): the same when the last
    /// explicit operand is the immediate 0.
    pub const COPY_WHEN_ZERO: u32 = 1 << 19;

    /// The `Instruction` bit fields and their flags, in bit order.
    pub const FIELDS: &[(&str, u32)] = &[
        ("isReMaterializable", REMAT),
        ("isAsCheapAsAMove", CHEAP_AS_MOVE),
        ("isMoveImm", MOVE_IMM),
        ("isCommutable", COMMUTABLE),
        ("isConvertibleToThreeAddress", CONVERTIBLE_TO_3ADDR),
        ("isCall", CALL),
        ("isTerminator", TERMINATOR),
        ("isBranch", BRANCH),
        ("isIndirectBranch", INDIRECT_BRANCH),
        ("isReturn", RETURN),
        ("isBarrier", BARRIER),
        ("mayLoad", MAY_LOAD),
        ("mayStore", MAY_STORE),
        ("isMoveReg", MOVE_REG),
        ("isPseudo", PSEUDO),
        ("hasSideEffects", SIDE_EFFECTS),
        ("isPredicated", PREDICATED),
        ("isRegisterCopy", REGISTER_COPY),
        ("isCopyWhenZero", COPY_WHEN_ZERO),
    ];
}

/// What a machine operand holds (`regalloc::target::OperandKind`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum OperandKind {
    /// A register.
    Register,
    /// An immediate (or symbol, frame index used as one).
    Immediate,
    /// A basic block.
    Block,
    /// Anything else.
    Other,
}

/// One machine operand.
#[derive(Clone, Debug, PartialEq)]
pub struct Operand {
    /// Name without `$` (`addr.base` or `addr.1` for a sub-operand).
    pub name: String,
    /// What it holds.
    pub kind: OperandKind,
    /// Register class index, for register operands with a class.
    pub class: Option<usize>,
    /// A definition (from `OutOperandList`).
    pub is_def: bool,
    /// For a use, the definition it is tied to.
    pub tied_to: Option<usize>,
    /// `@earlyclobber`.
    pub early_clobber: bool,
}

/// One instruction.
#[derive(Clone, Debug, PartialEq)]
pub struct Instr {
    /// Name (the MIR opcode).
    pub name: String,
    /// The def.
    pub def: RecId,
    /// Where it is defined.
    pub loc: Span,
    /// Machine operands, definitions first.
    pub operands: Vec<Operand>,
    /// Number of definitions.
    pub num_defs: usize,
    /// `Defs`, as register indices.
    pub implicit_defs: Vec<usize>,
    /// `Uses`, as register indices.
    pub implicit_uses: Vec<usize>,
    /// [`flags`] bits.
    pub flags: u32,
}

/// One operand of a template.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TplOp {
    /// `TplReg`: the register stored, loaded, or copied into.
    Reg,
    /// `TplSrc`: the source of a copy.
    Src,
    /// `TplSlot`: the stack slot.
    Slot,
    /// An integer.
    Imm(i64),
    /// A fixed register.
    Fixed(usize),
    /// `TplNoReg`: no register (`$noreg`).
    NoReg,
    /// `(TplReg idx)`: sub-register `idx` (a sub-register index) of the
    /// register stored, loaded or copied into.
    RegSub(usize),
    /// `(TplSrc idx)`: sub-register `idx` of the source of a copy.
    SrcSub(usize),
}

/// Every instruction.
#[derive(Clone, Debug, Default)]
pub struct Instrs {
    /// Instructions in opcode order.
    pub list: Vec<Instr>,
    by_def: HashMap<RecId, usize>,
}

impl Instrs {
    /// The opcode of an `Instruction` def.
    pub fn opcode_of(&self, d: RecId) -> Option<usize> {
        self.by_def.get(&d).copied()
    }
}

/// A `$name` reference in a constraint: the flattened operand index.
fn lookup(names: &[(String, usize, usize)], text: &str) -> Result<usize, String> {
    let t = text.trim();
    let Some(n) = t.strip_prefix('$') else {
        return Err(format!(
            "expected an operand name starting with '$', found '{t}'"
        ));
    };
    // `$a` names an operand with one machine operand; `$a.b` a sub-operand.
    for (name, first, count) in names {
        if name == n {
            if *count != 1 {
                return Err(format!(
                    "operand '${n}' has {count} sub-operands; name one of them (${n}.<sub-operand>)"
                ));
            }
            return Ok(*first);
        }
    }
    Err(format!("no operand named '${n}'"))
}

/// One argument of a template dag (or of a fold's address): a placeholder,
/// an integer or a fixed register; the error says what it is instead.
pub(super) fn template_operand(f: &Fields<'_>, bank: &RegBank, a: &Init) -> Result<TplOp, String> {
    match a {
        Init::Int(i) => Ok(TplOp::Imm(*i)),
        Init::Bit(b) => Ok(TplOp::Imm(i64::from(*b))),
        Init::Def(x) => match f.name(*x).as_str() {
            "TplReg" => Ok(TplOp::Reg),
            "TplSrc" => Ok(TplOp::Src),
            "TplSlot" => Ok(TplOp::Slot),
            "TplNoReg" => Ok(TplOp::NoReg),
            n => bank.reg_of_def.get(x).map(|&r| TplOp::Fixed(r)).ok_or_else(|| {
                format!(
                    "operand '{n}' is not a placeholder (TplReg, TplSrc, TplSlot, TplNoReg), an integer or a register"
                )
            }),
        },
        Init::Dag(g) => {
            let piece = match &g.op {
                Init::Def(x) => match f.name(*x).as_str() {
                    "TplReg" => Some(TplOp::RegSub as fn(usize) -> TplOp),
                    "TplSrc" => Some(TplOp::SrcSub as fn(usize) -> TplOp),
                    _ => None,
                },
                _ => None,
            };
            let index = match g.args.as_slice() {
                [(Init::Def(i), _)] => bank.index_of(*i),
                _ => None,
            };
            match (piece, index) {
                (Some(make), Some(i)) => Ok(make(i)),
                _ => Err(
                    "a dag operand must be (TplReg idx) or (TplSrc idx), idx a sub-register index"
                        .to_string(),
                ),
            }
        }
        _ => Err("operands must be placeholders, integers or registers".to_string()),
    }
}

struct Builder<'a> {
    f: Fields<'a>,
    bank: &'a RegBank,
    class_of_def: HashMap<RecId, usize>,
    /// The class of each pointer-like operand kind (`PointerRegClass`).
    pointer_classes: HashMap<i64, usize>,
    diags: Vec<Diagnostic>,
}

impl Builder<'_> {
    fn err(&mut self, span: Span, msg: String) {
        self.diags
            .push(Diagnostic::error(Kind::Semantic, span, msg));
    }

    /// An error in an instruction's `Constraints`: at the `let` that set them.
    fn err_constraint(&mut self, d: RecId, msg: String) {
        let e = self.f.error_at_let(d, &["Constraints"], msg);
        self.diags.push(e);
    }

    /// The machine operand(s) of one dag argument.
    // The argument, its name and role, and the two lists it extends: a
    // struct for them would exist for this one call.
    #[allow(clippy::too_many_arguments)]
    fn operand(
        &mut self,
        span: Span,
        inst: &str,
        arg: &Init,
        name: &str,
        is_def: bool,
        out: &mut Vec<Operand>,
        names: &mut Vec<(String, usize, usize)>,
    ) -> Result<(), ()> {
        let first = out.len();
        let d = match arg {
            Init::Def(d) => *d,
            _ => {
                self.err(
                    span,
                    format!("operand '${name}' of '{inst}' is not a record (an operand type or a register class)"),
                );
                return Err(());
            }
        };
        if let Some(op) = self.leaf(d) {
            out.push(Operand {
                name: name.to_string(),
                kind: op.0,
                class: op.1,
                is_def,
                tied_to: None,
                early_clobber: false,
            });
        } else if self.f.name(d) == "unknown" {
            // LLVM's Target.td: an operand of any kind (generic pseudos).
            out.push(Operand {
                name: name.to_string(),
                kind: OperandKind::Other,
                class: None,
                is_def,
                tied_to: None,
                early_clobber: false,
            });
        } else if self.f.is_a(d, "Operand") {
            let sub = match self.f.value(d, "MIOperandInfo") {
                Some(Init::Dag(g)) => g.args.clone(),
                _ => Vec::new(),
            };
            if sub.is_empty() {
                out.push(Operand {
                    name: name.to_string(),
                    kind: self.operand_kind(d),
                    class: None,
                    is_def,
                    tied_to: None,
                    early_clobber: false,
                });
            } else {
                for (k, (a, sname)) in sub.iter().enumerate() {
                    let sub_name = match sname {
                        Some(s) => format!("{name}.{s}"),
                        None => format!("{name}.{k}"),
                    };
                    let leaf = match a {
                        Init::Def(sd) => self.leaf(*sd).or_else(|| {
                            self.f
                                .is_a(*sd, "Operand")
                                .then(|| (self.operand_kind(*sd), None))
                        }),
                        _ => None,
                    };
                    let Some((kind, class)) = leaf else {
                        self.err(
                            span,
                            format!(
                                "sub-operand {k} of operand type '{}' (operand '${name}' of '{inst}') is not a register class, pointer class or operand type",
                                self.f.name(d)
                            ),
                        );
                        return Err(());
                    };
                    names.push((sub_name.clone(), out.len(), 1));
                    out.push(Operand {
                        name: sub_name,
                        kind,
                        class,
                        is_def,
                        tied_to: None,
                        early_clobber: false,
                    });
                }
            }
        } else {
            self.err(
                span,
                format!(
                    "operand '${name}' of '{inst}' has type '{}', which is not a register class, register operand or operand type",
                    self.f.name(d)
                ),
            );
            return Err(());
        }
        names.push((name.to_string(), first, out.len() - first));
        Ok(())
    }

    /// A register-like operand type: its kind and class.
    fn leaf(&self, d: RecId) -> Option<(OperandKind, Option<usize>)> {
        if self.f.is_a(d, "RegisterClass") {
            return Some((OperandKind::Register, self.class_of_def.get(&d).copied()));
        }
        if self.f.is_a(d, "RegisterOperand") {
            let c = self.f.opt_def(d, "RegClass");
            return Some((
                OperandKind::Register,
                c.and_then(|c| self.class_of_def.get(&c).copied()),
            ));
        }
        if self.f.is_a(d, "PointerLikeRegClass") {
            let kind = self.f.opt_int(d, "RegClassKind");
            let class = kind.and_then(|k| self.pointer_classes.get(&k).copied());
            return Some((OperandKind::Register, class));
        }
        None
    }

    /// Reads every `PointerRegClass` def: one class per pointer kind.
    fn pointer_classes(&mut self, rk: &RecordKeeper) {
        let mut first: HashMap<i64, Span> = HashMap::default();
        for d in rk.derived_defs("PointerRegClass") {
            let span = self.f.loc(d);
            let kind = match self.f.int(d, "Kind") {
                Ok(k) => k,
                Err(e) => {
                    self.diags.push(e);
                    continue;
                }
            };
            let Some(c) = self
                .f
                .opt_def(d, "Class")
                .and_then(|cd| self.class_of_def.get(&cd).copied())
            else {
                self.err(
                    span,
                    format!(
                        "PointerRegClass '{}' needs Class to be a register class",
                        rk.name_of(d)
                    ),
                );
                continue;
            };
            if let Some(&prev) = first.get(&kind) {
                let e = Diagnostic::error(
                    Kind::Semantic,
                    span,
                    format!("pointer register class kind {kind} is given twice"),
                )
                .with_secondary(prev, "first given here");
                self.diags.push(e);
                continue;
            }
            first.insert(kind, span);
            self.pointer_classes.insert(kind, c);
        }
    }

    fn operand_kind(&self, d: RecId) -> OperandKind {
        let ty = self.f.opt_def(d, "Type").map(|t| self.f.name(t));
        let ot = self.f.string(d, "OperandType");
        if ty.as_deref() == Some("OtherVT") {
            OperandKind::Block
        } else if ot == "OPERAND_MEMORY" {
            OperandKind::Other
        } else {
            OperandKind::Immediate
        }
    }

    fn instr(&mut self, d: RecId) -> Option<Instr> {
        let name = self.f.name(d);
        let span = self.f.loc(d);
        let mut operands = Vec::new();
        let mut names = Vec::new();
        let mut fl = 0u32;
        for (field, marker, is_def) in [
            ("OutOperandList", "outs", true),
            ("InOperandList", "ins", false),
        ] {
            let g = match self.f.value(d, field) {
                Some(Init::Dag(g)) => g.clone(),
                _ => {
                    self.err(
                        span,
                        format!("instruction '{name}' needs {field} to be a dag ({marker} ...)"),
                    );
                    return None;
                }
            };
            let op_ok = matches!(&g.op, Init::Def(o) if {
                let n = self.f.name(*o);
                n == marker || n == "ops"
            });
            if !op_ok {
                self.err(
                    span,
                    format!("{field} of '{name}' must be a ({marker} ...) dag"),
                );
                return None;
            }
            for (a, an) in &g.args {
                if matches!(a, Init::Def(v) if self.f.name(*v) == "variable_ops") {
                    fl |= flags::VARIADIC;
                    continue;
                }
                let an = an
                    .as_deref()
                    .map(str::to_string)
                    .unwrap_or_else(|| format!("op{}", operands.len()));
                self.operand(span, &name, a, &an, is_def, &mut operands, &mut names)
                    .ok()?;
            }
        }
        let num_defs = operands.iter().filter(|o| o.is_def).count();
        // Constraints.
        let cons = self.f.string(d, "Constraints");
        let mut bad = false;
        for c in cons.split(',') {
            let c = c.trim();
            if c.is_empty() {
                continue;
            }
            if let Some(rest) = c.strip_prefix("@earlyclobber") {
                match lookup(&names, rest) {
                    Ok(i) => operands[i].early_clobber = true,
                    Err(e) => {
                        self.err_constraint(
                            d,
                            format!("bad constraint '{c}' in Constraints of '{name}': {e}"),
                        );
                        bad = true;
                    }
                }
                continue;
            }
            let Some((l, r)) = c.split_once('=') else {
                self.err_constraint(
                    d,
                    format!(
                        "bad constraint '{c}' in Constraints of '{name}': expected '$a = $b' or '@earlyclobber $a'"
                    ),
                );
                bad = true;
                continue;
            };
            let (a, b) = match (lookup(&names, l), lookup(&names, r)) {
                (Ok(a), Ok(b)) => (a, b),
                (Err(e), _) | (_, Err(e)) => {
                    self.err_constraint(
                        d,
                        format!("bad constraint '{c}' in Constraints of '{name}': {e}"),
                    );
                    bad = true;
                    continue;
                }
            };
            let (dst, src) = if a < b { (a, b) } else { (b, a) };
            if !operands[dst].is_def {
                self.err_constraint(
                    d,
                    format!(
                        "bad constraint '{c}' in Constraints of '{name}': input operands '${}' and '${}' cannot be tied; a tie joins a use to a definition",
                        operands[dst].name, operands[src].name
                    ),
                );
                bad = true;
                continue;
            }
            if operands[src].is_def {
                self.err_constraint(
                    d,
                    format!(
                        "bad constraint '{c}' in Constraints of '{name}': output operands '${}' and '${}' cannot be tied; a tie joins a use to a definition",
                        operands[dst].name, operands[src].name
                    ),
                );
                bad = true;
                continue;
            }
            if operands[src].tied_to.is_some() {
                self.err_constraint(
                    d,
                    format!(
                        "bad constraint '{c}' in Constraints of '{name}': operand '${}' cannot have multiple constraints",
                        operands[src].name
                    ),
                );
                bad = true;
                continue;
            }
            operands[src].tied_to = Some(dst);
        }
        if bad {
            return None;
        }
        for (field, bit) in flags::FIELDS {
            if self.f.bit(d, field) {
                fl |= bit;
            }
        }
        let regs = |field: &str, b: &mut Self| -> Vec<usize> {
            let mut v = Vec::new();
            for e in b.f.list(d, field).iter() {
                match e {
                    Init::Def(r) if b.bank.reg_of_def.contains_key(r) => {
                        v.push(b.bank.reg_of_def[r])
                    }
                    _ => b.err(
                        span,
                        format!("{field} of '{name}' lists something that is not a register"),
                    ),
                }
            }
            v
        };
        let implicit_defs = regs("Defs", self);
        let implicit_uses = regs("Uses", self);
        Some(Instr {
            name,
            def: d,
            loc: span,
            operands,
            num_defs,
            implicit_defs,
            implicit_uses,
            flags: fl,
        })
    }
}

impl Instrs {
    /// Reads every `Instruction` def.
    pub fn build(
        rk: &RecordKeeper,
        bank: &RegBank,
        classes: &Classes,
    ) -> Result<Instrs, Vec<Diagnostic>> {
        let f = Fields { rk };
        let class_of_def = classes
            .list
            .iter()
            .enumerate()
            .filter_map(|(k, c)| c.def.map(|d| (d, k)))
            .collect();
        let mut b = Builder {
            f,
            bank,
            class_of_def,
            pointer_classes: HashMap::default(),
            diags: Vec::new(),
        };
        b.pointer_classes(rk);
        let mut defs = rk.derived_defs("Instruction");
        defs.sort_by_key(|&d| rk.name_of(d));
        let mut list = Vec::with_capacity(defs.len());
        for d in defs {
            if let Some(i) = b.instr(d) {
                list.push(i);
            }
        }
        if !b.diags.is_empty() {
            return Err(b.diags);
        }
        let by_def: HashMap<RecId, usize> =
            list.iter().enumerate().map(|(k, i)| (i.def, k)).collect();
        Ok(Instrs { list, by_def })
    }
}

#[cfg(test)]
mod tests {

    const HEAD: &str = r#"
include "regalloc.td"
def R0 : Register<"r0">; def R1 : Register<"r1">; def R2 : Register<"r2">;
def GPR : RegisterClass<"T", [i32], 32, (add R0, R1, R2)>;
def LOW : RegisterClass<"T", [i32], 32, (add R0, R1)>;
def imm : Operand<i32>;
def mem : Operand<i32> { let MIOperandInfo = (ops GPR:$base, imm:$off); }
def ptr : PointerLikeRegClass<0>;
def GPRop : RegisterOperand<LOW>;
"#;

    crate::target::test_machine!(HEAD);

    #[test]
    fn operands_ties_flags_and_order() {
        let m = model(
            r#"
def ZADD : Instruction {
  let OutOperandList = (outs GPR:$dst);
  let InOperandList = (ins GPR:$a, GPRop:$b);
  let Constraints = "$dst = $a";
  let isCommutable = true;
  let Defs = [R2];
}
def LDU : Instruction {
  let OutOperandList = (outs GPR:$wb, GPR:$t);
  let InOperandList = (ins mem:$addr, ptr:$p, variable_ops);
  let Constraints = "@earlyclobber $wb, $addr.base = $wb";
  let mayLoad = true;
}
"#,
        )
        .unwrap();
        let l = &m.instrs.list;
        // Name order: LDU before ZADD.
        assert_eq!(l[0].name, "LDU");
        assert_eq!(l[1].name, "ZADD");
        let add = &l[1];
        assert_eq!(add.num_defs, 1);
        assert_eq!(add.operands[1].tied_to, Some(0));
        let low = m.classes.list.iter().position(|c| c.name == "LOW");
        assert_eq!(add.operands[2].class, low);
        assert_eq!(add.implicit_defs.len(), 1);
        assert!(add.flags & super::flags::COMMUTABLE != 0);
        let ldu = &l[0];
        assert_eq!(ldu.operands.len(), 5);
        assert_eq!(ldu.operands[2].name, "addr.base");
        assert_eq!(ldu.operands[2].tied_to, Some(0));
        assert!(ldu.operands[0].early_clobber);
        assert_eq!(ldu.operands[3].kind, super::OperandKind::Immediate);
        assert_eq!(ldu.operands[4].kind, super::OperandKind::Register);
        assert_eq!(ldu.operands[4].class, None);
        assert!(ldu.flags & super::flags::VARIADIC != 0);
        assert!(ldu.flags & super::flags::MAY_LOAD != 0);
    }

    #[test]
    fn pointer_operands_take_the_class_of_their_kind() {
        let m = model(
            r#"
def nosp : PointerLikeRegClass<1>;
def : PointerRegClass<0, LOW>;
def LD : Instruction { let OutOperandList = (outs GPR:$v); let InOperandList = (ins ptr:$p, nosp:$q); }
"#,
        )
        .unwrap();
        let low = m.classes.list.iter().position(|c| c.name == "LOW");
        let ld = &m.instrs.list[0];
        assert_eq!(ld.operands[1].class, low, "kind 0 is LOW");
        assert_eq!(ld.operands[2].class, None, "kind 1 has no class given");
        let e = err("def : PointerRegClass<0, LOW>; def : PointerRegClass<0, GPR>;");
        assert!(
            e.contains("pointer register class kind 0 is given twice"),
            "{e}"
        );
        assert!(e.contains("first given here"), "{e}");
        let e = err("def : PointerRegClass<0, imm>;");
        assert!(
            e.contains("Class to be a register class") || e.contains("type"),
            "{e}"
        );
    }

    #[test]
    fn bad_constraints_are_errors_with_the_instruction_named() {
        let base = |c: &str| {
            format!(
                "def ADD : Instruction {{ let OutOperandList = (outs GPR:$dst); \
                 let InOperandList = (ins GPR:$a, mem:$m); let Constraints = \"{c}\"; }}"
            )
        };
        let e = err(&base("$dst == $a"));
        assert!(
            e.contains("no operand named '$= $a'") || e.contains("bad constraint"),
            "{e}"
        );
        assert!(err(&base("$dst = $x")).contains("no operand named '$x'"));
        assert!(err(&base("$a = $m.base")).contains("cannot be tied"));
        assert!(err(&base("$dst = $m")).contains("sub-operands"));
        assert!(err(&base("$dst $a")).contains("expected '$a = $b'"));
        assert!(err(&base("@earlyclobber $q")).contains("no operand named '$q'"));
        let e = err(&base("$dst = $a,$dst = $a"));
        assert!(e.contains("multiple constraints"), "{e}");
        assert!(e.contains("t.td:"), "{e}");
    }
}
