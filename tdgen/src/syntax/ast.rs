//! The typed syntax tree of a `.td` file, with spans; nothing after the parser sees pest.

use crate::diag::{FileId, Span};
use rustc_hash::FxHashMap as HashMap;
use std::fmt;
use std::rc::Rc;

/// An interned name (identifier, field name, class name).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sym(pub u32);

impl fmt::Debug for Sym {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Sym({})", self.0)
    }
}

/// The table of interned names, shared by the parser and the evaluator.
#[derive(Default, Debug)]
pub struct Interner {
    map: HashMap<Rc<str>, Sym>,
    names: Vec<Rc<str>>,
}

impl Interner {
    /// Interns a name.
    pub fn intern(&mut self, s: &str) -> Sym {
        if let Some(&sym) = self.map.get(s) {
            return sym;
        }
        let rc: Rc<str> = Rc::from(s);
        let sym = Sym(self.names.len() as u32);
        self.names.push(rc.clone());
        self.map.insert(rc, sym);
        sym
    }

    /// The number of names interned so far: a point to roll back to.
    pub fn mark(&self) -> usize {
        self.names.len()
    }

    /// Forgets the names interned since `mark` (a parse attempt that backtracked).
    pub fn rollback(&mut self, mark: usize) {
        while self.names.len() > mark {
            let name = self.names.pop().expect("more names than the mark");
            self.map.remove(&name);
        }
    }

    /// Looks a name up without interning it.
    pub fn get(&self, s: &str) -> Option<Sym> {
        self.map.get(s).copied()
    }

    /// The text of an interned name.
    pub fn name(&self, sym: Sym) -> &str {
        &self.names[sym.0 as usize]
    }

    /// The shared text of an interned name.
    pub fn rc(&self, sym: Sym) -> Rc<str> {
        self.names[sym.0 as usize].clone()
    }

    /// The names in symbol order, as owned strings that may cross threads
    /// (a file parsed on another thread brings its names along).
    pub fn into_names(self) -> Vec<Box<str>> {
        self.names.iter().map(|n| Box::from(&**n)).collect()
    }
}

/// An identifier with its place.
#[derive(Copy, Clone, Debug)]
pub struct Ident {
    /// The interned name.
    pub sym: Sym,
    /// Where it is written.
    pub span: Span,
}

/// A type as written.
#[derive(Clone, Debug)]
pub enum TypeKind {
    /// `bit`
    Bit,
    /// `bits<n>`
    Bits(i64),
    /// `int`
    Int,
    /// `string`
    String,
    /// `code`
    Code,
    /// `dag`
    Dag,
    /// `list<T>`
    List(Box<TypeExpr>),
    /// A class name used as a type.
    Class(Ident),
}

/// A type with its place.
#[derive(Clone, Debug)]
pub struct TypeExpr {
    /// What type.
    pub kind: TypeKind,
    /// Where it is written.
    pub span: Span,
}

/// `a`, `a-b` or `a...b` in a range list.
#[derive(Copy, Clone, Debug)]
pub struct RangePiece {
    /// First value.
    pub start: i64,
    /// Last value (inclusive), if this is a range.
    pub end: Option<i64>,
    /// Where it is written.
    pub span: Span,
}

/// A bit index (or `a-b`, `a...b` range) written as values rather than
/// integers: `cpol{CPolBit.GLC}` (AMDGPU). Each value must fold to an int.
#[derive(Clone, Debug)]
pub struct BitIndex {
    /// First bit.
    pub start: Expr,
    /// Last bit (inclusive), if this is a range.
    pub end: Option<Expr>,
    /// Where it is written.
    pub span: Span,
}

/// One element of a list slice `[...]`.
#[derive(Clone, Debug)]
pub enum SliceItem {
    /// A literal range `2-4`.
    Range(RangePiece),
    /// Any value: an index or a list of indices.
    Value(Expr),
}

/// An argument in `Class<...>` or a parent class reference.
#[derive(Clone, Debug)]
pub enum Arg {
    /// A positional argument.
    Positional(Expr),
    /// `name = value`.
    Named(Ident, Expr),
}

/// A value expression.
#[derive(Clone, Debug)]
pub struct Expr {
    /// What expression.
    pub kind: ExprKind,
    /// Where it is written.
    pub span: Span,
}

