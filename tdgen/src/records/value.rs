//! Values (llvm-tblgen's `Init` hierarchy): literals, references, and operators not yet folded.

use super::RecId;
use super::types::Ty;
use crate::syntax::ast::Sym;
use std::rc::Rc;

/// A TableGen value. Cheap to clone (reference counted); immutable.
#[derive(Clone, Debug)]
pub enum Init {
    /// `?`
    Unset,
    /// A `bit`.
    Bit(bool),
    /// A `bits<n>` value, bit 0 first. Elements are `Bit`, `Unset`, or
    /// unresolved bit-valued expressions (`VarBit`, ...).
    Bits(Rc<[Init]>),
    /// An `int`.
    Int(i64),
    /// A `string` (code literals keep the flag so they print as `[{...}]`).
    Str(Rc<str>, StrFormat),
    /// A list with its element type.
    List(Rc<[Init]>, Rc<Ty>),
    /// A reference to a concrete record (def).
    Def(RecId),
    /// A `dag`.
    Dag(Rc<Dag>),
    /// A reference to a variable not yet resolved: a field, a template
    /// argument (`Class:arg`), a loop iterator or a bang-operator variable.
    Var(Rc<Var>),
    /// One bit of a `bits`-typed unresolved value.
    VarBit(Rc<Init>, u32),
    /// `value.field` not yet resolved.
    Field(Rc<Field>),
    /// A bang operator not yet folded.
    Op(Rc<OpInit>),
    /// `Class<args>` with unresolved arguments (llvm-tblgen's `VarDefInit`).
    AnonClass(Rc<AnonClass>),
}

/// How a string value was written.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum StrFormat {
    /// `"..."`
    String,
    /// `[{...}]`
    Code,
}

/// A dag value.
#[derive(Clone, Debug)]
pub struct Dag {
    /// The operator.
    pub op: Init,
    /// The operator's name (`(op:$n ...)`).
    pub op_name: Option<Rc<str>>,
    /// The arguments with their names.
    pub args: Vec<(Init, Option<Rc<str>>)>,
}

/// A variable reference.
#[derive(Clone, Debug)]
pub struct Var {
    /// The (qualified) name.
    pub name: Sym,
    /// The declared type.
    pub ty: Ty,
}

/// A field access on an unresolved record value.
#[derive(Clone, Debug)]
pub struct Field {
    /// The record-valued expression.
    pub rec: Init,
    /// The field name.
    pub field: Sym,
    /// The field's type.
    pub ty: Ty,
}

/// An anonymous class instantiation whose arguments are not yet concrete.
#[derive(Clone, Debug)]
pub struct AnonClass {
    /// The class.
    pub class: RecId,
    /// The arguments as written: (qualified template-argument name, value).
    pub args: Vec<(Sym, Init)>,
    /// How many of `args` were written positionally (the rest by name).
    /// llvm-tblgen keys an instance on the arguments as written, so
    /// `C<1, 2>`, `C<1, b=2>` and `C<1>` (with `b = 2` the default) are three
    /// anonymous records.
    pub positional: usize,
}

/// A bang operator with its operands and result type.
#[derive(Clone, Debug)]
pub struct OpInit {
    /// Which operator.
    pub op: Op,
    /// The operands (for `!foreach`/`!filter`/`!foldl`, the bound variables too).
    pub args: Vec<Init>,
    /// The result type.
    pub ty: Ty,
}

/// The bang operators (and the internal list-element/slice operators).
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Op {
    // unary
    Cast,
    Not,
    Head,
    Tail,
    Size,
    Empty,
    GetDagOp,
    LogTwo,
    ToLower,
    ToUpper,
    Repr,
    ListFlatten,
    Initialized,
    // binary
    Add,
    Sub,
    Mul,
    Div,
    And,
    Or,
    Xor,
    Shl,
    Srl,
    Sra,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    StrConcat,
    ListConcat,
    ListSplat,
    ListRemove,
    Interleave,
    Con,
    GetDagArg,
    GetDagName,
    SetDagOp,
    ListElem,
    ListSlice,
    Range,
    // ternary and more
    If,
    Foreach,
    Filter,
    Foldl,
    Subst,
    Substr,
    Find,
    DagOp,
    SetDagArg,
    SetDagName,
    Cond,
    IsA(Ty),
    Exists(Ty),
}

