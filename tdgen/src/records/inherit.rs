//! Inheritance: adding a superclass with arguments, `let` assignments, and anonymous class instances.

use super::RecId;
use super::print;
use super::record::{Record, RecordKeeper, RecordKind, RecordVal};
use super::resolve::{MapResolver, RecordResolver, Resolver, resolve, type_of, value_for_field};
use super::types::type_string;
use super::value::{AnonClass, Init, Var};
use crate::diag::{Diagnostic, Kind, Span};
use crate::syntax::ast::Sym;
use std::rc::Rc;

/// The qualified name of a multiclass's implicit `NAME` argument (`MC::NAME`;
/// multiclass arguments use `::` so they never collide with a class of the same name).
pub fn implicit_name_mc(rk: &mut RecordKeeper, mc_name: &str) -> Sym {
    rk.interner.intern(&format!("{mc_name}::NAME"))
}

/// The qualified name of a class's implicit `NAME` argument (`Rec:NAME`).
pub fn implicit_name(rk: &mut RecordKeeper, rec_name: &str) -> Sym {
    rk.interner.intern(&format!("{rec_name}:NAME"))
}

/// Resolves a record's name and fields with `r`.
pub fn resolve_record(rec: &mut Record, r: &mut dyn Resolver, rk: &mut RecordKeeper) {
    let name = resolve(&rec.name, r, rk);
    rec.name = name;
    for i in 0..rec.values.len() {
        let v = &rec.values[i].value;
        let nv = resolve(v, r, rk);
        if super::resolve::ptr_same(&nv, v) {
            continue;
        }
        let ty = rec.values[i].ty.clone();
        match value_for_field(&nv, &ty, rk) {
            Some(c) => rec.values[i].value = c,
            None => {
                let msg = format!(
                    "invalid value '{}' found when setting field '{}' of type '{}' after resolving references",
                    print::to_string_for_message(&nv, rk),
                    rk.interner.name(rec.values[i].name),
                    type_string(&ty, rk)
                );
                rk.error(msg);
            }
        }
    }
    for a in &mut rec.assertions {
        a.cond = resolve(&a.cond, r, rk);
        a.message = resolve(&a.message, r, rk);
    }
    for d in &mut rec.dumps {
        d.1 = resolve(&d.1, r, rk);
    }
}

/// Adds a field, or assigns it if the record already has one of that name.
pub fn add_value(
    rec: &mut Record,
    v: RecordVal,
    loc: Span,
    rk: &mut RecordKeeper,
) -> Result<(), Diagnostic> {
    if let Some(i) = rec.values.iter().position(|x| x.name == v.name) {
        let ty = rec.values[i].ty.clone();
        match value_for_field(&v.value, &ty, rk) {
            Some(c) => {
                rec.values[i].value = c;
                rec.values[i].let_at = v.let_at;
            }
            None => {
                return Err(Diagnostic::error(
                    Kind::Type,
                    loc,
                    format!(
                        "new definition of '{}' of type '{}' is incompatible with previous definition of type '{}'",
                        rk.interner.name(v.name),
                        type_string(&v.ty, rk),
                        type_string(&ty, rk)
                    ),
                ));
            }
        }
    } else {
        rec.values.push(v);
    }
    Ok(())
}

