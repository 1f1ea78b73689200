//! Folding bang operators once their operands are known, with llvm-tblgen's rules for each.

use super::RecId;
use super::limits::MAX_EXPANDED_VALUE as MAX_EXPANDED;
use super::print;
use super::record::RecordKeeper;
use super::resolve::{MapResolver, bound_var, concat_strings, convert, resolve, type_of};
use super::types::{Ty, type_is_a, type_is_convertible};
use super::value::{Dag, Init, Op, OpInit, StrFormat};
use crate::syntax::ast::Sym;
use std::cmp::Ordering;
use std::rc::Rc;

fn as_int(v: &Init, rk: &mut RecordKeeper) -> Option<i64> {
    match convert(v, &Ty::Int, rk)? {
        Init::Int(i) => Some(i),
        _ => None,
    }
}

fn unfolded(o: OpInit) -> Init {
    Init::Op(Rc::new(o))
}

/// Compares two values for `!eq !ne !lt !le !gt !ge` (None: not comparable yet).
pub fn compare(op: &Op, a: &Init, b: &Init, rk: &mut RecordKeeper) -> Option<bool> {
    if let (Some(x), Some(y)) = (as_int(a, rk), as_int(b, rk)) {
        return Some(cmp_result(op, x.cmp(&y)));
    }
    if let (Init::Str(x, _), Init::Str(y, _)) = (a, b) {
        return Some(cmp_result(op, x.as_bytes().cmp(y.as_bytes())));
    }
    if matches!(op, Op::Eq | Op::Ne)
        && let (Init::Def(x), Init::Def(y)) = (a, b)
    {
        return Some((x == y) == (*op == Op::Eq));
    }
    None
}

fn cmp_result(op: &Op, o: Ordering) -> bool {
    match op {
        Op::Eq => o == Ordering::Equal,
        Op::Ne => o != Ordering::Equal,
        Op::Lt => o == Ordering::Less,
        Op::Le => o != Ordering::Greater,
        Op::Gt => o == Ordering::Greater,
        Op::Ge => o != Ordering::Less,
        _ => false,
    }
}

fn dag_arg_index(d: &Dag, key: &Init, rk: &mut RecordKeeper) -> Option<usize> {
    match key {
        Init::Int(i) => {
            if *i < 0 || *i as usize >= d.args.len() {
                rk.error(format!(
                    "!getdagarg index {i} is out of range 0...{}",
                    d.args.len() as i64 - 1
                ));
                return None;
            }
            Some(*i as usize)
        }
        Init::Str(s, _) => {
            let p = d.args.iter().position(|(_, n)| n.as_deref() == Some(&**s));
            if p.is_none() {
                rk.error(format!("!getdagarg key '{s}' is not found"));
            }
            p
        }
        _ => None,
    }
}

/// Applies `expr` with `var` bound to `item` (the body of `!foreach`/`!filter`).
/// `r` holds only `var`'s binding; one resolver serves every element, each
/// `set` replacing the previous element's binding (and its cached resolution).
fn apply(r: &mut MapResolver, var: Sym, item: &Init, expr: &Init, rk: &mut RecordKeeper) -> Init {
    r.set(var, item.clone());
    resolve(expr, r, rk)
}

