//! The `AltOrderSelect` language: a small, checked subset of Rust that picks a class's allocation order for a function, one syntax tree that the compiled path prints as Rust and the run-time path interprets.
//!
//! A fragment is the body of a function of the function being allocated,
//! named `func`, returning an order index (0: `MemberList`, `i`:
//! `AltOrders[i-1]`). The language, and nothing more:
//!
//! | form | meaning |
//! |---|---|
//! | `0`, `1`, ... | an order index (an integer literal) |
//! | `true`, `false` | booleans |
//! | `func.has_feature("c")` | the function's subtarget has feature `c` (a `SubtargetFeature`'s `Name`; features it implies count) |
//! | `func.has_calls()` | the function contains calls |
//! | `func.has_frame_pointer()` | the function keeps a frame pointer |
//! | `func.has_base_pointer()` | the function needs a base pointer |
//! | `!b`, `a && b`, `a \|\| b` | boolean operators |
//! | `==`, `!=`, `<`, `<=`, `>`, `>=` | comparisons (integers; `==` and `!=` also booleans) |
//! | `if c { ... } else if d { ... } else { ... }` | choice, as an expression or a statement |
//! | `return e;` | the order index, at once |
//! | `( e )`, `{ ... }` | grouping |
//!
//! A fragment's value is its last expression or a `return`, an integer
//! either way. Anything else (variables, arithmetic, other methods,
//! macros) is an error at its place in the `.td` file: the run-time path
//! must mean exactly what the compiled path does, so neither accepts
//! what the other could not run.

use proc_macro2::{Span as RustSpan, TokenStream};
use quote::quote;

/// A fact about the function a fragment may ask for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fact {
    /// `func.has_calls()`.
    Calls,
    /// `func.has_frame_pointer()`.
    FramePointer,
    /// `func.has_base_pointer()`.
    BasePointer,
}

impl Fact {
    /// Every fact, for evaluating over all of them.
    pub const ALL: [Fact; 3] = [Fact::Calls, Fact::FramePointer, Fact::BasePointer];

    /// The method that asks for it.
    pub fn method(self) -> &'static str {
        match self {
            Fact::Calls => "has_calls",
            Fact::FramePointer => "has_frame_pointer",
            Fact::BasePointer => "has_base_pointer",
        }
    }
}

/// A binary operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// `&&`
    And,
    /// `||`
    Or,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

/// An expression of the language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr {
    /// An integer literal.
    Int(u64),
    /// `true` or `false`.
    Bool(bool),
    /// `func.has_calls()` and the like.
    Fact(Fact),
    /// `func.has_feature("name")`.
    Feature(String),
    /// `!e`.
    Not(Box<Expr>),
    /// `a op b`.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `if cond { then } else otherwise`; `otherwise` is a block or another `if`.
    If(Box<Expr>, Block, Option<Box<Expr>>),
    /// `{ ... }`.
    Block(Block),
    /// `return e`.
    Return(Box<Expr>),
}

/// Statements, then an optional last expression (the block's value).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Block {
    /// Statements: `if`s without a value, `return`s.
    pub stmts: Vec<Expr>,
    /// The value, if the block has one.
    pub tail: Option<Box<Expr>>,
}

/// What a fragment asks of a function, for [`Block::select`].
pub trait Function {
    /// Whether the function's subtarget has feature `name`.
    fn has_feature(&self, name: &str) -> bool;
    /// Whether `fact` holds of the function.
    fn fact(&self, fact: Fact) -> bool;
}

/// A fragment outside the language: the message, and where (a span of
/// the code as `syn` parsed it wrapped in `{ }`).
#[derive(Debug)]
pub struct LanguageError {
    /// What is wrong.
    pub message: String,
    /// Where, in the wrapped code.
    pub span: RustSpan,
}

/// The type of an expression, for the checks `rustc` would make.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Type {
    Int,
    Bool,
    Unit,
    /// A `return`: fits where any type is expected.
    Never,
}

impl Type {
    fn name(self) -> &'static str {
        match self {
            Type::Int => "an integer",
            Type::Bool => "a boolean",
            Type::Unit => "no value",
            Type::Never => "a return",
        }
    }
}

/// A value while evaluating.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Value {
    Int(u64),
    Bool(bool),
    Unit,
}