/// Makes `rec` inherit from `class` with the given template-argument values
/// (qualified name, already cast to the argument's type).
pub fn add_superclass(
    rec: &mut Record,
    class: RecId,
    args: &[(Sym, Init)],
    span: Span,
    rk: &mut RecordKeeper,
) -> Result<(), Diagnostic> {
    // Each record lists every superclass, so a long chain of classes costs
    // its length squared in memory (and cubed in the checks below).
    let count = rec.superclasses.len() + rk.get(class).superclasses.len() + 1;
    if count > super::limits::MAX_SUPERCLASSES {
        return Err(rk.limit_error(
            span,
            format!(
                "'{}' would have {count} superclasses; the limit is {} (records::limits::MAX_SUPERCLASSES)",
                print::to_unquoted(&rec.name, rk),
                super::limits::MAX_SUPERCLASSES
            ),
        ));
    }
    // The class's fields are copied once, not the whole class record.
    let fields: Vec<RecordVal> = rk
        .get(class)
        .values
        .iter()
        .filter(|f| !f.is_template_arg)
        .cloned()
        .collect();
    rec.values.reserve(fields.len());
    for f in fields {
        add_value(rec, f, span, rk)?;
    }
    let mut r = MapResolver::with_current(Some((RecId::PENDING, rec.name.clone())));
    bind_arguments(class, args, span, &mut r, rk)?;
    let sc = rk.get(class);
    rec.assertions.extend(sc.assertions.iter().cloned());
    rec.dumps.extend(sc.dumps.iter().cloned());
    let superclasses = sc.superclasses.clone();
    let name_value = if rec.is_class() {
        let own = print::to_unquoted(&rec.name, rk);
        Init::Var(Rc::new(Var {
            name: implicit_name(rk, &own),
            ty: super::types::Ty::String,
        }))
    } else {
        rec.name.clone()
    };
    let sc_name = rk.name_of(class);
    let sc_implicit = implicit_name(rk, &sc_name);
    r.set(sc_implicit, name_value);
    resolve_record(rec, &mut r, rk);
    for &(s, sspan) in &superclasses {
        if rec.is_subclass_of(s) {
            return Err(already_subclass(s, span, rk));
        }
        rec.superclasses.push((s, sspan));
    }
    if rec.is_subclass_of(class) {
        return Err(already_subclass(class, span, rk));
    }
    rec.superclasses.push((class, span));
    Ok(())
}

fn already_subclass(c: RecId, span: Span, rk: &RecordKeeper) -> Diagnostic {
    Diagnostic::error(
        Kind::Redefinition,
        span,
        format!("already a subclass of '{}'", rk.name_of(c)),
    )
    .with_secondary(rk.get(c).locs[0], "class defined here")
}

/// Binds the template arguments of `sc` in `r`: given values, else defaults.
fn bind_arguments(
    class: RecId,
    args: &[(Sym, Init)],
    span: Span,
    r: &mut MapResolver,
    rk: &RecordKeeper,
) -> Result<(), Diagnostic> {
    let sc = rk.get(class);
    for &ta in &sc.template_args {
        if let Some((_, v)) = args.iter().find(|(n, _)| *n == ta) {
            r.set(ta, v.clone());
            continue;
        }
        let decl = sc
            .value(ta)
            .expect("template arguments are fields of their class");
        if !decl.value.is_complete() {
            return Err(Diagnostic::error(
                Kind::Type,
                span,
                format!(
                    "value not specified for template argument '{}'",
                    rk.interner.name(ta)
                ),
            )
            .with_secondary(decl.loc, format!("declared in '{}'", rk.name_of(class))));
        }
        r.set(ta, decl.value.clone());
    }
    Ok(())
}

/// Folds `Class<args>`: instantiates it as an anonymous def once every
/// argument is free of unresolved variables (cached per class and arguments).
pub fn fold_anon_class(
    class: RecId,
    args: Vec<(Sym, Init)>,
    positional: usize,
    rk: &mut RecordKeeper,
) -> Init {
    if args.iter().any(|(_, v)| has_var(v)) {
        return Init::AnonClass(Rc::new(AnonClass {
            class,
            args,
            positional,
        }));
    }
    // llvm-tblgen uniques values, and lists of different element types are
    // different values even when their elements print the same.
    // Written in place (no `format!` or `write!`) into a buffer kept across
    // calls: most lookups hit the cache, so building the key is most of the
    // cost of a cached instance. Nested instantiations find the buffer
    // back in place, as it is returned before instantiating.
    let mut key = std::mem::take(&mut rk.anon_key);
    key.clear();
    print::push_int(&mut key, class.0 as i64);
    key.push('<');
    for (k, (n, v)) in args.iter().enumerate() {
        // A positional argument is keyed by its position, a named one by
        // its name (llvm-tblgen's ArgumentInit): the same value written
        // both ways makes two instances.
        if k < positional {
            key.push('#');
            print::push_int(&mut key, k as i64);
        } else {
            print::push_int(&mut key, n.0 as i64);
        }
        key.push('=');
        cache_key(v, rk, &mut key);
        key.push(',');
    }
    let hit = rk.anon_cache.get(&key).copied();
    let owned = match hit {
        Some(_) => String::new(),
        None => key.clone(),
    };
    rk.anon_key = key;
    if let Some(id) = hit {
        return Init::Def(id);
    }
    let key = owned;
    if rk.anon_depth >= super::limits::MAX_INSTANTIATION_DEPTH {
        let m = format!(
            "anonymous instantiations of '{}' nest deeper than {} levels",
            rk.name_of(class),
            super::limits::MAX_INSTANTIATION_DEPTH
        );
        rk.error(m);
        return Init::AnonClass(Rc::new(AnonClass {
            class,
            args,
            positional,
        }));
    }
    rk.anon_depth += 1;
    let r = instantiate(class, args, key, rk);
    rk.anon_depth -= 1;
    r
}

