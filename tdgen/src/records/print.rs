//! Values printed exactly as llvm-tblgen prints them (`getAsString`), for `printable`, `!repr` and messages.

use super::record::RecordKeeper;
use super::types::type_string;
use super::value::{Init, Op, StrFormat};
use std::fmt::Write as _;

/// Appends `v` in decimal. Anonymous-instance cache keys are made of
/// numbers and names, and `write!` costs more than the rest of a key.
pub(crate) fn push_int(s: &mut String, v: i64) {
    s.push_str(itoa::Buffer::new().format(v));
}

/// The value as llvm-tblgen's `getAsString` prints it.
pub fn to_string(v: &Init, rk: &RecordKeeper) -> String {
    let mut s = String::new();
    write(&mut s, v, rk, false);
    s
}

/// The longest text printed for a message: a value that refers to one
/// large value many times can print to far more text than it takes memory.
const MESSAGE_CAP: usize = 1 << 20;

/// [`to_string`] cut to about `max` characters, for messages.
pub fn to_string_short(v: &Init, rk: &RecordKeeper, max: usize) -> String {
    let s = to_string_bounded(v, rk, MESSAGE_CAP.max(max + 1));
    if s.len() <= max {
        return s;
    }
    let mut cut = max;
    while !s.is_char_boundary(cut) {
        cut -= 1;
    }
    if s.len() > MESSAGE_CAP {
        format!("{} ... (more than {MESSAGE_CAP} characters)", &s[..cut])
    } else {
        format!("{} ... ({} characters in all)", &s[..cut], s.len())
    }
}

/// [`to_string`] for a message: whole up to 1 MiB, cut beyond.
pub fn to_string_for_message(v: &Init, rk: &RecordKeeper) -> String {
    to_string_short(v, rk, MESSAGE_CAP)
}

/// [`to_string`], stopped soon after the text passes `cap` bytes (the
/// caller sees the length and knows the value was cut).
pub(crate) fn to_string_bounded(v: &Init, rk: &RecordKeeper, cap: usize) -> String {
    let mut s = String::new();
    write_capped(&mut s, v, rk, false, cap);
    s
}

/// Like [`to_string`], but strings without quotes (`getAsUnquotedString`).
pub fn to_unquoted(v: &Init, rk: &RecordKeeper) -> String {
    let mut s = String::new();
    write(&mut s, v, rk, true);
    s
}

/// Appends the value as [`to_string`] prints it (or unquoted) to `s`.
pub(crate) fn write(s: &mut String, v: &Init, rk: &RecordKeeper, unquoted: bool) {
    write_capped(s, v, rk, unquoted, usize::MAX);
}