/// Parses a fragment's code (already a `syn` block) into the language's
/// tree, checking its types: the value is an order index.
pub fn from_syn(b: &syn::Block) -> Result<Block, LanguageError> {
    let block = block(b)?;
    let at = b.brace_token.span.join();
    match block.type_of(at)? {
        Type::Int | Type::Never => Ok(block),
        other => Err(LanguageError {
            message: format!(
                "the fragment's value is {}, not an order index: end it with an integer or `return N;`",
                other.name()
            ),
            span: at,
        }),
    }
}

fn error<T>(span: RustSpan, message: impl Into<String>) -> Result<T, LanguageError> {
    Err(LanguageError {
        message: message.into(),
        span,
    })
}

fn block(b: &syn::Block) -> Result<Block, LanguageError> {
    use syn::spanned::Spanned;
    let mut out = Block::default();
    let n = b.stmts.len();
    for (k, s) in b.stmts.iter().enumerate() {
        match s {
            syn::Stmt::Expr(e, None) if k + 1 == n => out.tail = Some(Box::new(expr(e)?)),
            syn::Stmt::Expr(e, _) => out.stmts.push(expr(e)?),
            syn::Stmt::Local(l) => {
                return error(
                    l.span(),
                    "`let` is not part of the AltOrderSelect language (no variables)",
                );
            }
            other => {
                return error(
                    other.span(),
                    "only expressions, `if` and `return` are part of the AltOrderSelect language",
                );
            }
        }
    }
    Ok(out)
}

fn expr(e: &syn::Expr) -> Result<Expr, LanguageError> {
    use syn::spanned::Spanned;
    match e {
        syn::Expr::Lit(l) => match &l.lit {
            syn::Lit::Int(i) if matches!(i.suffix(), "" | "usize") => i
                .base10_parse::<u64>()
                .map(Expr::Int)
                .or_else(|_| error(i.span(), "integer literal too large")),
            syn::Lit::Bool(b) => Ok(Expr::Bool(b.value)),
            other => error(
                other.span(),
                "only integer and boolean literals are part of the AltOrderSelect language",
            ),
        },
        syn::Expr::Paren(p) => expr(&p.expr),
        syn::Expr::Group(g) => expr(&g.expr),
        syn::Expr::Unary(u) => match u.op {
            syn::UnOp::Not(_) => Ok(Expr::Not(Box::new(expr(&u.expr)?))),
            _ => error(u.op.span(), "only `!` is an AltOrderSelect unary operator"),
        },
        syn::Expr::Binary(b) => {
            let op = match b.op {
                syn::BinOp::And(_) => BinOp::And,
                syn::BinOp::Or(_) => BinOp::Or,
                syn::BinOp::Eq(_) => BinOp::Eq,
                syn::BinOp::Ne(_) => BinOp::Ne,
                syn::BinOp::Lt(_) => BinOp::Lt,
                syn::BinOp::Le(_) => BinOp::Le,
                syn::BinOp::Gt(_) => BinOp::Gt,
                syn::BinOp::Ge(_) => BinOp::Ge,
                _ => {
                    return error(
                        b.op.span(),
                        "only `&&`, `||` and comparisons are AltOrderSelect binary operators",
                    );
                }
            };
            Ok(Expr::Binary(
                op,
                Box::new(expr(&b.left)?),
                Box::new(expr(&b.right)?),
            ))
        }
        syn::Expr::If(i) => {
            let otherwise = match &i.else_branch {
                Some((_, e)) => Some(Box::new(expr(e)?)),
                None => None,
            };
            Ok(Expr::If(
                Box::new(expr(&i.cond)?),
                block(&i.then_branch)?,
                otherwise,
            ))
        }
        syn::Expr::Block(b) if b.label.is_none() => Ok(Expr::Block(block(&b.block)?)),
        syn::Expr::Return(r) => match &r.expr {
            Some(v) => Ok(Expr::Return(Box::new(expr(v)?))),
            None => error(r.span(), "`return` needs an order index"),
        },
        syn::Expr::MethodCall(m) => method_call(m),
        syn::Expr::Field(f) if is_func(&f.base) => error(
            f.member.span(),
            match &f.member {
                syn::Member::Named(n) => {
                    format!("`func.{n}` is not a fact: ask with a method call, `func.{n}()`")
                }
                syn::Member::Unnamed(_) => "`func` has no numbered fields".to_string(),
            },
        ),
        other => error(
            other.span(),
            "this is not part of the AltOrderSelect language (integers, `func.has_feature(\"name\")`, `func.has_calls()`, `func.has_frame_pointer()`, `func.has_base_pointer()`, `!`, `&&`, `||`, comparisons, `if`/`else`, `return`)",
        ),
    }
}

