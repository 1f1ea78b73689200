//! The target model as the facts document of `shared/oracle/README.md` (the shape `facts.py` gives llvm-tblgen's output).

use super::TargetModel;
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;

fn hexmask(v: u64) -> String {
    format!("0x{v:016X}")
}

/// The facts document: `target, namespace, counts, hw_modes, subreg_indices,
/// registers, register_units, register_classes, callee_saved`.
pub fn to_json(m: &TargetModel) -> Value {
    let b = &m.bank;
    let reg_name = |r: usize| b.regs[r].name.clone();
    let ncost = b
        .regs
        .iter()
        .map(|r| r.cost_per_use.len())
        .max()
        .unwrap_or(1)
        .max(1);
    let in_alloc: Vec<bool> = (0..b.regs.len())
        .map(|r| {
            m.classes
                .list
                .iter()
                .any(|c| c.allocatable && c.contains(r))
        })
        .collect();
    let mut registers = Vec::new();
    for (r, reg) in b.regs.iter().enumerate() {
        let subs = b.subregs_preorder(r);
        let subregs: Vec<Value> = subs
            .iter()
            .map(|&s| json!([b.indices[reg.subreg_index[&s]].name, reg_name(s)]))
            .collect();
        let cost: Vec<i64> = (0..ncost)
            .map(|k| reg.cost_per_use.get(k).copied().unwrap_or(0))
            .collect();
        registers.push(json!({
            "name": reg.name,
            "enum": r + 1,
            "subregs": subregs,
            "super_regs": reg.super_regs.iter().map(|&s| reg_name(s)).collect::<Vec<_>>(),
            "units": reg.native_units.iter().collect::<Vec<_>>(),
            "is_constant": reg.constant,
            "cost_per_use": cost,
            "in_allocatable_class": in_alloc[r],
        }));
    }
    // llvm-tblgen emits "all register units have unit weight" (weight 1 for
    // every unit) when no native unit weighs more than 1.
    let native = &b.units[..b.num_native_units];
    let uniform = native.iter().all(|u| u.weight <= 1);
    let units: Vec<Value> = native
        .iter()
        .enumerate()
        .map(|(u, x)| {
            let w = if uniform { 1 } else { x.weight };
            json!({"unit": u, "roots": x.roots.iter().map(|&r| reg_name(r)).collect::<Vec<_>>(), "weight": w})
        })
        .collect();
    // Witnessed compositions, first witness wins (registers in enum order, sub-registers in MC order).
    let mut compose: BTreeMap<usize, BTreeMap<String, String>> = BTreeMap::new();
    for (r, reg) in b.regs.iter().enumerate() {
        for s in b.subregs_preorder(r) {
            let a = reg.subreg_index[&s];
            for t in b.subregs_preorder(s) {
                let bi = b.regs[s].subreg_index[&t];
                let Some(&c) = reg.subreg_index.get(&t) else {
                    continue;
                };
                compose
                    .entry(a)
                    .or_default()
                    .entry(b.indices[bi].name.clone())
                    .or_insert_with(|| b.indices[c].name.clone());
            }
        }
    }
    let indices: Vec<Value> = b
        .indices
        .iter()
        .enumerate()
        .map(|(i, x)| {
            // llvm-tblgen lists ranges per mode only when some mode differs from the default.
            let per_mode = b
                .indices
                .iter()
                .any(|i| i.range.iter().any(|r| *r != i.range[0]));
            let nmodes = if per_mode { b.modes.len() } else { 1 };
            let range: Map<String, Value> = b
                .modes
                .iter()
                .take(nmodes)
                .zip(x.range.iter())
                .map(|(mname, &(size, offset))| {
                    (
                        mname.clone(),
                        json!({"offset": offset & 0xFFFF, "size": size & 0xFFFF}),
                    )
                })
                .collect();
            json!({
                "name": x.name,
                "index": i + 1,
                "lane_mask": hexmask(x.lane_mask),
                "range_by_mode": range,
                "compose": compose.get(&i).cloned().unwrap_or_default(),
                "synthesized": x.def.is_none(),
            })
        })
        .collect();
    let classes: Vec<Value> = m
        .classes
        .list
        .iter()
        .enumerate()
        .map(|(id, c)| {
            let by_mode: Map<String, Value> = b
                .modes
                .iter()
                .enumerate()
                .map(|(k, mname)| {
                    let (rs, ss, sa) = c.sizes[k];
                    (
                        mname.clone(),
                        json!({"reg_size": rs, "spill_size": ss, "spill_alignment": sa, "value_types": c.value_types.get(k).cloned().unwrap_or_default()}),
                    )
                })
                .collect();
            let names = |v: &[usize]| v.iter().map(|&r| reg_name(r)).collect::<Vec<_>>();
            json!({
                "name": c.name,
                "id": id,
                "members": names(&c.members),
                "order": names(c.orders.first().map_or(&[][..], |o| &o[..])),
                // llvm-tblgen emits no table for an empty alternative order.
                "alt_orders": c.orders.iter().skip(1).filter(|o| !o.is_empty()).map(|o| names(o)).collect::<Vec<_>>(),
                "alt_order_select_code": if c.orders.len() > 1 { json!(c.alt_order_select.trim()) } else { Value::Null },
                "copy_cost": c.copy_cost,
                "allocatable": c.allocatable,
                "by_mode": by_mode,
                "sub_classes": c.sub_classes.iter().map(|&s| m.classes.list[s].name.clone()).collect::<Vec<_>>(),
                "super_classes": c.super_classes.iter().map(|&s| m.classes.list[s].name.clone()).collect::<Vec<_>>(),
                "synthesized": c.def.is_none(),
                "allocation_priority": c.allocation_priority,
                "keep_callee_saved_order": c.keep_callee_saved_order,
                "global_priority": c.global_priority,
            })
        })
        .collect();
    let csrs: Vec<Value> = m
        .callee_saved
        .iter()
        .map(|c| {
            json!({
                "name": c.name,
                "save_list": c.save_list.iter().map(|&r| reg_name(r)).collect::<Vec<_>>(),
                "reg_mask": c.mask.iter().map(|&r| reg_name(r)).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({
        "target": m.target,
        "namespace": m.namespace,
        "generator": "tdgen regs",
        "counts": {
            "registers": b.regs.len(),
            "register_units": b.num_native_units,
            "register_classes": m.classes.list.len(),
            "register_classes_synthesized": m.classes.list.iter().filter(|c| c.def.is_none()).count(),
            "subreg_indices": b.indices.len(),
            "subreg_indices_synthesized": b.indices.iter().filter(|i| i.def.is_none()).count(),
            "classes_with_alt_orders": m.classes.list.iter().filter(|c| c.orders.len() > 1).count(),
            "callee_saved_lists": m.callee_saved.len(),
            "hw_modes": b.modes.len(),
        },
        "hw_modes": b.modes,
        "subreg_indices": indices,
        "registers": registers,
        "register_units": units,
        "register_classes": classes,
        "callee_saved": csrs,
        "allocation_order_policy": {
            "cheap_callee_saved": m.policy.cheap_callee_saved.iter().map(|&r| reg_name(r)).collect::<Vec<_>>(),
        },
    })
}