/// [`write`], giving up once `s` is longer than `cap`.
fn write_capped(s: &mut String, v: &Init, rk: &RecordKeeper, unquoted: bool, cap: usize) {
    if s.len() > cap {
        return;
    }
    let write = |s: &mut String, v: &Init, rk: &RecordKeeper, unquoted: bool| {
        write_capped(s, v, rk, unquoted, cap)
    };
    match v {
        Init::Unset => s.push('?'),
        Init::Bit(b) => s.push(if *b { '1' } else { '0' }),
        Init::Bits(bs) => {
            s.push_str("{ ");
            for (i, b) in bs.iter().rev().enumerate() {
                if s.len() > cap {
                    return;
                }
                if i > 0 {
                    s.push_str(", ");
                }
                write(s, b, rk, false);
            }
            s.push_str(" }");
        }
        Init::Int(i) => push_int(s, *i),
        Init::Str(t, f) => {
            if unquoted {
                s.push_str(t);
            } else if *f == StrFormat::Code {
                s.push_str("[{");
                s.push_str(t);
                s.push_str("}]");
            } else {
                s.push('"');
                s.push_str(t);
                s.push('"');
            }
        }
        Init::List(es, _) => {
            s.push('[');
            for (i, e) in es.iter().enumerate() {
                if s.len() > cap {
                    return;
                }
                if i > 0 {
                    s.push_str(", ");
                }
                write(s, e, rk, false);
            }
            s.push(']');
        }
        // Def names are strings once resolved: append without an owned copy.
        Init::Def(id) => match &rk.get(*id).name {
            Init::Str(n, _) => s.push_str(n),
            _ => s.push_str(&rk.name_of(*id)),
        },
        Init::Dag(d) => {
            s.push('(');
            write(s, &d.op, rk, false);
            if let Some(n) = &d.op_name {
                s.push(':');
                s.push_str(n);
            }
            for (i, (a, n)) in d.args.iter().enumerate() {
                if s.len() > cap {
                    return;
                }
                s.push_str(if i == 0 { " " } else { ", " });
                write(s, a, rk, false);
                if let Some(n) = n {
                    s.push_str(":$");
                    s.push_str(n);
                }
            }
            s.push(')');
        }
        Init::Var(v) => s.push_str(rk.interner.name(v.name)),
        Init::VarBit(v, i) => {
            write(s, v, rk, false);
            let _ = write!(s, "{{{i}}}");
        }
        Init::Field(f) => {
            write(s, &f.rec, rk, false);
            s.push('.');
            s.push_str(rk.interner.name(f.field));
        }
        Init::AnonClass(a) => {
            s.push_str(&rk.name_of(a.class));
            s.push('<');
            for (i, (_, v)) in a.args.iter().enumerate() {
                if s.len() > cap {
                    return;
                }
                if i > 0 {
                    s.push_str(", ");
                }
                write(s, v, rk, false);
            }
            s.push('>');
        }
        Init::Op(o) => {
            let a = &o.args;
            match &o.op {
                Op::ListElem | Op::ListSlice => {
                    write(s, &a[0], rk, false);
                    s.push('[');
                    write(s, &a[1], rk, false);
                    s.push(']');
                }
                Op::Cast => {
                    let _ = write!(s, "!cast<{}>(", type_string(&o.ty, rk));
                    write(s, &a[0], rk, false);
                    s.push(')');
                }
                Op::IsA(t) | Op::Exists(t) => {
                    let _ = write!(s, "!{}<{}>(", o.op.name(), type_string(t, rk));
                    write(s, &a[0], rk, false);
                    s.push(')');
                }
                Op::Cond => {
                    s.push_str("!cond(");
                    for (i, pair) in a.chunks(2).enumerate() {
                        if s.len() > cap {
                            return;
                        }
                        if i > 0 {
                            s.push_str(", ");
                        }
                        write(s, &pair[0], rk, false);
                        s.push_str(": ");
                        write(s, &pair[1], rk, false);
                    }
                    s.push(')');
                }
                op => {
                    s.push('!');
                    s.push_str(op.name());
                    s.push('(');
                    // The bound variables of !foreach/!filter (first) and
                    // !foldl (third and fourth) print unquoted.
                    let unq = |i: usize| match op {
                        Op::Foreach | Op::Filter => i == 0,
                        Op::Foldl => i == 2 || i == 3,
                        _ => false,
                    };
                    for (i, x) in a.iter().enumerate() {
                        if s.len() > cap {
                            return;
                        }
                        if i > 0 {
                            s.push_str(", ");
                        }
                        write(s, x, rk, unq(i));
                    }
                    s.push(')');
                }
            }
        }
    }
}

/// All classes and defs in the layout of `llvm-tblgen -print-records`.
pub fn records_text(rk: &RecordKeeper) -> String {
    use super::types::type_string;
    let mut s = String::from("------------- Classes -----------------\n");
    let mut classes: Vec<_> = rk.class_order.iter().map(|&c| (rk.name_of(c), c)).collect();
    classes.sort();
    for (name, c) in classes {
        let r = rk.get(c);
        s.push_str("class ");
        s.push_str(&name);
        if !r.template_args.is_empty() {
            s.push('<');
            for (i, ta) in r.template_args.iter().enumerate() {
                if i > 0 {
                    s.push_str(", ");
                }
                let v = r.value(*ta).expect("template arguments are fields");
                let _ = write!(s, "{} {}", type_string(&v.ty, rk), rk.interner.name(*ta));
                if !v.value.is_unset() {
                    let _ = write!(s, " = {}", to_string(&v.value, rk));
                }
            }
            s.push('>');
        }
        write_body(&mut s, r, rk);
    }
    s.push_str("------------- Defs -----------------\n");
    let mut defs: Vec<_> = rk.def_order.iter().map(|&d| (rk.name_of(d), d)).collect();
    defs.sort();
    for (name, d) in defs {
        s.push_str("def ");
        s.push_str(&name);
        write_body(&mut s, rk.get(d), rk);
    }
    s
}

/// One def in the layout of `-print-records` (what `!repr` gives for a record).
pub fn record_text(id: super::RecId, rk: &RecordKeeper) -> String {
    let mut s = rk.name_of(id);
    write_body(&mut s, rk.get(id), rk);
    s
}

fn write_body(s: &mut String, r: &super::record::Record, rk: &RecordKeeper) {
    use super::types::type_string;
    s.push_str(" {");
    let direct: Vec<_> = r.superclasses.iter().map(|&(c, _)| rk.name_of(c)).collect();
    if !direct.is_empty() {
        s.push_str("\t// ");
        s.push_str(&direct.join(" "));
    }
    s.push('\n');
    for v in &r.values {
        if v.is_template_arg {
            continue;
        }
        let _ = writeln!(
            s,
            "  {}{} {} = {};",
            if v.is_field { "field " } else { "" },
            type_string(&v.ty, rk),
            rk.interner.name(v.name),
            to_string(&v.value, rk)
        );
    }
    s.push_str("}\n");
}