/// Whether `e` is the path `func`.
fn is_func(e: &syn::Expr) -> bool {
    matches!(e, syn::Expr::Path(p) if p.qself.is_none() && p.path.is_ident(super::fragment::PARAM))
}

fn method_call(m: &syn::ExprMethodCall) -> Result<Expr, LanguageError> {
    use syn::spanned::Spanned;
    if !is_func(&m.receiver) {
        return error(
            m.receiver.span(),
            format!(
                "methods are called on `{}`, the function being allocated",
                super::fragment::PARAM
            ),
        );
    }
    if m.turbofish.is_some() {
        return error(m.turbofish.span(), "no type arguments here");
    }
    let name = m.method.to_string();
    let args: Vec<&syn::Expr> = m.args.iter().collect();
    if name == "has_feature" {
        return match args.as_slice() {
            [
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                }),
            ] => Ok(Expr::Feature(s.value())),
            _ => error(
                m.span(),
                "`has_feature` takes one string literal, a feature's name: `func.has_feature(\"c\")`",
            ),
        };
    }
    let Some(fact) = Fact::ALL.into_iter().find(|f| f.method() == name) else {
        return error(
            m.method.span(),
            format!(
                "`func.{name}()` is not a fact the AltOrderSelect language knows (has_feature, has_calls, has_frame_pointer, has_base_pointer)"
            ),
        );
    };
    if !args.is_empty() {
        return error(m.args.span(), format!("`{name}` takes no arguments"));
    }
    Ok(Expr::Fact(fact))
}

impl Block {
    /// The type of the block: its last expression's, else a return's if
    /// its last statement returns, else no value.
    fn type_of(&self, at: RustSpan) -> Result<Type, LanguageError> {
        let mut last = Type::Unit;
        for s in &self.stmts {
            last = s.type_of(at)?;
            if !matches!(last, Type::Unit | Type::Never) {
                return error(
                    at,
                    format!(
                        "a statement here has {}, which would be unused",
                        last.name()
                    ),
                );
            }
        }
        match &self.tail {
            Some(t) => t.type_of(at),
            None => Ok(last),
        }
    }

    /// The order index the fragment picks for `f`.
    pub fn select(&self, f: &dyn Function) -> u64 {
        match self.eval(f) {
            Ok(Value::Int(n)) | Err(n) => n,
            // Checked not to happen when the tree was made.
            Ok(_) => 0,
        }
    }

    /// The block's value, or `Err` with a returned index.
    fn eval(&self, f: &dyn Function) -> Result<Value, u64> {
        for s in &self.stmts {
            s.eval(f)?;
        }
        match &self.tail {
            Some(t) => t.eval(f),
            None => Ok(Value::Unit),
        }
    }

    /// The feature names the block mentions, each once, in order.
    pub fn features(&self) -> Vec<&str> {
        let mut out = Vec::new();
        self.each_feature(&mut |n| {
            if !out.contains(&n) {
                out.push(n)
            }
        });
        out
    }

    fn each_feature<'a>(&'a self, f: &mut dyn FnMut(&'a str)) {
        for s in &self.stmts {
            s.each_feature(f);
        }
        if let Some(t) = &self.tail {
            t.each_feature(f);
        }
    }