fn instantiate(class: RecId, args: Vec<(Sym, Init)>, key: String, rk: &mut RecordKeeper) -> Init {
    let name = rk.new_anonymous_name();
    // Borrowed, not cloned: the instance copies what it needs of the class.
    let sc = rk.get(class);
    let loc = *sc.locs.last().unwrap_or(&Span::default());
    let mut rec = Record::new(
        Init::Str(name.clone(), super::value::StrFormat::String),
        loc,
        RecordKind::AnonymousDef,
    );
    rec.locs = sc.locs.clone();
    rec.values = sc
        .values
        .iter()
        .filter(|v| !v.is_template_arg)
        .cloned()
        .collect();
    rec.assertions = sc.assertions.clone();
    rec.dumps = sc.dumps.clone();
    let mut r = MapResolver::with_current(Some((RecId::PENDING, rec.name.clone())));
    for &ta in &sc.template_args {
        let v = args
            .iter()
            .find(|(n, _)| *n == ta)
            .map(|(_, v)| v.clone())
            .unwrap_or_else(|| sc.value(ta).map(|d| d.value.clone()).unwrap_or(Init::Unset));
        r.set(ta, v);
    }
    rec.superclasses = sc.superclasses.clone();
    rec.superclasses.push((class, loc));
    resolve_record(&mut rec, &mut r, rk);
    let id = rk.push(rec);
    rk.anon_cache.insert(key, id);
    let mut rr = RecordResolver::new(id, rk);
    let mut rec = rk.get(id).clone();
    resolve_record(&mut rec, &mut rr, rk);
    *rk.get_mut(id) = rec;
    rk.defs.insert(name, id);
    rk.def_order.push(id);
    super::eval::check_assertions(id, rk);
    Init::Def(id)
}

fn cache_key(v: &Init, rk: &RecordKeeper, out: &mut String) {
    match v {
        Init::List(es, t) => {
            out.push('[');
            for e in es.iter() {
                cache_key(e, rk, out);
                out.push(',');
            }
            out.push_str("]<");
            super::types::write_type(out, t, rk);
            out.push('>');
        }
        Init::Dag(d) => {
            out.push('(');
            cache_key(&d.op, rk, out);
            for (a, n) in &d.args {
                out.push(' ');
                cache_key(a, rk, out);
                if let Some(n) = n {
                    out.push_str(":$");
                    out.push_str(n);
                }
            }
            out.push(')');
        }
        // llvm-tblgen uniques `1` and `true` (an int and a bit) apart: a
        // parent multiclass's arguments are not cast, so `isWidening=1`
        // reaches a `bit` argument as an int (RISC-V's SchedSEWSet).
        Init::Bit(b) => out.push_str(if *b { "b1" } else { "b0" }),
        other => print::write(out, other, rk, false),
    }
}