/// The kinds of value expressions.
#[derive(Clone, Debug)]
pub enum ExprKind {
    /// An integer literal.
    Int(i64),
    /// A binary literal `0b0101`: a `bits<n>` value with one bit per digit.
    Binary(u64, u32),
    /// A string literal (adjacent literals already joined). Owned, not
    /// shared, so that a file's tree can be built on a parsing thread.
    Str(Box<str>),
    /// A code literal `[{ ... }]`.
    Code(Box<str>),
    /// `true` or `false`.
    Bool(bool),
    /// `?`
    Unset,
    /// A name: a variable, argument, field, def or loop iterator.
    Id(Ident),
    /// `{a, b, c}`
    Bits(Vec<Expr>),
    /// `[a, b]<T>`
    List(Vec<Expr>, Option<TypeExpr>),
    /// `(op:$n a:$x, b)`
    Dag {
        /// The operator.
        op: Box<Expr>,
        /// The operator's name (`$n`), without the `$`.
        op_name: Option<Ident>,
        /// Arguments: value (absent for a bare `$x`) and name.
        args: Vec<(Option<Expr>, Option<Ident>)>,
    },
    /// `Class<args>`: an anonymous instantiation.
    ClassInst {
        /// The class.
        class: Ident,
        /// The arguments.
        args: Vec<Arg>,
    },
    /// `!op<T>(args)`; `!cond` pairs use the second element.
    Bang {
        /// The operator name without `!`, with its span.
        op: Ident,
        /// The type parameter, if written.
        ty: Option<TypeExpr>,
        /// Arguments; `a : b` pairs (only in `!cond`) have the second part.
        args: Vec<(Expr, Option<Expr>)>,
    },
    /// `v{7-0}`
    BitSlice(Box<Expr>, Vec<RangePiece>),
    /// `v{C.F}`: bits indexed by values that fold to ints.
    BitIndexSlice(Box<Expr>, Vec<BitIndex>),
    /// `v[0, 2-4]`; the flag says whether a trailing comma forced a list.
    ListSlice(Box<Expr>, Vec<SliceItem>, bool),
    /// `v.field`
    Field(Box<Expr>, Ident),
    /// `a # b`, or a trailing `a #` when the right side is absent.
    Paste(Box<Expr>, Option<Box<Expr>>),
}

/// One `let name{bits} = value` item.
#[derive(Clone, Debug)]
pub struct LetItem {
    /// The field.
    pub name: Ident,
    /// The bits, for `let f{3-0} = ...` or `let f{C.Bit} = ...`.
    pub bits: Option<LetBits>,
    /// The value.
    pub value: Expr,
    /// The whole item.
    pub span: Span,
}

/// The bits a `let` item sets.
#[derive(Clone, Debug)]
pub enum LetBits {
    /// Integer ranges: `let f{3-0}`.
    Ranges(Vec<RangePiece>),
    /// Values that must fold to integers without the record (llvm-tblgen's
    /// `ParseRangePiece` reads a value there): `let cpol{CPolBit.GLC}`.
    Values(Vec<BitIndex>),
}

/// A template argument declaration `T name = default`.
#[derive(Clone, Debug)]
pub struct TemplateArg {
    /// Its type.
    pub ty: TypeExpr,
    /// Its name.
    pub name: Ident,
    /// Its default value.
    pub default: Option<Expr>,
}

/// A parent class (or multiclass) with arguments.
#[derive(Clone, Debug)]
pub struct ParentRef {
    /// The class or multiclass name.
    pub name: Ident,
    /// The arguments.
    pub args: Vec<Arg>,
    /// The whole reference.
    pub span: Span,
}

/// A field declaration, `let`, `defvar`, `assert` or `dump` in a record body.
#[derive(Clone, Debug)]
pub enum BodyItem {
    /// `[field] T name [= value];`
    Field {
        /// Declared with the `field` keyword.
        is_field: bool,
        /// The type.
        ty: TypeExpr,
        /// The name.
        name: Ident,
        /// The initial value.
        value: Option<Expr>,
        /// The whole declaration.
        span: Span,
    },
    /// `let name = value;`
    Let(LetItem),
    /// `defvar name = value;`
    Defvar(Defvar),
    /// `assert cond, message;`
    Assert(Assert),
    /// `dump message;`
    Dump(Dump),
}

