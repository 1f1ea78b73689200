//! Register unit weights for pressure tracking: registers in one class get the same weight (llvm-tblgen's uber sets).
//!
//! Registers are partitioned into "uber sets", the connected components of
//! overlapping allocatable classes; each set's weight is the largest unit-weight
//! sum of its registers, and lighter registers are normalized up to it by raising
//! a unit's weight or adopting a new unit.

use super::classes::Classes;
use super::regs::{RegBank, RegUnit};
use std::collections::BTreeSet;

struct UberSet {
    regs: Vec<usize>,
    weight: u32,
    singular: BTreeSet<u32>,
}

fn find(p: &mut [usize], x: usize) -> usize {
    let mut r = x;
    while p[r] != r {
        r = p[r];
    }
    let mut y = x;
    while p[y] != r {
        let n = p[y];
        p[y] = r;
        y = n;
    }
    r
}

fn join(p: &mut [usize], a: usize, b: usize) {
    let (ra, rb) = (find(p, a), find(p, b));
    // The smaller element leads, as in llvm's IntEqClasses.
    if ra < rb {
        p[rb] = ra;
    } else if rb < ra {
        p[ra] = rb;
    }
}

fn reg_weight(bank: &RegBank, r: usize) -> u32 {
    bank.regs[r]
        .units
        .iter()
        .fold(0u32, |w, &u| w.wrapping_add(bank.units[u as usize].weight))
}

fn compute_uber_weights(sets: &mut [UberSet], bank: &mut RegBank) {
    for s in sets.iter_mut().skip(1) {
        let mut max: u32 = 0;
        for &r in &s.regs {
            let mut w: u32 = 0;
            let units: Vec<u32> = bank.regs[r].units.iter().copied().collect();
            for u in units {
                let unit = &mut bank.units[u as usize];
                if unit.artificial {
                    continue;
                }
                if unit.weight == 0 {
                    unit.weight = 1;
                }
                w = w.wrapping_add(unit.weight);
            }
            max = max.max(w);
        }
        s.weight = max;
        for &r in &s.regs {
            if bank.regs[r].units.len() == 1 && reg_weight(bank, r) == s.weight {
                s.singular.extend(bank.regs[r].units.iter().copied());
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn normalize(
    r: usize,
    sets: &mut [UberSet],
    set_of: &[usize],
    normal_regs: &mut BTreeSet<usize>,
    normal_units: &mut BTreeSet<u32>,
    bank: &mut RegBank,
    depth: usize,
) -> bool {
    if !normal_regs.insert(r) || depth > 256 {
        return false;
    }
    let mut changed = false;
    let subs: Vec<usize> = bank.regs[r].subregs.values().copied().collect();
    for &s in &subs {
        if s != r {
            changed |= normalize(s, sets, set_of, normal_regs, normal_units, bank, depth + 1);
        }
    }
    let before = bank.regs[r].units.len();
    let mut inherited = BTreeSet::new();
    for &s in &subs {
        inherited.extend(bank.regs[s].units.iter().copied());
    }
    bank.regs[r].units.extend(inherited);
    if bank.regs[r].units.len() != before {
        compute_uber_weights(sets, bank);
    }
    let set = set_of[r];
    let rw = reg_weight(bank, r);
    if sets[set].weight > rw {
        let first = *bank.regs[r].units.iter().next().unwrap_or(&0);
        if bank.regs[r].units.len() != 1
            || normal_units.contains(&first)
            || sets[set].singular.contains(&first)
        {
            bank.units.push(RegUnit {
                roots: Vec::new(),
                weight: sets[set].weight.wrapping_sub(rw),
                artificial: false,
            });
            let u = bank.units.len() as u32 - 1;
            bank.regs[r].units.insert(u);
        } else {
            if !bank.units[first as usize].artificial {
                let unit = &mut bank.units[first as usize];
                unit.weight = unit.weight.wrapping_add(sets[set].weight.wrapping_sub(rw));
            }
            compute_uber_weights(sets, bank);
        }
        changed = true;
    }
    normal_units.extend(bank.regs[r].units.iter().copied());
    changed
}

/// Normalization rounds before giving up (llvm-tblgen has no bound).
const MAX_ROUNDS: usize = 4096;

/// Computes unit weights (and adopts pressure units where needed).
///
/// Weights are C++ `unsigned` in llvm-tblgen and wrap on overflow there;
/// they wrap here the same way, so that exotic descriptions whose weights
/// grow round after round still give llvm-tblgen's numbers.
pub fn compute_unit_weights(bank: &mut RegBank, classes: &Classes) {
    let n = bank.regs.len();
    let mut parent: Vec<usize> = (0..=n).collect();
    let mut allocatable = vec![false; n + 1];
    for rc in &classes.list {
        if !rc.allocatable || rc.members.is_empty() {
            continue;
        }
        let first = rc.members[0] + 1;
        allocatable[first] = true;
        for &m in &rc.members[1..] {
            allocatable[m + 1] = true;
            join(&mut parent, first, m + 1);
        }
    }
    for (e, &a) in allocatable.iter().enumerate().skip(1) {
        if !a {
            join(&mut parent, 0, e);
        }
    }
    // Number the classes by their smallest element.
    let mut id_of_leader = vec![usize::MAX; n + 1];
    let mut count = 0;
    for e in 0..=n {
        let l = find(&mut parent, e);
        if id_of_leader[l] == usize::MAX {
            id_of_leader[l] = count;
            count += 1;
        }
    }
    let mut sets: Vec<UberSet> = (0..count)
        .map(|_| UberSet {
            regs: Vec::new(),
            weight: 0,
            singular: BTreeSet::new(),
        })
        .collect();
    let mut set_of = vec![0; n];
    for (r, slot) in set_of.iter_mut().enumerate() {
        let id = id_of_leader[find(&mut parent, r + 1)];
        sets[id].regs.push(r);
        *slot = id;
    }
    compute_uber_weights(&mut sets, bank);
    let mut rounds = 0;
    loop {
        let mut changed = false;
        for r in 0..n {
            let mut normal_regs = BTreeSet::new();
            let mut normal_units = BTreeSet::new();
            changed |= normalize(
                r,
                &mut sets,
                &set_of,
                &mut normal_regs,
                &mut normal_units,
                bank,
                0,
            );
        }
        rounds += 1;
        // llvm-tblgen (built without assertions) iterates until nothing
        // changes; the bound only keeps a pathological description from
        // hanging tdgen.
        if !changed || rounds > MAX_ROUNDS {
            break;
        }
    }
}