/// Folds an operator if its operands allow; otherwise returns it unfolded.
/// `cur` is the record being resolved (for self-references), `fin` whether
/// this is its final resolution.
pub fn fold(o: OpInit, cur: Option<(RecId, Init)>, fin: bool, rk: &mut RecordKeeper) -> Init {
    let a = &o.args;
    match &o.op {
        Op::Cast => {
            let x = &a[0];
            match &o.ty {
                Ty::String => match x {
                    Init::Str(..) => return x.clone(),
                    Init::Def(id) => return Init::str(&rk.name_of(*id)),
                    _ => {
                        if let Some(i) = as_int(x, rk) {
                            return Init::str(&i.to_string());
                        }
                    }
                },
                Ty::Record(_) => {
                    if let Init::Str(name, _) = x {
                        let mut d = rk.def(name);
                        if d.is_none()
                            && let Some((id, Init::Str(cn, _))) = &cur
                            && cn == name
                        {
                            if !fin {
                                return unfolded(o);
                            }
                            d = Some(*id);
                        }
                        let Some(d) = d else {
                            if fin {
                                rk.error_about(
                                    name,
                                    format!("undefined reference to record: '{name}'"),
                                );
                            }
                            return unfolded(o);
                        };
                        let t = rk.record_type(d);
                        if !type_is_a(&t, &o.ty, rk) {
                            let msg = format!(
                                "expected type '{}', got '{}' in: {}",
                                super::types::type_string(&o.ty, rk),
                                super::types::type_string(&t, rk),
                                print::to_string_short(&unfolded(o.clone()), rk, 300)
                            );
                            rk.error(msg);
                            return unfolded(o);
                        }
                        return Init::Def(d);
                    }
                }
                _ => {}
            }
            if let Some(c) = convert(x, &o.ty, rk) {
                return c;
            }
        }
        Op::Not => {
            if let Some(i) = as_int(&a[0], rk) {
                return Init::Int((i == 0) as i64);
            }
        }
        Op::Head => {
            if let Init::List(es, _) = &a[0] {
                match es.first() {
                    Some(e) => return e.clone(),
                    None => rk.error("!head of an empty list"),
                }
            }
        }
        Op::Tail => {
            if let Init::List(es, t) = &a[0] {
                if es.is_empty() {
                    rk.error("!tail of an empty list");
                } else {
                    return Init::List(es[1..].into(), t.clone());
                }
            }
        }
        Op::Size => match &a[0] {
            Init::List(es, _) => return Init::Int(es.len() as i64),
            Init::Dag(d) => return Init::Int(d.args.len() as i64),
            Init::Str(s, _) => return Init::Int(s.len() as i64),
            _ => {}
        },
        Op::Empty => match &a[0] {
            Init::List(es, _) => return Init::Int(es.is_empty() as i64),
            Init::Dag(d) => return Init::Int(d.args.is_empty() as i64),
            Init::Str(s, _) => return Init::Int(s.is_empty() as i64),
            _ => {}
        },
        Op::GetDagOp => {
            if let Init::Dag(d) = &a[0] {
                let t = type_of(&d.op, rk);
                if let Some(t) = t {
                    if type_is_a(&t, &o.ty, rk) {
                        return d.op.clone();
                    }
                    let msg = format!(
                        "expected type '{}', got '{}' in: {}",
                        super::types::type_string(&o.ty, rk),
                        super::types::type_string(&t, rk),
                        print::to_string_short(&unfolded(o.clone()), rk, 300)
                    );
                    rk.error(msg);
                }
            }
        }
        Op::LogTwo => {
            if let Some(i) = as_int(&a[0], rk) {
                if i <= 0 {
                    rk.error("illegal operation: logtwo is undefined on arguments less than or equal to 0");
                } else {
                    return Init::Int(63 - i.leading_zeros() as i64);
                }
            }
        }
        Op::ToLower | Op::ToUpper => {
            if let Init::Str(s, f) = &a[0] {
                let t = if o.op == Op::ToLower {
                    s.to_ascii_lowercase()
                } else {
                    s.to_ascii_uppercase()
                };
                return Init::Str(Rc::from(t), *f);
            }
        }
        Op::Repr => {
            if let Init::Def(id) = &a[0] {
                return Init::str(&print::record_text(*id, rk));
            }
            if a[0].is_concrete() {
                let max = super::limits::MAX_STRING;
                let text = print::to_string_bounded(&a[0], rk, max + 1);
                if !rk.may_build_string("!repr", text.len()) {
                    return unfolded(o);
                }
                return Init::str(&text);
            }
        }
        Op::Initialized => {
            if a[0].is_unset() {
                return Init::Int(0);
            }
            if a[0].is_concrete() {
                return Init::Int(1);
            }
        }
        Op::ListFlatten => {
            if let Init::List(es, _) = &a[0]
                && let Some(Ty::List(inner)) = o.ty.element().cloned().map(|t| Ty::List(Rc::new(t)))
            {
                let mut len = 0usize;
                for e in es.iter() {
                    match e {
                        Init::List(xs, _) => len = len.saturating_add(xs.len()),
                        _ => return unfolded(o),
                    }
                }
                if !rk.may_build_list("!listflatten", len) {
                    return unfolded(o);
                }
                let mut out = Vec::with_capacity(len);
                for e in es.iter() {
                    if let Init::List(xs, _) = e {
                        out.extend(xs.iter().cloned());
                    }
                }
                return Init::List(out.into(), inner);
            }
        }
        Op::Add
        | Op::Sub
        | Op::Mul
        | Op::Div
        | Op::And
        | Op::Or
        | Op::Xor
        | Op::Shl
        | Op::Srl
        | Op::Sra => {
            if let (Some(x), Some(y)) = (as_int(&a[0], rk), as_int(&a[1], rk)) {
                // llvm-tblgen computes these in C++'s int64_t, where an
                // overflow, and a shift by a negative amount or by 64 or
                // more, is undefined behaviour: an error here. A left shift
                // is of the unsigned value, so bits shifted out are lost
                // (defined), as there.
                let overflow = match o.op {
                    Op::Add => x.checked_add(y).is_none(),
                    Op::Sub => x.checked_sub(y).is_none(),
                    Op::Mul => x.checked_mul(y).is_none(),
                    _ => false,
                };
                if overflow {
                    rk.error(format!(
                        "illegal operation: !{}({x}, {y}) overflows a 64-bit int",
                        o.op.name()
                    ));
                    return unfolded(o);
                }
                if matches!(o.op, Op::Shl | Op::Srl | Op::Sra) && !(0..64).contains(&y) {
                    rk.error(format!(
                        "illegal operation: !{}({x}, {y}): the shift amount must be 0 to 63",
                        o.op.name()
                    ));
                    return unfolded(o);
                }
                let r = match o.op {
                    Op::Add => x + y,
                    Op::Sub => x - y,
                    Op::Mul => x * y,
                    Op::Div => {
                        if y == 0 {
                            rk.error("illegal operation: division by zero");
                            return unfolded(o);
                        }
                        if x == i64::MIN && y == -1 {
                            rk.error("illegal operation: INT64_MIN / -1");
                            return unfolded(o);
                        }
                        x / y
                    }
                    Op::And => x & y,
                    Op::Or => x | y,
                    Op::Xor => x ^ y,
                    Op::Shl => ((x as u64) << y) as i64,
                    Op::Sra => x >> y,
                    _ => ((x as u64) >> y) as i64,
                };
                return Init::Int(r);
            }
        }
        Op::Eq | Op::Ne | Op::Lt | Op::Le | Op::Gt | Op::Ge => {
            if let Some(b) = compare(&o.op, &a[0], &a[1], rk) {
                return Init::Bit(b);
            }
        }
        Op::StrConcat => {
            if let (Init::Str(x, _), Init::Str(y, _)) = (&a[0], &a[1])
                && !rk.may_build_string("!strconcat", x.len() + y.len())
            {
                return unfolded(o);
            }
            if let Some(s) = concat_strings(&a[0], &a[1]) {
                return s;
            }
        }
        Op::ListConcat => {
            if let (Init::List(x, t), Init::List(y, _)) = (&a[0], &a[1]) {
                if !rk.may_build_list("!listconcat", x.len() + y.len())
                    || !shares_within_limit("!listconcat", x.iter().chain(y.iter()), rk)
                {
                    return unfolded(o);
                }
                let v: Vec<Init> = x.iter().chain(y.iter()).cloned().collect();
                return Init::List(v.into(), t.clone());
            }
        }
        Op::ListSplat => {
            if let Init::Int(n) = &a[1] {
                let len = (*n).max(0) as u64;
                if !rk.may_build_list("!listsplat", len.min(usize::MAX as u64) as usize)
                    || !shares_within_limit(
                        "!listsplat",
                        std::iter::repeat_n(&a[0], len as usize),
                        rk,
                    )
                {
                    return unfolded(o);
                }
                if !a[0].is_unset()
                    && let Some(t) = type_of(&a[0], rk)
                {
                    let v: Vec<Init> = (0..(*n).max(0)).map(|_| a[0].clone()).collect();
                    return Init::List(v.into(), Rc::new(t));
                }
            }
        }
        Op::ListRemove => {
            if let (Init::List(x, t), Init::List(y, _)) = (&a[0], &a[1]) {
                let mut out = Vec::new();
                for e in x.iter() {
                    let mut found = false;
                    for f in y.iter() {
                        if compare(&Op::Eq, e, f, rk) == Some(true) {
                            found = true;
                            break;
                        }
                    }
                    if !found {
                        out.push(e.clone());
                    }
                }
                return Init::List(out.into(), t.clone());
            }
        }
        Op::Interleave => {
            if let (Init::List(es, t), Init::Str(delim, _)) = (&a[0], &a[1]) {
                if es.is_empty() {
                    return Init::str("");
                }
                let pieces: usize = es
                    .iter()
                    .map(|e| match e {
                        Init::Str(x, _) => x.len(),
                        _ => 20,
                    })
                    .fold(0usize, usize::saturating_add);
                let len = pieces.saturating_add(delim.len().saturating_mul(es.len() - 1));
                if !rk.may_build_string("!interleave", len) {
                    return unfolded(o);
                }
                // llvm-tblgen: the result is code if any element after the first is.
                let mut s = String::new();
                let mut fmt = StrFormat::String;
                let is_str = **t == Ty::String;
                for (i, e) in es.iter().enumerate() {
                    if i > 0 {
                        s.push_str(delim);
                    }
                    if is_str {
                        let Init::Str(x, f) = e else {
                            return unfolded(o);
                        };
                        s.push_str(x);
                        if i > 0 && *f == StrFormat::Code {
                            fmt = StrFormat::Code;
                        }
                    } else {
                        let Some(x) = as_int(e, rk) else {
                            return unfolded(o);
                        };
                        s.push_str(&x.to_string());
                    }
                }
                return Init::Str(Rc::from(s), fmt);
            }
        }
        Op::Con => {
            if let (Init::Dag(x), Init::Dag(y)) = (&a[0], &a[1]) {
                let lop = &x.op;
                let rop = &y.op;
                let ok = |v: &Init| matches!(v, Init::Def(_) | Init::Unset);
                if ok(lop) && ok(rop) {
                    if let (Init::Def(l), Init::Def(r)) = (lop, rop)
                        && l != r
                    {
                        let msg = format!(
                            "concatenated Dag operators do not match: '{}' vs. '{}'",
                            print::to_string_for_message(&a[0], rk),
                            print::to_string_for_message(&a[1], rk)
                        );
                        rk.error(msg);
                        return unfolded(o);
                    }
                    if !rk.may_build_list("!con", x.args.len() + y.args.len()) {
                        return unfolded(o);
                    }
                    let op = if lop.is_unset() {
                        rop.clone()
                    } else {
                        lop.clone()
                    };
                    let args = x.args.iter().chain(y.args.iter()).cloned().collect();
                    return Init::Dag(Rc::new(Dag {
                        op,
                        op_name: None,
                        args,
                    }));
                }
            }
        }
        Op::GetDagArg => {
            if let Init::Dag(d) = &a[0]
                && matches!(a[1], Init::Int(_) | Init::Str(..))
            {
                let Some(p) = dag_arg_index(d, &a[1], rk) else {
                    return unfolded(o);
                };
                let arg = &d.args[p].0;
                if let Some(t) = type_of(arg, rk)
                    && !type_is_convertible(&t, &o.ty, rk)
                {
                    return Init::Unset;
                }
                return arg.clone();
            }
        }
        Op::GetDagName => {
            if let (Init::Dag(d), Init::Int(i)) = (&a[0], &a[1]) {
                if *i < 0 || *i as usize >= d.args.len() {
                    rk.error(format!(
                        "!getdagname index is out of range 0...{}: {i}",
                        d.args.len() as i64 - 1
                    ));
                    return unfolded(o);
                }
                return match &d.args[*i as usize].1 {
                    Some(n) => Init::Str(n.clone(), StrFormat::String),
                    None => Init::Unset,
                };
            }
        }
        Op::SetDagOp => {
            if let (Init::Dag(d), Init::Def(_)) = (&a[0], &a[1]) {
                return Init::Dag(Rc::new(Dag {
                    op: a[1].clone(),
                    op_name: None,
                    args: d.args.clone(),
                }));
            }
        }
        Op::SetDagArg | Op::SetDagName => {
            if let Init::Dag(d) = &a[0]
                && matches!(a[1], Init::Int(_) | Init::Str(..))
            {
                let Some(p) = dag_arg_index(d, &a[1], rk) else {
                    return unfolded(o);
                };
                let mut args = d.args.clone();
                if o.op == Op::SetDagArg {
                    args[p].0 = a[2].clone();
                } else {
                    args[p].1 = match &a[2] {
                        Init::Str(s, _) => Some(s.clone()),
                        _ => None,
                    };
                }
                return Init::Dag(Rc::new(Dag {
                    op: d.op.clone(),
                    op_name: d.op_name.clone(),
                    args,
                }));
            }
        }
        Op::ListElem => {
            if let (Init::List(es, _), Init::Int(i)) = (&a[0], &a[1])
                && *i >= 0
                && (*i as usize) < es.len()
            {
                return es[*i as usize].clone();
            }
        }
        Op::ListSlice => {
            if let (Init::List(es, t), Init::List(idx, _)) = (&a[0], &a[1]) {
                let mut out = Vec::with_capacity(idx.len());
                for i in idx.iter() {
                    match i {
                        Init::Int(i) if *i >= 0 && (*i as usize) < es.len() => {
                            out.push(es[*i as usize].clone())
                        }
                        _ => return unfolded(o),
                    }
                }
                return Init::List(out.into(), t.clone());
            }
        }
        Op::Range => {
            if let (Init::Int(s), Init::Int(e), Init::Int(st)) = (&a[0], &a[1], &a[2]) {
                let (s, e, st) = (*s, *e, *st);
                if st == 0 {
                    rk.error("step of !range can't be 0");
                    return unfolded(o);
                }
                // The count first, in 128 bits: neither the list nor the
                // last step may exceed what is allowed.
                let (s128, e128, st128) = (s as i128, e as i128, st as i128);
                let count = if (s < e && st > 0) || (s > e && st < 0) {
                    ((e128 - s128).abs() + st128.abs() - 1) / st128.abs()
                } else {
                    0
                };
                let count = count.min(usize::MAX as i128) as usize;
                if !rk.may_build_list("!range", count) {
                    return unfolded(o);
                }
                let out: Vec<Init> = (0..count as i128)
                    .map(|k| Init::Int((s128 + k * st128) as i64))
                    .collect();
                return Init::List(out.into(), Rc::new(Ty::Int));
            }
        }
        Op::If => {
            if let Some(i) = as_int(&a[0], rk) {
                return if i != 0 { a[1].clone() } else { a[2].clone() };
            }
        }
        Op::Foreach => {
            let elem_ty = o.ty.element().cloned();
            match &a[1] {
                Init::List(es, _) => {
                    if !rk.may_build_list("!foreach", es.len()) {
                        return unfolded(o);
                    }
                    let var = bound_var(&a[0], rk);
                    let mut r = MapResolver::with_current(cur.clone());
                    let mut out = Vec::with_capacity(es.len());
                    for e in es.iter() {
                        out.push(apply(&mut r, var, e, &a[2], rk));
                    }
                    if !shares_within_limit("!foreach", out.iter(), rk) {
                        return unfolded(o);
                    }
                    let t = elem_ty.unwrap_or(Ty::Int);
                    return Init::List(out.into(), Rc::new(t));
                }
                Init::Dag(d) => {
                    let var = bound_var(&a[0], rk);
                    let mut r = MapResolver::with_current(cur.clone());
                    let op = apply(&mut r, var, &d.op, &a[2], rk);
                    let mut args = Vec::with_capacity(d.args.len());
                    for (x, n) in &d.args {
                        args.push((apply(&mut r, var, x, &a[2], rk), n.clone()));
                    }
                    return Init::Dag(Rc::new(Dag {
                        op,
                        op_name: d.op_name.clone(),
                        args,
                    }));
                }
                _ => {}
            }
        }
        Op::Filter => {
            if let Init::List(es, t) = &a[1] {
                let var = bound_var(&a[0], rk);
                let mut r = MapResolver::with_current(cur.clone());
                let mut out = Vec::new();
                for e in es.iter() {
                    let keep = apply(&mut r, var, e, &a[2], rk);
                    match as_int(&keep, rk) {
                        Some(k) => {
                            if k != 0 {
                                out.push(e.clone());
                            }
                        }
                        None => return unfolded(o),
                    }
                }
                return Init::List(out.into(), t.clone());
            }
        }
        Op::Foldl => {
            if let Init::List(es, _) = &a[1] {
                let mut acc = a[0].clone();
                let va = bound_var(&a[2], rk);
                let vb = bound_var(&a[3], rk);
                let mut r = MapResolver::with_current(cur.clone());
                for e in es.iter() {
                    r.set(va, acc);
                    r.set(vb, e.clone());
                    acc = resolve(&a[4], &mut r, rk);
                    // An accumulator can nest one level per element; stop
                    // before printing or dropping it would exhaust the stack.
                    if spine_depth(&acc) > super::limits::MAX_VALUE_DEPTH || value_too_big(&acc) {
                        rk.error("!foldl builds a value nested too deeply or too large");
                        return unfolded(o);
                    }
                }
                return acc;
            }
        }
        Op::Subst => match (&a[0], &a[1], &a[2]) {
            (Init::Def(l), Init::Def(_), Init::Def(r)) => {
                return if rk.name_of(*l) == rk.name_of(*r) {
                    a[1].clone()
                } else {
                    a[2].clone()
                };
            }
            (Init::Str(l, _), Init::Str(m, _), Init::Str(r, _)) => {
                if l.is_empty() {
                    return Init::str(r);
                }
                // llvm-tblgen searches on after each replacement: the
                // occurrences that do not overlap, left to right.
                let n = r.matches(&**l).count();
                let len = (r.len() - n * l.len()).saturating_add(n.saturating_mul(m.len()));
                if !rk.may_build_string("!subst", len) {
                    return unfolded(o);
                }
                return Init::str(&r.replace(&**l, m));
            }
            _ => {}
        },
        Op::Substr => {
            if let (Init::Str(s, f), Init::Int(start), Init::Int(len)) = (&a[0], &a[1], &a[2]) {
                let size = s.len() as i64;
                if *start < 0 || *start > size {
                    rk.error(format!(
                        "!substr start position is out of range 0...{size}: {start}"
                    ));
                    return unfolded(o);
                }
                if *len < 0 {
                    rk.error("!substr length must be nonnegative");
                    return unfolded(o);
                }
                let st = *start as usize;
                let end = (st as i64).saturating_add(*len).min(size) as usize;
                let t = s.get(st..end).unwrap_or("");
                return Init::Str(Rc::from(t), *f);
            }
        }
        Op::Find => {
            if let (Init::Str(s, _), Init::Str(pat, _), Init::Int(start)) = (&a[0], &a[1], &a[2]) {
                let size = s.len() as i64;
                if *start < 0 || *start > size {
                    rk.error(format!(
                        "!find start position is out of range 0...{size}: {start}"
                    ));
                    return unfolded(o);
                }
                return Init::Int(
                    s.get(*start as usize..)
                        .and_then(|t| t.find(&**pat))
                        .map_or(-1, |p| p as i64 + start),
                );
            }
        }
        Op::DagOp => {
            let ml = matches!(a[1], Init::List(..) | Init::Unset);
            let rl = matches!(a[2], Init::List(..) | Init::Unset);
            if !(a[1].is_unset() && a[2].is_unset()) && ml && rl {
                let ms = if let Init::List(x, _) = &a[1] {
                    Some(x.clone())
                } else {
                    None
                };
                let ns = if let Init::List(x, _) = &a[2] {
                    Some(x.clone())
                } else {
                    None
                };
                if let (Some(m), Some(n)) = (&ms, &ns)
                    && m.len() != n.len()
                {
                    return unfolded(o);
                }
                let size = ms
                    .as_ref()
                    .map(|m| m.len())
                    .or(ns.as_ref().map(|n| n.len()))
                    .unwrap_or(0);
                let mut args = Vec::with_capacity(size);
                for i in 0..size {
                    let node = ms.as_ref().map_or(Init::Unset, |m| m[i].clone());
                    let name = match ns.as_ref().map(|n| &n[i]) {
                        Some(Init::Str(s, _)) => Some(s.clone()),
                        Some(Init::Unset) | None => None,
                        Some(_) => return unfolded(o),
                    };
                    args.push((node, name));
                }
                return Init::Dag(Rc::new(Dag {
                    op: a[0].clone(),
                    op_name: None,
                    args,
                }));
            }
        }
        Op::Cond => {
            let val_ty = o.ty.clone();
            for pair in a.chunks(2) {
                match as_int(&pair[0], rk) {
                    Some(c) => {
                        if c != 0 {
                            return convert(&pair[1], &val_ty, rk)
                                .unwrap_or_else(|| pair[1].clone());
                        }
                    }
                    None => return unfolded(o),
                }
            }
            let name = cur
                .as_ref()
                .map(|c| print::to_unquoted(&c.1, rk))
                .unwrap_or_default();
            let msg = format!(
                "{name} does not have any true condition in:{}",
                print::to_string_short(&unfolded(o.clone()), rk, 300)
            );
            rk.error(msg);
        }
        Op::IsA(t) => {
            if let Some(et) = type_of(&a[0], rk) {
                if type_is_convertible(&et, t, rk) {
                    return Init::Int(1);
                }
                if matches!(t, Ty::Record(_)) {
                    if !type_is_convertible(t, &et, rk) || matches!(a[0], Init::Def(_)) {
                        return Init::Int(0);
                    }
                } else {
                    return Init::Int(0);
                }
            }
        }
        Op::Exists(t) => {
            if let Init::Str(name, _) = &a[0] {
                if let Some(d) = rk.def(name) {
                    let dt = rk.record_type(d);
                    return Init::Int(type_is_a(&dt, t, rk) as i64);
                }
                if let Some((id, Init::Str(cn, _))) = &cur
                    && cn == name
                {
                    if !fin {
                        return unfolded(o);
                    }
                    let dt = rk.record_type(*id);
                    return Init::Int(type_is_a(&dt, t, rk) as i64);
                }
                if fin {
                    return Init::Int(0);
                }
            }
        }
    }
    unfolded(o)
}