/// `defvar name = value;`
#[derive(Clone, Debug)]
pub struct Defvar {
    /// The variable.
    pub name: Ident,
    /// Its value.
    pub value: Expr,
    /// The statement.
    pub span: Span,
}

/// `assert cond, message;`
#[derive(Clone, Debug)]
pub struct Assert {
    /// The condition.
    pub cond: Expr,
    /// The message.
    pub message: Expr,
    /// The statement.
    pub span: Span,
}

/// `dump message;`
#[derive(Clone, Debug)]
pub struct Dump {
    /// What to print.
    pub message: Expr,
    /// The statement.
    pub span: Span,
}

/// A record body: parents and items.
#[derive(Clone, Debug)]
pub struct ObjectBody {
    /// The parent classes, in order.
    pub parents: Vec<ParentRef>,
    /// The body items.
    pub items: Vec<BodyItem>,
}

/// The iteration domain of a `foreach`.
#[derive(Clone, Debug)]
pub enum ForeachIter {
    /// `{0-3, 7}` or `0-3`.
    Ranges(Vec<RangePiece>),
    /// Any list-valued expression.
    Value(Expr),
}

/// A statement at top level or in a multiclass, `foreach`, `if` or `let` body.
#[derive(Clone, Debug)]
pub enum Stmt {
    /// `include "name"`, resolved by the loader to a parsed file.
    Include {
        /// The file it resolved to (absent if it could not be read).
        file: Option<FileId>,
        /// The statement.
        span: Span,
    },
    /// `class Name<args> : parents { body }`
    Class {
        /// The name.
        name: Ident,
        /// Template arguments.
        args: Vec<TemplateArg>,
        /// Parents and body.
        body: ObjectBody,
        /// The statement.
        span: Span,
    },
    /// `def name : parents { body }`
    Def {
        /// The name expression (absent for an anonymous def).
        name: Option<Expr>,
        /// Parents and body.
        body: ObjectBody,
        /// The statement.
        span: Span,
    },
    /// `defm name : parents;`
    Defm {
        /// The name prefix expression (absent for an anonymous defm).
        name: Option<Expr>,
        /// The multiclasses, then classes.
        parents: Vec<ParentRef>,
        /// The statement.
        span: Span,
    },
    /// `defset list<T> name = { ... }`
    Defset {
        /// The list type.
        ty: TypeExpr,
        /// The name.
        name: Ident,
        /// The statements whose defs are collected.
        body: Vec<Stmt>,
        /// The statement.
        span: Span,
    },
    /// `defvar name = value;`
    Defvar(Defvar),
    /// `deftype Name = type;`
    Deftype {
        /// The new type name.
        name: Ident,
        /// The type it stands for.
        ty: TypeExpr,
        /// The statement.
        span: Span,
    },
    /// `foreach i = ... in ...`
    Foreach {
        /// The iterator.
        var: Ident,
        /// The domain.
        iter: ForeachIter,
        /// The body.
        body: Vec<Stmt>,
        /// The statement.
        span: Span,
    },
    /// `if c then ... else ...`
    If {
        /// The condition.
        cond: Expr,
        /// The then branch.
        then: Vec<Stmt>,
        /// The else branch.
        otherwise: Vec<Stmt>,
        /// The statement.
        span: Span,
    },
    /// `let a = 1, b = 2 in ...`
    Let {
        /// The overrides.
        items: Vec<LetItem>,
        /// The body.
        body: Vec<Stmt>,
        /// The statement.
        span: Span,
    },
    /// `multiclass Name<args> : parents { ... }`
    MultiClass {
        /// The name.
        name: Ident,
        /// Template arguments.
        args: Vec<TemplateArg>,
        /// Parent multiclasses.
        parents: Vec<ParentRef>,
        /// The body.
        body: Vec<Stmt>,
        /// The statement.
        span: Span,
    },
    /// `assert cond, message;`
    Assert(Assert),
    /// `dump message;`
    Dump(Dump),
}

/// A parsed file.
#[derive(Clone, Debug)]
pub struct File {
    /// The file id.
    pub id: FileId,
    /// Its statements.
    pub stmts: Vec<Stmt>,
}