impl Op {
    /// The name as written after `!`.
    pub fn name(&self) -> &'static str {
        match self {
            Op::Cast => "cast",
            Op::Not => "not",
            Op::Head => "head",
            Op::Tail => "tail",
            Op::Size => "size",
            Op::Empty => "empty",
            Op::GetDagOp => "getdagop",
            Op::LogTwo => "logtwo",
            Op::ToLower => "tolower",
            Op::ToUpper => "toupper",
            Op::Repr => "repr",
            Op::ListFlatten => "listflatten",
            Op::Initialized => "initialized",
            Op::Add => "add",
            Op::Sub => "sub",
            Op::Mul => "mul",
            Op::Div => "div",
            Op::And => "and",
            Op::Or => "or",
            Op::Xor => "xor",
            Op::Shl => "shl",
            Op::Srl => "srl",
            Op::Sra => "sra",
            Op::Eq => "eq",
            Op::Ne => "ne",
            Op::Lt => "lt",
            Op::Le => "le",
            Op::Gt => "gt",
            Op::Ge => "ge",
            Op::StrConcat => "strconcat",
            Op::ListConcat => "listconcat",
            Op::ListSplat => "listsplat",
            Op::ListRemove => "listremove",
            Op::Interleave => "interleave",
            Op::Con => "con",
            Op::GetDagArg => "getdagarg",
            Op::GetDagName => "getdagname",
            Op::SetDagOp => "setdagop",
            Op::ListElem => "listelem",
            Op::ListSlice => "listslice",
            Op::Range => "range",
            Op::If => "if",
            Op::Foreach => "foreach",
            Op::Filter => "filter",
            Op::Foldl => "foldl",
            Op::Subst => "subst",
            Op::Substr => "substr",
            Op::Find => "find",
            Op::DagOp => "dag",
            Op::SetDagArg => "setdagarg",
            Op::SetDagName => "setdagname",
            Op::Cond => "cond",
            Op::IsA(_) => "isa",
            Op::Exists(_) => "exists",
        }
    }
}

impl Init {
    /// A string value.
    pub fn str(s: &str) -> Init {
        Init::Str(Rc::from(s), StrFormat::String)
    }

    /// Whether the value contains no unresolved reference or operator
    /// (llvm-tblgen's `isConcrete`; `?` counts as concrete).
    pub fn is_concrete(&self) -> bool {
        match self {
            Init::Unset | Init::Bit(_) | Init::Int(_) | Init::Str(..) | Init::Def(_) => true,
            Init::Bits(bs) => bs.iter().all(Init::is_concrete),
            Init::List(es, _) => es.iter().all(Init::is_concrete),
            Init::Dag(d) => d.op.is_concrete() && d.args.iter().all(|(a, _)| a.is_concrete()),
            Init::Var(_) | Init::VarBit(..) | Init::Field(_) | Init::Op(_) | Init::AnonClass(_) => {
                false
            }
        }
    }

    /// Whether the value is complete: no `?` anywhere at the top (llvm-tblgen's `isComplete`).
    pub fn is_complete(&self) -> bool {
        match self {
            Init::Unset => false,
            Init::Bits(bs) => bs.iter().all(Init::is_complete),
            Init::List(es, _) => es.iter().all(Init::is_complete),
            Init::Dag(d) => d.op.is_complete() && d.args.iter().all(|(a, _)| a.is_complete()),
            _ => true,
        }
    }

    /// Whether this is `?`.
    pub fn is_unset(&self) -> bool {
        matches!(self, Init::Unset)
    }

    /// Structural identity, used to detect change and for caching.
    pub fn same(&self, other: &Init) -> bool {
        match (self, other) {
            (Init::Unset, Init::Unset) => true,
            (Init::Bit(a), Init::Bit(b)) => a == b,
            (Init::Int(a), Init::Int(b)) => a == b,
            (Init::Str(a, f), Init::Str(b, g)) => f == g && a == b,
            (Init::Def(a), Init::Def(b)) => a == b,
            (Init::Bits(a), Init::Bits(b)) => {
                Rc::ptr_eq(a, b)
                    || (a.len() == b.len() && a.iter().zip(b.iter()).all(|(x, y)| x.same(y)))
            }
            (Init::List(a, t), Init::List(b, u)) => {
                t == u
                    && (Rc::ptr_eq(a, b)
                        || (a.len() == b.len() && a.iter().zip(b.iter()).all(|(x, y)| x.same(y))))
            }
            (Init::Dag(a), Init::Dag(b)) => {
                Rc::ptr_eq(a, b)
                    || (a.op.same(&b.op)
                        && a.op_name == b.op_name
                        && a.args.len() == b.args.len()
                        && a.args
                            .iter()
                            .zip(b.args.iter())
                            .all(|((x, n), (y, m))| n == m && x.same(y)))
            }
            (Init::Var(a), Init::Var(b)) => a.name == b.name && a.ty == b.ty,
            (Init::VarBit(a, i), Init::VarBit(b, j)) => i == j && a.same(b),
            (Init::Field(a), Init::Field(b)) => {
                Rc::ptr_eq(a, b) || (a.field == b.field && a.rec.same(&b.rec))
            }
            (Init::Op(a), Init::Op(b)) => {
                Rc::ptr_eq(a, b)
                    || (a.op == b.op
                        && a.ty == b.ty
                        && a.args.len() == b.args.len()
                        && a.args.iter().zip(b.args.iter()).all(|(x, y)| x.same(y)))
            }
            (Init::AnonClass(a), Init::AnonClass(b)) => {
                Rc::ptr_eq(a, b)
                    || (a.class == b.class
                        && a.positional == b.positional
                        && a.args.len() == b.args.len()
                        && a.args
                            .iter()
                            .zip(b.args.iter())
                            .all(|((n, x), (m, y))| n == m && x.same(y)))
            }
            _ => false,
        }
    }
}
