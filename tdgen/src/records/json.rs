//! The records as JSON in the shape of `llvm-tblgen -dump-json`, so the two can be compared.

use super::print;
use super::record::RecordKeeper;
use super::value::Init;
use serde_json::{Map, Value, json};

fn translate(v: &Init, rk: &RecordKeeper) -> Value {
    match v {
        Init::Unset => Value::Null,
        Init::Bit(b) => json!(*b as i64),
        Init::Bits(bs) => Value::Array(bs.iter().map(|b| translate(b, rk)).collect()),
        Init::Int(i) => json!(i),
        Init::Str(s, _) => json!(&**s),
        Init::List(es, _) => Value::Array(es.iter().map(|e| translate(e, rk)).collect()),
        _ => {
            let mut o = Map::new();
            o.insert("printable".into(), json!(print::to_string(v, rk)));
            match v {
                Init::Def(id) => {
                    o.insert("kind".into(), json!("def"));
                    o.insert("def".into(), json!(rk.name_of(*id)));
                }
                Init::Var(var) => {
                    o.insert("kind".into(), json!("var"));
                    o.insert("var".into(), json!(rk.interner.name(var.name)));
                }
                Init::VarBit(inner, i) if matches!(**inner, Init::Var(_)) => {
                    let Init::Var(var) = &**inner else {
                        unreachable!()
                    };
                    o.insert("kind".into(), json!("varbit"));
                    o.insert("var".into(), json!(rk.interner.name(var.name)));
                    o.insert("index".into(), json!(i));
                }
                Init::Dag(d) => {
                    o.insert("kind".into(), json!("dag"));
                    o.insert("operator".into(), translate(&d.op, rk));
                    if let Some(n) = &d.op_name {
                        o.insert("name".into(), json!(&**n));
                    }
                    let args = d
                        .args
                        .iter()
                        .map(|(a, n)| {
                            json!([
                                translate(a, rk),
                                n.as_deref().map_or(Value::Null, |s| json!(s))
                            ])
                        })
                        .collect();
                    o.insert("args".into(), Value::Array(args));
                }
                _ => {
                    o.insert("kind".into(), json!("complex"));
                }
            }
            Value::Object(o)
        }
    }
}

/// All defs, `!instanceof` and `!tablegen_json_version`, as llvm-tblgen prints them.
pub fn to_json(rk: &RecordKeeper) -> Value {
    let sources = &rk.sources;
    let mut root = Map::new();
    let mut instance: std::collections::BTreeMap<String, Vec<String>> =
        std::collections::BTreeMap::new();
    for &c in &rk.class_order {
        instance.insert(rk.name_of(c), Vec::new());
    }
    let mut names: Vec<(String, super::RecId)> =
        rk.def_order.iter().map(|&d| (rk.name_of(d), d)).collect();
    names.sort();
    for (name, id) in &names {
        let r = rk.get(*id);
        let mut o = Map::new();
        let mut fields = Vec::new();
        for v in &r.values {
            if v.is_template_arg {
                continue;
            }
            let n = rk.interner.name(v.name).to_string();
            if v.is_field {
                fields.push(json!(n));
            }
            o.insert(n, translate(&v.value, rk));
        }
        o.insert("!fields".into(), Value::Array(fields));
        let mut sup = Vec::new();
        for &(c, _) in &r.superclasses {
            let cn = rk.name_of(c);
            sup.push(json!(cn));
            instance.entry(cn).or_default().push(name.clone());
        }
        o.insert("!superclasses".into(), Value::Array(sup));
        o.insert("!name".into(), json!(name));
        o.insert(
            "!anonymous".into(),
            json!(r.kind == super::RecordKind::AnonymousDef),
        );
        let locs: Vec<Value> = r
            .locs
            .iter()
            .map(|l| json!(sources.loc_string(*l)))
            .collect();
        o.insert("!locs".into(), Value::Array(locs));
        root.insert(name.clone(), Value::Object(o));
    }
    root.insert("!instanceof".into(), json!(instance));
    root.insert("!tablegen_json_version".into(), json!(1));
    Value::Object(root)
}