    /// The block as Rust statements over `func: &FunctionInfo`; a
    /// feature's test is `feature(name)` (the target's bit for it).
    pub fn to_rust(&self, feature: &dyn Fn(&str) -> TokenStream) -> TokenStream {
        // Block-like statements (`if`, `{ }`) take no `;` in Rust.
        let stmts = self.stmts.iter().map(|s| {
            let code = s.to_rust(feature);
            match s {
                Expr::If(..) | Expr::Block(_) => code,
                _ => quote!(#code;),
            }
        });
        let tail = self.tail.as_ref().map(|t| t.to_rust(feature));
        quote!(#(#stmts)* #tail)
    }
}

impl Expr {
    fn type_of(&self, at: RustSpan) -> Result<Type, LanguageError> {
        let want = |e: &Expr, t: Type, what: &str| -> Result<(), LanguageError> {
            match e.type_of(at)? {
                x if x == t || x == Type::Never => Ok(()),
                x => error(at, format!("{what} must be {}, not {}", t.name(), x.name())),
            }
        };
        Ok(match self {
            Expr::Int(_) => Type::Int,
            Expr::Bool(_) | Expr::Fact(_) | Expr::Feature(_) => Type::Bool,
            Expr::Not(e) => {
                want(e, Type::Bool, "the operand of `!`")?;
                Type::Bool
            }
            Expr::Binary(op, a, b) => {
                let (ta, tb) = (a.type_of(at)?, b.type_of(at)?);
                let operand = match op {
                    BinOp::And | BinOp::Or => Type::Bool,
                    BinOp::Eq | BinOp::Ne if ta == Type::Bool || tb == Type::Bool => Type::Bool,
                    _ => Type::Int,
                };
                for t in [ta, tb] {
                    if t != operand && t != Type::Never {
                        return error(
                            at,
                            format!(
                                "the operands of `{}` must be {}, not {}",
                                op.symbol(),
                                operand.name(),
                                t.name()
                            ),
                        );
                    }
                }
                Type::Bool
            }
            Expr::If(c, then, otherwise) => {
                want(c, Type::Bool, "an `if` condition")?;
                let t = then.type_of(at)?;
                match otherwise {
                    None if matches!(t, Type::Unit | Type::Never) => Type::Unit,
                    None => {
                        return error(
                            at,
                            "an `if` with a value needs an `else` (or `return` the value)",
                        );
                    }
                    Some(e) => match (t, e.type_of(at)?) {
                        (Type::Never, u) => u,
                        (t, Type::Never) => t,
                        (t, u) if t == u => t,
                        (t, u) => {
                            return error(
                                at,
                                format!(
                                    "the branches of an `if` differ: {} and {}",
                                    t.name(),
                                    u.name()
                                ),
                            );
                        }
                    },
                }
            }
            Expr::Block(b) => b.type_of(at)?,
            Expr::Return(e) => {
                want(e, Type::Int, "a returned order index")?;
                Type::Never
            }
        })
    }

    fn eval(&self, f: &dyn Function) -> Result<Value, u64> {
        let int = |e: &Expr| -> Result<u64, u64> {
            match e.eval(f)? {
                Value::Int(n) => Ok(n),
                _ => Ok(0),
            }
        };
        let boolean = |e: &Expr| -> Result<bool, u64> { Ok(e.eval(f)? == Value::Bool(true)) };
        Ok(match self {
            Expr::Int(n) => Value::Int(*n),
            Expr::Bool(b) => Value::Bool(*b),
            Expr::Fact(x) => Value::Bool(f.fact(*x)),
            Expr::Feature(name) => Value::Bool(f.has_feature(name)),
            Expr::Not(e) => Value::Bool(!boolean(e)?),
            // Both sides are evaluated only when Rust would: `&&` and `||`
            // short-circuit (a `return` on the right is not taken).
            Expr::Binary(BinOp::And, a, b) => Value::Bool(boolean(a)? && boolean(b)?),
            Expr::Binary(BinOp::Or, a, b) => Value::Bool(boolean(a)? || boolean(b)?),
            Expr::Binary(op, a, b) => {
                let (x, y) = (a.eval(f)?, b.eval(f)?);
                Value::Bool(match (op, x, y) {
                    (BinOp::Eq, x, y) => x == y,
                    (BinOp::Ne, x, y) => x != y,
                    (op, Value::Int(x), Value::Int(y)) => match op {
                        BinOp::Lt => x < y,
                        BinOp::Le => x <= y,
                        BinOp::Gt => x > y,
                        _ => x >= y,
                    },
                    _ => false,
                })
            }
            Expr::If(c, then, otherwise) => {
                if boolean(c)? {
                    then.eval(f)?
                } else if let Some(e) = otherwise {
                    e.eval(f)?
                } else {
                    Value::Unit
                }
            }
            Expr::Block(b) => b.eval(f)?,
            Expr::Return(e) => return Err(int(e)?),
        })
    }

    fn each_feature<'a>(&'a self, f: &mut dyn FnMut(&'a str)) {
        match self {
            Expr::Feature(n) => f(n),
            Expr::Not(e) | Expr::Return(e) => e.each_feature(f),
            Expr::Binary(_, a, b) => {
                a.each_feature(f);
                b.each_feature(f);
            }
            Expr::If(c, then, otherwise) => {
                c.each_feature(f);
                then.each_feature(f);
                if let Some(e) = otherwise {
                    e.each_feature(f);
                }
            }
            Expr::Block(b) => b.each_feature(f),
            Expr::Int(_) | Expr::Bool(_) | Expr::Fact(_) => {}
        }
    }

    /// The expression as Rust; every compound is parenthesized, so the
    /// tree's grouping is Rust's whatever the precedence.
    fn to_rust(&self, feature: &dyn Fn(&str) -> TokenStream) -> TokenStream {
        match self {
            Expr::Int(n) => {
                let n = proc_macro2::Literal::u64_unsuffixed(*n);
                quote!(#n)
            }
            Expr::Bool(b) => quote!(#b),
            Expr::Fact(x) => {
                let field = quote::format_ident!("{}", x.method());
                quote!(func.#field)
            }
            Expr::Feature(name) => feature(name),
            Expr::Not(e) => {
                let e = e.to_rust(feature);
                quote!((!#e))
            }
            Expr::Binary(op, a, b) => {
                let (a, b) = (a.to_rust(feature), b.to_rust(feature));
                let op: TokenStream = op.symbol().parse().unwrap_or_default();
                quote!((#a #op #b))
            }
            Expr::If(c, then, otherwise) => {
                let c = c.to_rust(feature);
                let then = then.to_rust(feature);
                let otherwise = otherwise.as_ref().map(|e| {
                    let e = e.to_rust(feature);
                    quote!(else #e)
                });
                quote!(if #c { #then } #otherwise)
            }
            Expr::Block(b) => {
                let b = b.to_rust(feature);
                quote!({ #b })
            }
            Expr::Return(e) => {
                let e = e.to_rust(feature);
                quote!(return #e)
            }
        }
    }
}

impl BinOp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::And => "&&",
            BinOp::Or => "||",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct F(u64, [bool; 3]);
    impl Function for F {
        fn has_feature(&self, name: &str) -> bool {
            match name {
                "a" => self.0 & 1 != 0,
                "b" => self.0 & 2 != 0,
                _ => false,
            }
        }
        fn fact(&self, fact: Fact) -> bool {
            self.1[Fact::ALL.iter().position(|&x| x == fact).unwrap_or(0)]
        }
    }

    fn parse(code: &str) -> Result<Block, String> {
        let b: syn::Block = syn::parse_str(&format!("{{{code}}}")).map_err(|e| e.to_string())?;
        from_syn(&b).map_err(|e| e.message)
    }

    #[test]
    fn evaluates() {
        let b = parse(
            "if func.has_feature(\"a\") && !func.has_calls() { return 1; } \
             if func.has_feature(\"b\") || 2 < 1 { 2 } else { 0 }",
        )
        .unwrap();
        assert_eq!(b.features(), ["a", "b"]);
        assert_eq!(b.select(&F(1, [false; 3])), 1);
        assert_eq!(b.select(&F(1, [true, false, false])), 0);
        assert_eq!(b.select(&F(3, [true, false, false])), 2);
        assert_eq!(parse("return 3;").unwrap().select(&F(0, [false; 3])), 3);
        assert_eq!(parse("{ 4 }").unwrap().select(&F(0, [false; 3])), 4);
    }

    #[test]
    fn rejects() {
        assert_eq!(
            parse("func.is_leaf()").unwrap_err(),
            "`func.is_leaf()` is not a fact the AltOrderSelect language knows (has_feature, has_calls, has_frame_pointer, has_base_pointer)"
        );
        assert_eq!(
            parse("if func.has_calls { 1 } else { 0 }").unwrap_err(),
            "`func.has_calls` is not a fact: ask with a method call, `func.has_calls()`"
        );
        assert_eq!(
            parse("1 + 1").unwrap_err(),
            "only `&&`, `||` and comparisons are AltOrderSelect binary operators"
        );
        assert_eq!(
            parse("func.has_calls()").unwrap_err(),
            "the fragment's value is a boolean, not an order index: end it with an integer or `return N;`"
        );
        assert_eq!(
            parse("if func.has_calls() { 1 }").unwrap_err(),
            "an `if` with a value needs an `else` (or `return` the value)"
        );
        assert_eq!(
            parse("let x = 1; x").unwrap_err(),
            "`let` is not part of the AltOrderSelect language (no variables)"
        );
    }
}