/// Depth along the first and last children: how deep an accumulator built one
/// level per step has grown, in time proportional to that depth.
pub(crate) fn spine_depth(v: &Init) -> usize {
    let mut depth = 0;
    let mut first = Some(v);
    let mut last = Some(v);
    while first.is_some() || last.is_some() {
        first = first.and_then(child_first);
        last = last.and_then(child_last);
        depth += 1;
        if depth > super::limits::MAX_VALUE_DEPTH {
            break;
        }
    }
    depth
}

fn child_first(v: &Init) -> Option<&Init> {
    match v {
        Init::List(es, _) => es.first(),
        Init::Dag(d) => d.args.first().map(|(a, _)| a).or(Some(&d.op)),
        Init::Op(o) => o.args.first(),
        _ => None,
    }
}

fn child_last(v: &Init) -> Option<&Init> {
    match v {
        Init::List(es, _) => es.last(),
        Init::Dag(d) => d.args.last().map(|(a, _)| a),
        Init::Op(o) => o.args.last(),
        _ => None,
    }
}

/// Whether a value is a string or list past the size limits.
fn value_too_big(v: &Init) -> bool {
    match v {
        Init::Str(s, _) => s.len() > super::limits::MAX_STRING,
        Init::List(es, _) => es.len() > super::limits::MAX_LIST,
        _ => false,
    }
}