fn has_var(v: &Init) -> bool {
    match v {
        Init::Var(_) => true,
        Init::Unset | Init::Bit(_) | Init::Int(_) | Init::Str(..) | Init::Def(_) => false,
        Init::Bits(b) => b.iter().any(has_var),
        Init::List(es, _) => es.iter().any(has_var),
        Init::Dag(d) => has_var(&d.op) || d.args.iter().any(|(a, _)| has_var(a)),
        Init::VarBit(x, _) => has_var(x),
        Init::Field(f) => has_var(&f.rec),
        Init::Op(o) => o.args.iter().any(has_var),
        Init::AnonClass(a) => a.args.iter().any(|(_, x)| has_var(x)),
    }
}

/// `value 'X' unknown`: a `let` of a field the record does not have; the
/// help names the record's closest field when one is close.
pub(crate) fn unknown_field(rec: &Record, name: Sym, loc: Span, rk: &RecordKeeper) -> Diagnostic {
    let text = rk.interner.name(name);
    let fields = rec
        .values
        .iter()
        .filter(|v| !v.is_template_arg)
        .map(|v| rk.interner.name(v.name));
    let help = match crate::suggest::closest(text, fields) {
        Some(f) => format!("did you mean '{f}'?"),
        None => {
            "declare the field in the record or one of its classes before assigning it with `let`"
                .to_string()
        }
    };
    Diagnostic::error(Kind::Undefined, loc, format!("value '{text}' unknown")).with_help(help)
}

/// `let name{bits} = v`: assigns a field of `rec` (bits in assignment order, bit 0 of `v` first).
pub fn set_value(
    rec: &mut Record,
    name: Sym,
    bits: Option<&[i64]>,
    v: Init,
    loc: Span,
    rk: &mut RecordKeeper,
) -> Result<(), Diagnostic> {
    let Some(i) = rec.values.iter().position(|x| x.name == name) else {
        return Err(unknown_field(rec, name, loc, rk));
    };
    if bits.is_none()
        && let Init::Var(var) = &v
        && var.name == name
    {
        return Err(Diagnostic::error(
            Kind::Eval,
            loc,
            "recursion / self-assignment forbidden",
        ));
    }
    let ty = rec.values[i].ty.clone();
    let mut v = v;
    if let Some(bits) = bits {
        let Init::Bits(cur) = &rec.values[i].value else {
            return Err(Diagnostic::error(
                Kind::Type,
                loc,
                format!("value '{}' is not a bits type", rk.interner.name(name)),
            ));
        };
        let cur = cur.clone();
        let Some(bi) = super::resolve::cast_to(&v, &super::types::Ty::Bits(bits.len() as u32), rk)
        else {
            return Err(Diagnostic::error(
                Kind::Type,
                loc,
                "initializer is not compatible with bit range",
            ));
        };
        let mut new: Vec<Option<Init>> = vec![None; cur.len()];
        for (k, &b) in bits.iter().enumerate() {
            if b < 0 || b as usize >= cur.len() {
                return Err(Diagnostic::error(
                    Kind::Type,
                    loc,
                    format!("invalid bit #{b} of value '{}'", rk.interner.name(name)),
                ));
            }
            if new[b as usize].is_some() {
                return Err(Diagnostic::error(
                    Kind::Type,
                    loc,
                    format!(
                        "cannot set bit #{b} of value '{}' more than once",
                        rk.interner.name(name)
                    ),
                ));
            }
            new[b as usize] = Some(super::resolve::get_bit(&bi, k as u32));
        }
        v = Init::Bits(
            new.into_iter()
                .enumerate()
                .map(|(k, b)| b.unwrap_or_else(|| cur[k].clone()))
                .collect(),
        );
    }
    match value_for_field(&v, &ty, rk) {
        Some(c) => {
            rec.values[i].value = c;
            Ok(())
        }
        None => {
            let vt = match &v {
                Init::Bits(b) => format!("' of type bit initializer with length {}", b.len()),
                other => match type_of(other, rk) {
                    Some(t) => format!("' of type '{}", type_string(&t, rk)),
                    None => String::new(),
                },
            };
            Err(Diagnostic::error(
                Kind::Type,
                loc,
                format!(
                    "field '{}' of type '{}' is incompatible with value '{}{}'",
                    rk.interner.name(name),
                    type_string(&ty, rk),
                    print::to_string_for_message(&v, rk),
                    vt
                ),
            ))
        }
    }
}