/// Whether the values of a list being built by `what` (which may refer
/// to the same value many times) stay within [`MAX_EXPANDED`] leaves when
/// expanded; reports the limit error when not. Only lists and dags are
/// walked, so a list of scalars or records costs nothing.
fn shares_within_limit<'v>(
    what: &str,
    elements: impl Iterator<Item = &'v Init>,
    rk: &mut RecordKeeper,
) -> bool {
    let mut leaves = 0usize;
    for e in elements {
        leaves = leaves.saturating_add(expanded_leaves(e, MAX_EXPANDED));
        if leaves > MAX_EXPANDED {
            rk.over_limit(format!(
                "{what} builds a value of more than {MAX_EXPANDED} elements when expanded (records::limits::MAX_EXPANDED_VALUE): a list of lists refers to one list many times"
            ));
            return false;
        }
    }
    true
}

/// Leaves of `v` when expanded, counting stopped past `cap`.
fn expanded_leaves(v: &Init, cap: usize) -> usize {
    match v {
        Init::List(es, _)
            if es
                .iter()
                .any(|e| matches!(e, Init::List(..) | Init::Dag(_))) =>
        {
            let mut n = 0usize;
            for e in es.iter() {
                n = n.saturating_add(expanded_leaves(e, cap));
                if n > cap {
                    break;
                }
            }
            n
        }
        Init::List(es, _) => es.len().max(1),
        Init::Dag(d) => {
            let mut n = 1usize;
            for (e, _) in &d.args {
                n = n.saturating_add(expanded_leaves(e, cap));
                if n > cap {
                    break;
                }
            }
            n
        }
        _ => 1,
    }
}
