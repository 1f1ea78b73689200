//! A deterministic generator of random register descriptions.
//!
//! [`generate`] turns a seed into the text of a register description in the
//! shape of the `tests/regs/*.td` corpus: sub-register indices, registers,
//! tuples, classes and callee-saved sets, all in namespace `T`, with no top
//! file (the caller adds `include "llvm/Target/Target.td"` or
//! `include "regalloc.td"`, the description, and `def T : Target;`).
//!
//! What a description holds:
//! - one to three *banks*: a row of leaf registers and one to three levels of
//!   super-registers above it, each parent owning 2-3 disjoint children of the
//!   level below (random trees, widths chosen per level), with sub-register
//!   indices shared between banks whenever size and offset agree; sometimes
//!   a `ComposedSubRegIndex` for a composition LLVM would otherwise
//!   synthesize, sometimes `CoveredBySubRegs`;
//! - per-register extras: ad-hoc `Aliases` across banks, `CostPerUse`,
//!   `isConstant`, `isArtificial`, `PositionOrder`, `HWEncoding`;
//! - `RegisterTuples` of 2-4 sub-registers zipped from shifted, rotated or
//!   decimated lists (overlapping tuples such as R0_R1, R1_R2 included), now
//!   and then tuples of tuples;
//! - register classes whose member lists are random set expressions over
//!   registers, `sequence`s (with steps, counting down), earlier classes,
//!   tuple sets and callee-saved sets, using every set operator; random
//!   `AltOrders`, `CopyCost`, `AllocationPriority`, `GlobalPriority`,
//!   `isAllocatable`, `Size`, `Alignment`, `RegInfos`, sometimes per HW mode;
//! - `CalleeSavedRegs` with `SaveList` and sometimes `OtherPreserved`.
//!
//! The generator evaluates every set expression it writes with LLVM's
//! semantics, so that what it emits is valid by construction for both
//! llvm-tblgen and tdgen's stricter checks: classes and alternative orders
//! are non-empty, alternative orders are subsets of their class, callee-saved
//! registers are members of a class, tuple lists have equal lengths and
//! disjoint members, and no register name is produced twice. The same seed
//! always gives the same text (a private SplitMix64 generator; no global
//! state).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

/// A small, fast, deterministic pseudo-random generator (SplitMix64).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x5DEE_CE66_D1CE_4E5B)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `lo..=hi`.
    pub fn range(&mut self, lo: u32, hi: u32) -> u32 {
        debug_assert!(lo <= hi);
        lo + (self.next_u64() % u64::from(hi - lo + 1)) as u32
    }

    /// True with probability `percent`/100.
    pub fn chance(&mut self, percent: u32) -> bool {
        self.range(0, 99) < percent
    }

    /// An index into a slice of length `len` (> 0).
    pub fn index(&mut self, len: usize) -> usize {
        (self.next_u64() % len as u64) as usize
    }

    /// A random element of a non-empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.index(items.len())]
    }

    /// Shuffles a slice in place.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.index(i + 1);
            items.swap(i, j);
        }
    }
}

/// The seed of the `index`-th generated case of a run seeded with `run_seed`.
pub fn case_seed(run_seed: u64, index: u64) -> u64 {
    let mut rng = Rng::new(run_seed ^ index.wrapping_mul(0xA076_1D64_78BD_642F));
    rng.next_u64()
}

/// A set expression, as written in a `.td` file and as llvm-tblgen's
/// SetTheory evaluates it.
#[derive(Clone, Debug)]
pub enum SetExpr {
    /// A register, register class, tuple set or callee-saved set, by name.
    Name(String),
    /// `(add a, b, ...)`: union in first-occurrence order.
    Add(Vec<SetExpr>),
    /// `(sub a, b, ...)`: the members of `a` in none of the others.
    Sub(Vec<SetExpr>),
    /// `(and a, b)`: the members of `a` that are also in `b`.
    And(Box<SetExpr>, Box<SetExpr>),
    /// `(shl a, n)`: `a` without its first `n` members.
    Shl(Box<SetExpr>, u32),
    /// `(trunc a, n)`: the first `n` members of `a`.
    Trunc(Box<SetExpr>, u32),
    /// `(rotl a, n)`: `a` rotated `n` places to the left.
    Rotl(Box<SetExpr>, u32),
    /// `(rotr a, n)`: `a` rotated `n` places to the right.
    Rotr(Box<SetExpr>, u32),
    /// `(decimate a, n)`: every `n`-th member of `a`, from the first.
    Decimate(Box<SetExpr>, u32),
    /// `(interleave a, b, ...)`: members taken from each operand in turn.
    Interleave(Vec<SetExpr>),
    /// `(sequence "P%u", from, to[, step])`: `P<from>` ... `P<to>`, counting down if from > to.
    Sequence {
        /// The name prefix (the format is `prefix%u`).
        prefix: String,
        /// First number.
        from: u32,
        /// Last bound (inclusive).
        to: u32,
        /// The step, if written.
        step: Option<u32>,
    },
}

impl SetExpr {
    fn name(n: &str) -> SetExpr {
        SetExpr::Name(n.to_string())
    }

    /// The `.td` text of the expression (a bare name for [`SetExpr::Name`]).
    pub fn to_td(&self) -> String {
        let list = |items: &[SetExpr]| {
            items
                .iter()
                .map(SetExpr::to_td)
                .collect::<Vec<_>>()
                .join(", ")
        };
        match self {
            SetExpr::Name(n) => n.clone(),
            SetExpr::Add(items) if items.is_empty() => "(add)".to_string(),
            SetExpr::Add(items) => format!("(add {})", list(items)),
            SetExpr::Sub(items) => format!("(sub {})", list(items)),
            SetExpr::And(a, b) => format!("(and {}, {})", a.to_td(), b.to_td()),
            SetExpr::Shl(a, n) => format!("(shl {}, {n})", a.to_td()),
            SetExpr::Trunc(a, n) => format!("(trunc {}, {n})", a.to_td()),
            SetExpr::Rotl(a, n) => format!("(rotl {}, {n})", a.to_td()),
            SetExpr::Rotr(a, n) => format!("(rotr {}, {n})", a.to_td()),
            SetExpr::Decimate(a, n) => format!("(decimate {}, {n})", a.to_td()),
            SetExpr::Interleave(items) => format!("(interleave {})", list(items)),
            SetExpr::Sequence {
                prefix,
                from,
                to,
                step,
            } => match step {
                Some(s) => format!("(sequence \"{prefix}%u\", {from}, {to}, {s})"),
                None => format!("(sequence \"{prefix}%u\", {from}, {to})"),
            },
        }
    }

    /// The `.td` text as a dag (a bare name is wrapped in `(add ...)`).
    pub fn to_dag(&self) -> String {
        match self {
            SetExpr::Name(n) => format!("(add {n})"),
            _ => self.to_td(),
        }
    }

    /// Evaluates the expression to an ordered set (duplicates dropped, first
    /// occurrence kept). `sets` maps the names of classes, tuple sets and
    /// callee-saved sets to their expansion; any other name is a register.
    pub fn eval(&self, sets: &BTreeMap<String, Vec<String>>) -> Vec<String> {
        let mut out = Vec::new();
        self.eval_into(sets, &mut out);
        out
    }

    fn eval_into(&self, sets: &BTreeMap<String, Vec<String>>, out: &mut Vec<String>) {
        let push = |out: &mut Vec<String>, items: Vec<String>| {
            for r in items {
                if !out.contains(&r) {
                    out.push(r);
                }
            }
        };
        match self {
            SetExpr::Name(n) => match sets.get(n) {
                Some(members) => push(out, members.clone()),
                None => push(out, vec![n.clone()]),
            },
            SetExpr::Add(items) => {
                for e in items {
                    push(out, e.eval(sets));
                }
            }
            SetExpr::Sub(items) => {
                let mut base = items[0].eval(sets);
                for e in &items[1..] {
                    let gone = e.eval(sets);
                    base.retain(|r| !gone.contains(r));
                }
                push(out, base);
            }
            SetExpr::And(a, b) => {
                let keep = b.eval(sets);
                let mut base = a.eval(sets);
                base.retain(|r| keep.contains(r));
                push(out, base);
            }
            SetExpr::Shl(a, n) => {
                let base = a.eval(sets);
                push(out, base.into_iter().skip(*n as usize).collect());
            }
            SetExpr::Trunc(a, n) => {
                let base = a.eval(sets);
                push(out, base.into_iter().take(*n as usize).collect());
            }
            SetExpr::Rotl(a, n) | SetExpr::Rotr(a, n) => {
                let mut base = a.eval(sets);
                if !base.is_empty() {
                    let k = *n as usize % base.len();
                    if matches!(self, SetExpr::Rotl(..)) {
                        base.rotate_left(k);
                    } else {
                        base.rotate_right(k);
                    }
                }
                push(out, base);
            }
            SetExpr::Decimate(a, n) => {
                let base = a.eval(sets);
                push(out, base.into_iter().step_by(*n as usize).collect());
            }
            SetExpr::Interleave(items) => {
                let lists: Vec<Vec<String>> = items.iter().map(|e| e.eval(sets)).collect();
                let longest = lists.iter().map(Vec::len).max().unwrap_or(0);
                for i in 0..longest {
                    for l in &lists {
                        if let Some(r) = l.get(i) {
                            push(out, vec![r.clone()]);
                        }
                    }
                }
            }
            SetExpr::Sequence {
                prefix,
                from,
                to,
                step,
            } => {
                let step = step.unwrap_or(1) as i64;
                let (from, to) = (i64::from(*from), i64::from(*to));
                let mut i = from;
                let mut items = Vec::new();
                if from <= to {
                    while i <= to {
                        items.push(format!("{prefix}{i}"));
                        i += step;
                    }
                } else {
                    while i >= to {
                        items.push(format!("{prefix}{i}"));
                        i -= step;
                    }
                }
                push(out, items);
            }
        }
    }
}

/// One generated register (ordinary or tuple).
#[derive(Clone, Debug)]
struct Reg {
    name: String,
    /// Width in bits.
    size: u32,
    /// The leaf registers it covers (by leaf number), for disjointness checks.
    leaves: BTreeSet<usize>,
    /// Which bank it belongs to (tuples: the bank of their first member).
    bank: usize,
    /// Number of leaf positions below it (its sub-register budget).
    leaf_count: u32,
    /// First sub-register copied into a tuple has it; tuples inherit.
    is_constant: bool,
    /// False for tuple registers, which a .td file cannot name.
    nameable: bool,
}

/// A row of registers that can be written as `(sequence "P%u", a, b)`.
#[derive(Clone, Debug)]
struct Row {
    prefix: String,
    /// Register indices (into `Gen::regs`), in number order.
    regs: Vec<usize>,
}

/// A named set a class expression may use.
#[derive(Clone, Debug)]
struct NamedSet {
    name: String,
    size: u32,
}

struct Gen {
    rng: Rng,
    out: String,
    regs: Vec<Reg>,
    by_name: BTreeMap<String, usize>,
    /// Expansions of classes, tuple sets and callee-saved sets.
    sets: BTreeMap<String, Vec<String>>,
    /// Sub-register index names already written.
    indices: BTreeSet<String>,
    rows: Vec<Row>,
    /// Named sets usable in class expressions, with their register size.
    named: Vec<NamedSet>,
    /// Registers that are members of some allocatable class.
    in_allocatable: BTreeSet<String>,
    modes: Vec<String>,
    leaf_counter: usize,
    prefixes: Vec<&'static str>,
}

/// Register-name prefixes. None is a prefix of a value type, operator or of
/// another prefix followed by digits, and none ends in a digit.
const PREFIXES: &[&str] = &[
    "R", "W", "X", "D", "Q", "V", "S", "H", "B", "AX", "BX", "P", "Z", "ZA", "RS", "G", "K", "M",
    "N", "F", "E", "Y", "U", "J", "AB", "XR",
];

/// The value types a class of registers `size` bits wide may hold.
fn value_types(size: u32, rng: &mut Rng) -> (Vec<&'static str>, Option<u32>) {
    let choices: &[&[&str]] = match size {
        8 => &[&["i8"], &["i8", "v8i1"]],
        16 => &[&["i16"], &["f16", "i16"], &["bf16"], &["v2i8"]],
        32 => &[&["i32"], &["f32"], &["i32", "f32", "v2i16"], &["v4i8"]],
        64 => &[
            &["i64"],
            &["f64", "i64"],
            &["v2i32", "v4i16", "f64"],
            &["v1i64"],
        ],
        128 => &[&["v4i32"], &["v2i64", "v4f32", "f128"], &["i128"]],
        256 => &[&["v8i32", "v4i64"], &["v4f64"]],
        512 => &[&["v16i32"], &["v8f64", "v64i8"]],
        _ => &[],
    };
    if choices.is_empty() || rng.chance(10) {
        (vec!["untyped"], Some(size))
    } else {
        (rng.pick(choices).to_vec(), None)
    }
}

fn indent(text: &str) -> String {
    text.lines().map(|l| format!("  {l}\n")).collect::<String>()
}

impl Gen {
    fn new(seed: u64) -> Gen {
        let mut rng = Rng::new(seed);
        let mut prefixes = PREFIXES.to_vec();
        rng.shuffle(&mut prefixes);
        Gen {
            rng,
            out: String::new(),
            regs: Vec::new(),
            by_name: BTreeMap::new(),
            sets: BTreeMap::new(),
            indices: BTreeSet::new(),
            rows: Vec::new(),
            named: Vec::new(),
            in_allocatable: BTreeSet::new(),
            modes: Vec::new(),
            leaf_counter: 0,
            prefixes,
        }
    }

    fn add_reg(&mut self, reg: Reg) -> usize {
        let id = self.regs.len();
        self.by_name.insert(reg.name.clone(), id);
        self.regs.push(reg);
        id
    }

    /// Writes a sub-register index once.
    fn index(&mut self, name: &str, size: u32, offset: i64) -> String {
        if self.indices.insert(name.to_string()) {
            if offset == 0 {
                let _ = writeln!(self.out, "  def {name} : SubRegIndex<{size}>;");
            } else {
                let _ = writeln!(self.out, "  def {name} : SubRegIndex<{size}, {offset}>;");
            }
        }
        name.to_string()
    }

    fn extras(&mut self, body: &mut Vec<String>, allow_constant: bool) -> bool {
        let mut constant = false;
        if self.rng.chance(12) {
            let n = self.rng.range(0, 3);
            let costs: Vec<String> = (0..n).map(|_| self.rng.range(0, 3).to_string()).collect();
            body.push(format!("let CostPerUse = [{}];", costs.join(", ")));
        }
        if allow_constant && self.rng.chance(4) {
            body.push("let isConstant = 1;".to_string());
            constant = true;
        }
        if self.rng.chance(8) {
            body.push(format!("let HWEncoding = {};", self.rng.range(0, 65535)));
        }
        if self.rng.chance(4) {
            body.push(format!("let PositionOrder = {};", self.rng.range(1, 2)));
        }
        constant
    }

    /// One bank: leaves and up to three levels of super-registers.
    fn bank(&mut self, bank: usize) {
        let leaf_size = *self.rng.pick(&[8u32, 16, 16, 32, 32]);
        let levels = self.rng.range(0, 3) as usize;
        let mut widths = Vec::new();
        let mut budget = 1u32;
        for _ in 0..levels {
            let w = if budget >= 4 { 2 } else { self.rng.range(2, 3) };
            if budget * w > 8 {
                break;
            }
            budget *= w;
            widths.push(w);
        }
        let top_count = self.rng.range(2, if widths.len() >= 2 { 3 } else { 6 });
        // Leaves needed: top_count times the product of widths.
        let leaf_total = top_count * widths.iter().product::<u32>();
        let leaf_prefix = self.prefixes.pop().expect("enough prefixes");
        let covered = self.rng.chance(40);
        let _ = writeln!(self.out, "let Namespace = \"T\" in {{");
        // Leaves.
        let mut level_regs: Vec<usize> = Vec::new();
        let foreach_leaves = self.rng.chance(30);
        if foreach_leaves {
            let _ = writeln!(
                self.out,
                "  foreach i = 0-{} in def {leaf_prefix}#i : Register<\"{}\"#i>;",
                leaf_total - 1,
                leaf_prefix.to_lowercase()
            );
        }
        for i in 0..leaf_total {
            let name = format!("{leaf_prefix}{i}");
            let leaf = self.leaf_counter;
            self.leaf_counter += 1;
            let mut body = Vec::new();
            let constant = if foreach_leaves {
                false
            } else {
                self.extras(&mut body, levels == 0)
            };
            // Ad-hoc aliases with leaf registers of earlier banks. (Never with a
            // register that has sub-registers: llvm-tblgen 19 can loop forever
            // normalizing register-unit weights when a class holds such a
            // register next to one aliasing it.)
            if !foreach_leaves && bank > 0 && self.rng.chance(10) {
                let earlier: Vec<usize> = (0..self.regs.len())
                    .filter(|&r| self.regs[r].bank < bank && self.regs[r].leaf_count == 1)
                    .collect();
                if !earlier.is_empty() {
                    let a = self.regs[*self.rng.pick(&earlier)].name.clone();
                    body.push(format!("let Aliases = [{a}];"));
                }
            }
            if !foreach_leaves {
                self.write_reg(
                    &name,
                    "Register",
                    &format!("\"{}\"", name.to_lowercase()),
                    &body,
                );
            }
            level_regs.push(self.add_reg(Reg {
                name: name.clone(),
                size: leaf_size,
                leaves: [leaf].into_iter().collect(),
                bank,
                leaf_count: 1,
                is_constant: constant,
                nameable: true,
            }));
        }
        self.rows.push(Row {
            prefix: leaf_prefix.to_string(),
            regs: level_regs.clone(),
        });
        // Levels above.
        let mut child_size = leaf_size;
        for (lvl, &w) in widths.iter().enumerate() {
            let prefix = self.prefixes.pop().expect("enough prefixes");
            let idx: Vec<String> = (0..w)
                .map(|p| {
                    let off = i64::from(p * child_size);
                    self.index(&format!("s{child_size}o{off}"), child_size, off)
                })
                .collect();
            // Sometimes name a composition of a non-first index with the
            // first index of the level below (never inherited by name).
            if lvl > 0 && self.rng.chance(30) {
                let below = child_size / widths[lvl - 1];
                let outer = idx[w as usize - 1].clone();
                let inner = format!("s{below}o0");
                let name = format!("c_{outer}_{inner}");
                if self.indices.insert(name.clone()) {
                    let _ = writeln!(
                        self.out,
                        "  def {name} : ComposedSubRegIndex<{outer}, {inner}>;"
                    );
                }
            }
            let mut next = Vec::new();
            for (k, chunk) in level_regs.chunks(w as usize).enumerate() {
                let name = format!("{prefix}{k}");
                let kids: Vec<String> = chunk.iter().map(|&c| self.regs[c].name.clone()).collect();
                let mut body = vec![format!("let SubRegIndices = [{}];", idx.join(", "))];
                if covered {
                    body.push("let CoveredBySubRegs = 1;".to_string());
                }
                let is_top = lvl + 1 == widths.len();
                let constant = self.extras(&mut body, false) && is_top;
                self.write_reg(
                    &name,
                    "RegisterWithSubRegs",
                    &format!("\"{}\", [{}]", name.to_lowercase(), kids.join(", ")),
                    &body,
                );
                let leaves = chunk
                    .iter()
                    .flat_map(|&c| self.regs[c].leaves.iter().copied())
                    .collect();
                next.push(self.add_reg(Reg {
                    name,
                    size: child_size * w,
                    leaves,
                    bank,
                    leaf_count: chunk.iter().map(|&c| self.regs[c].leaf_count).sum(),
                    is_constant: constant,
                    nameable: true,
                }));
            }
            self.rows.push(Row {
                prefix: prefix.to_string(),
                regs: next.clone(),
            });
            level_regs = next;
            child_size *= w;
        }
        let _ = writeln!(self.out, "}}");
    }

    fn write_reg(&mut self, name: &str, class: &str, args: &str, body: &[String]) {
        if body.is_empty() {
            let _ = writeln!(self.out, "  def {name} : {class}<{args}>;");
        } else {
            let _ = writeln!(self.out, "  def {name} : {class}<{args}> {{");
            for line in body {
                let _ = writeln!(self.out, "    {line}");
            }
            let _ = writeln!(self.out, "  }}");
        }
    }

    /// A list expression over a row: the registers it yields must be evaluated.
    fn row_list(&mut self, row: &Row, shift: u32, len: usize) -> SetExpr {
        let names: Vec<String> = row
            .regs
            .iter()
            .map(|&r| self.regs[r].name.clone())
            .collect();
        let from = shift;
        let to = shift as usize + len - 1;
        match self.rng.range(0, 3) {
            0 => SetExpr::Sequence {
                prefix: row.prefix.clone(),
                from,
                to: to as u32,
                step: None,
            },
            1 => SetExpr::Trunc(
                Box::new(SetExpr::Shl(
                    Box::new(SetExpr::Sequence {
                        prefix: row.prefix.clone(),
                        from: 0,
                        to: names.len() as u32 - 1,
                        step: None,
                    }),
                    shift,
                )),
                len as u32,
            ),
            2 => SetExpr::Add(
                names[shift as usize..=to]
                    .iter()
                    .map(|n| SetExpr::name(n))
                    .collect(),
            ),
            _ => SetExpr::Trunc(
                Box::new(SetExpr::Rotl(
                    Box::new(SetExpr::Add(
                        names.iter().map(|n| SetExpr::name(n)).collect(),
                    )),
                    shift,
                )),
                len as u32,
            ),
        }
    }

    /// Zero to three RegisterTuples defs.
    fn tuples(&mut self, count: usize) {
        let mut made = 0;
        let mut tries = 0;
        while made < count && tries < 10 {
            tries += 1;
            // A row whose registers are small enough to zip.
            let rows: Vec<Row> = self
                .rows
                .iter()
                .filter(|r| r.regs.len() >= 2 && self.regs[r.regs[0]].leaf_count <= 2)
                .cloned()
                .collect();
            if rows.is_empty() {
                return;
            }
            let row = self.rng.pick(&rows).clone();
            let n = row.regs.len();
            let arity = self.rng.range(2, 4.min(n as u32)) as usize;
            // Either overlapping runs (R0_R1, R1_R2, ...) or aligned groups
            // (R0_R1, R2_R3, ...) picked with decimate.
            let aligned = self.rng.chance(50) && n / arity >= 1;
            let lists: Vec<SetExpr> = (0..arity)
                .map(|k| {
                    if aligned {
                        let groups = n / arity;
                        let base = self.row_list(&row, k as u32, groups * arity - k);
                        SetExpr::Decimate(Box::new(base), arity as u32)
                    } else {
                        self.row_list(&row, k as u32, n - arity + 1)
                    }
                })
                .collect();
            let evaluated: Vec<Vec<String>> = lists.iter().map(|l| l.eval(&self.sets)).collect();
            let len = evaluated.iter().map(Vec::len).min().unwrap_or(0);
            if len == 0 || evaluated.iter().any(|l| l.len() != len) {
                continue;
            }
            // Members of each tuple must be disjoint; names must be new.
            let mut names = Vec::new();
            let mut ok = true;
            for i in 0..len {
                let members: Vec<usize> = evaluated.iter().map(|l| self.by_name[&l[i]]).collect();
                let mut seen = BTreeSet::new();
                for &m in &members {
                    for &leaf in &self.regs[m].leaves {
                        ok &= seen.insert(leaf);
                    }
                }
                let name = members
                    .iter()
                    .map(|&m| self.regs[m].name.clone())
                    .collect::<Vec<_>>()
                    .join("_");
                ok &= !self.by_name.contains_key(&name);
                // llvm-tblgen 19 fails ("No SubRegIndex for X in Y") when an
                // existing register lies inside the tuple without lying inside
                // one of its members, or covers exactly the same leaves.
                let tuple_leaves: BTreeSet<usize> = seen;
                for other in &self.regs {
                    if other.leaves.is_subset(&tuple_leaves)
                        && !members
                            .iter()
                            .any(|&m| other.leaves.is_subset(&self.regs[m].leaves))
                    {
                        ok = false;
                    }
                }
                names.push((name, members));
            }
            if !ok {
                continue;
            }
            let member_size = self.regs[names[0].1[0]].size;
            let unknown_offset = self.rng.chance(20);
            let _ = writeln!(self.out, "let Namespace = \"T\" in {{");
            let idx: Vec<String> = (0..arity)
                .map(|k| {
                    if unknown_offset {
                        self.index(&format!("t{member_size}u{k}"), member_size, -1)
                    } else {
                        let off = (k as u32 * member_size) as i64;
                        self.index(&format!("t{member_size}x{k}"), member_size, off)
                    }
                })
                .collect();
            let _ = writeln!(self.out, "}}");
            let tname = format!("TUP{made}");
            let lists_td: Vec<String> = lists.iter().map(SetExpr::to_dag).collect();
            let position = self.rng.chance(15);
            let _ = write!(
                self.out,
                "def {tname} : RegisterTuples<[{}],\n    [{}]>",
                idx.join(", "),
                lists_td.join(",\n     ")
            );
            if position {
                let _ = writeln!(self.out, " {{ let PositionOrder = 1; }}");
            } else {
                let _ = writeln!(self.out, ";");
            }
            let bank = self.regs[names[0].1[0]].bank;
            let mut members = Vec::new();
            for (name, parts) in names {
                let leaves = parts
                    .iter()
                    .flat_map(|&m| self.regs[m].leaves.iter().copied())
                    .collect();
                let leaf_count = parts.iter().map(|&m| self.regs[m].leaf_count).sum();
                let is_constant = self.regs[parts[0]].is_constant;
                members.push(name.clone());
                self.add_reg(Reg {
                    name,
                    size: member_size * arity as u32,
                    leaves,
                    bank,
                    leaf_count,
                    is_constant,
                    nameable: false,
                });
            }
            self.sets.insert(tname.clone(), members);
            made += 1;
        }
    }

    /// A random set expression over registers of width `size`, of depth at most `depth`.
    fn expr(&mut self, size: u32, depth: u32) -> SetExpr {
        let leaf_only = depth == 0 || self.rng.chance(25);
        if leaf_only {
            return self.leaf_expr(size);
        }
        let sub = |g: &mut Gen| Box::new(g.expr(size, depth - 1));
        match self.rng.range(0, 10) {
            0 | 1 => {
                let n = self.rng.range(1, 3);
                SetExpr::Add((0..n).map(|_| self.expr(size, depth - 1)).collect())
            }
            2 => {
                let n = self.rng.range(2, 3);
                SetExpr::Sub((0..n).map(|_| self.expr(size, depth - 1)).collect())
            }
            3 => SetExpr::And(sub(self), sub(self)),
            4 => {
                let k = self.rng.range(0, 5);
                SetExpr::Shl(sub(self), k)
            }
            5 => {
                let k = self.rng.range(0, 6);
                SetExpr::Trunc(sub(self), k)
            }
            6 => {
                let k = self.rng.range(0, 7);
                SetExpr::Rotl(sub(self), k)
            }
            7 => {
                let k = self.rng.range(0, 7);
                SetExpr::Rotr(sub(self), k)
            }
            8 => {
                let k = self.rng.range(1, 3);
                SetExpr::Decimate(sub(self), k)
            }
            _ => {
                let n = self.rng.range(2, 3);
                SetExpr::Interleave((0..n).map(|_| self.expr(size, depth - 1)).collect())
            }
        }
    }

    fn leaf_expr(&mut self, size: u32) -> SetExpr {
        let rows: Vec<Row> = self
            .rows
            .iter()
            .filter(|r| self.regs[r.regs[0]].size == size)
            .cloned()
            .collect();
        let named: Vec<NamedSet> = self
            .named
            .iter()
            .filter(|s| s.size == size)
            .cloned()
            .collect();
        let choice = self.rng.range(0, 9);
        if (choice < 3 || rows.is_empty()) && !named.is_empty() {
            return SetExpr::Name(self.rng.pick(&named).name.clone());
        }
        if rows.is_empty() {
            // Only tuples of this size: take one of their sets.
            let tuples: Vec<String> = self
                .sets
                .iter()
                .filter(|(_, m)| {
                    m.first()
                        .is_some_and(|r| self.regs[self.by_name[r]].size == size)
                })
                .map(|(n, _)| n.clone())
                .collect();
            return SetExpr::Name(self.rng.pick(&tuples).clone());
        }
        let row = self.rng.pick(&rows).clone();
        let n = row.regs.len() as u32;
        match choice {
            3..=5 => {
                let a = self.rng.range(0, n - 1);
                let b = self.rng.range(0, n - 1);
                let step = if self.rng.chance(30) {
                    Some(self.rng.range(1, 3))
                } else {
                    None
                };
                SetExpr::Sequence {
                    prefix: row.prefix.clone(),
                    from: a,
                    to: b,
                    step,
                }
            }
            6 | 7 => {
                let k = self.rng.range(1, 3.min(n));
                let mut picks: Vec<SetExpr> = Vec::new();
                for _ in 0..k {
                    let r = row.regs[self.rng.index(row.regs.len())];
                    picks.push(SetExpr::Name(self.regs[r].name.clone()));
                }
                if picks.len() == 1 && self.rng.chance(50) {
                    picks.pop().expect("one pick")
                } else {
                    SetExpr::Add(picks)
                }
            }
            _ => SetExpr::Sequence {
                prefix: row.prefix.clone(),
                from: 0,
                to: n - 1,
                step: None,
            },
        }
    }

    /// The sizes of registers that can form classes, with a full expression for each.
    fn class_pools(&self) -> Vec<(u32, Vec<SetExpr>)> {
        let mut pools: BTreeMap<u32, Vec<SetExpr>> = BTreeMap::new();
        for row in &self.rows {
            let size = self.regs[row.regs[0]].size;
            pools.entry(size).or_default().push(SetExpr::Sequence {
                prefix: row.prefix.clone(),
                from: 0,
                to: row.regs.len() as u32 - 1,
                step: None,
            });
        }
        for (name, members) in &self.sets {
            if name.starts_with("TUP") {
                let size = self.regs[self.by_name[&members[0]]].size;
                pools.entry(size).or_default().push(SetExpr::name(name));
            }
        }
        pools.into_iter().collect()
    }

    fn class_header(
        &mut self,
        name: &str,
        size: u32,
        expr: &SetExpr,
        allocatable: bool,
    ) -> Vec<String> {
        let (types, forced_size) = value_types(size, &mut self.rng);
        let align = if size.is_power_of_two() {
            if self.rng.chance(15) {
                (size / 2).max(8)
            } else {
                size
            }
        } else {
            8
        };
        let mut body = Vec::new();
        if let Some(s) = forced_size {
            body.push(format!("let Size = {s};"));
        } else if self.rng.chance(8) {
            body.push(format!("let Size = {};", size * 2));
        }
        if !self.modes.is_empty() && self.rng.chance(50) {
            let mut modes = vec!["DefaultMode".to_string()];
            let mut infos = vec![format!("RegInfo<{size}, {size}, {align}>")];
            for m in self.modes.clone() {
                let f = self.rng.range(1, 2);
                modes.push(m);
                infos.push(format!(
                    "RegInfo<{}, {}, {}>",
                    size * f,
                    size * f,
                    align * f
                ));
            }
            // Mode order in the list does not matter; shuffle it.
            let mut pairs: Vec<(String, String)> = modes.into_iter().zip(infos).collect();
            self.rng.shuffle(&mut pairs);
            let (m, i): (Vec<String>, Vec<String>) = pairs.into_iter().unzip();
            body.push(format!(
                "let RegInfos = RegInfoByHwMode<[{}],\n                               [{}]>;",
                m.join(", "),
                i.join(", ")
            ));
        } else if self.rng.chance(5) {
            body.push(format!(
                "let RegInfos = RegInfoByHwMode<[DefaultMode], [RegInfo<{size}, {}, {align}>]>;",
                size * 2
            ));
        }
        if !allocatable {
            body.push("let isAllocatable = 0;".to_string());
        }
        if self.rng.chance(15) {
            body.push(format!(
                "let CopyCost = {};",
                self.rng.range(0, 5) as i32 - 1
            ));
        }
        if self.rng.chance(15) {
            body.push(format!(
                "let AllocationPriority = {};",
                self.rng.range(0, 31)
            ));
        }
        if self.rng.chance(5) {
            body.push("let GlobalPriority = 1;".to_string());
        }
        let _ = write!(
            self.out,
            "def {name} : RegisterClass<\"T\", [{}], {align}, {}>",
            types.join(", "),
            expr.to_dag()
        );
        body
    }

    fn finish_def(&mut self, body: &[String]) {
        if body.is_empty() {
            let _ = writeln!(self.out, ";");
        } else {
            let _ = writeln!(self.out, " {{");
            for line in body {
                self.out.push_str(&indent(line));
            }
            let _ = writeln!(self.out, "}}");
        }
    }

    fn classes(&mut self) {
        let pools = self.class_pools();
        // One base class per register size, allocatable.
        let mut sizes = Vec::new();
        for (k, (size, parts)) in pools.iter().enumerate() {
            let name = format!("BASE{k}");
            let expr = if parts.len() == 1 {
                parts[0].clone()
            } else {
                SetExpr::Add(parts.clone())
            };
            let members = expr.eval(&self.sets);
            let body = self.class_header(&name, *size, &expr, true);
            self.finish_def(&body);
            self.in_allocatable.extend(members.iter().cloned());
            self.sets.insert(name.clone(), members);
            self.named.push(NamedSet { name, size: *size });
            sizes.push(*size);
        }
        // Callee-saved sets that classes may use.
        let early = self.rng.range(0, 1);
        for k in 0..early {
            self.csr(&format!("CSR_E{}", k * 9 + 1), &sizes);
        }
        // Random classes.
        let count = self.rng.range(1, 6);
        let mut made = 0;
        let mut tries = 0;
        while made < count && tries < 40 {
            tries += 1;
            let size = *self.rng.pick(&sizes);
            let depth = self.rng.range(1, 3);
            let expr = self.expr(size, depth);
            let members = expr.eval(&self.sets);
            if members.is_empty() {
                continue;
            }
            let name = format!("CLS{made}");
            let allocatable = !self.rng.chance(12);
            let mut body = self.class_header(&name, size, &expr, allocatable);
            if self.rng.chance(25) {
                let alts = self.alt_orders(&name, &members);
                if !alts.is_empty() {
                    body.push(format!(
                        "let AltOrders = [{}];",
                        alts.iter()
                            .map(SetExpr::to_dag)
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                    let sel = if alts.len() == 1 {
                        "[{ 1 }]".to_string()
                    } else {
                        "[{ if !func.has_calls() { 1 } else { 2 } }]".to_string()
                    };
                    body.push(format!("let AltOrderSelect = {sel};"));
                }
            }
            self.finish_def(&body);
            if allocatable {
                self.in_allocatable.extend(members.iter().cloned());
            }
            self.sets.insert(name.clone(), members);
            self.named.push(NamedSet { name, size });
            made += 1;
        }
        let late = self.rng.range(0, 2);
        for k in 0..late {
            let names = ["CSR_A2", "CSR_A10", "CSR_B", "CSR_B1"];
            self.csr(names[k as usize], &sizes);
        }
    }

    /// Alternative orders for a class: non-empty subsets of its members.
    fn alt_orders(&mut self, class: &str, members: &[String]) -> Vec<SetExpr> {
        let n = self.rng.range(1, 2);
        let own = || Box::new(SetExpr::name(class));
        // Tuple registers cannot be named; only ordinary ones can be listed.
        let nameable: Vec<String> = members
            .iter()
            .filter(|r| self.regs[self.by_name[*r]].nameable)
            .cloned()
            .collect();
        let mut out = Vec::new();
        for _ in 0..n {
            let len = members.len() as u32;
            let e = match self.rng.range(0, 5) {
                0 => SetExpr::Rotl(own(), self.rng.range(1, len.max(1))),
                1 => SetExpr::Rotr(own(), self.rng.range(1, len.max(1))),
                2 => SetExpr::Decimate(own(), self.rng.range(1, 2)),
                3 if len > 1 && !nameable.is_empty() => SetExpr::Sub(vec![
                    SetExpr::name(class),
                    SetExpr::Name(self.rng.pick(&nameable).clone()),
                ]),
                4 if !nameable.is_empty() => {
                    let mut picked = nameable.clone();
                    self.rng.shuffle(&mut picked);
                    picked.truncate(self.rng.range(1, picked.len() as u32) as usize);
                    SetExpr::Add(picked.into_iter().map(SetExpr::Name).collect())
                }
                _ => SetExpr::Trunc(own(), self.rng.range(1, len)),
            };
            // Evaluate against a scope where the class is already known.
            let mut scope = self.sets.clone();
            scope.insert(class.to_string(), members.to_vec());
            let got = e.eval(&scope);
            if !got.is_empty() && got.iter().all(|r| members.contains(r)) {
                out.push(e);
            }
        }
        out
    }

    /// One callee-saved set over registers in allocatable classes.
    fn csr(&mut self, name: &str, sizes: &[u32]) {
        let size = *self.rng.pick(sizes);
        let pool: Vec<String> = self
            .in_allocatable
            .iter()
            .filter(|r| self.regs[self.by_name[*r]].size == size)
            .cloned()
            .collect();
        if pool.is_empty() {
            return;
        }
        let mut tries = 0;
        let (expr, members) = loop {
            tries += 1;
            let e = if tries > 5 {
                // The first member of the base class of this size.
                let base = self
                    .named
                    .iter()
                    .find(|s| s.size == size && s.name.starts_with("BASE"))
                    .map(|s| s.name.clone())
                    .expect("every class size has a base class");
                SetExpr::Trunc(Box::new(SetExpr::Name(base)), 1)
            } else {
                let depth = self.rng.range(0, 2);
                self.expr(size, depth)
            };
            let m = e.eval(&self.sets);
            if m.iter().all(|r| self.in_allocatable.contains(r)) && (!m.is_empty() || tries > 3) {
                break (e, m);
            }
        };
        let _ = write!(self.out, "def {name} : CalleeSavedRegs<{}>", expr.to_dag());
        let named_pool: Vec<String> = pool
            .iter()
            .filter(|r| self.regs[self.by_name[*r]].nameable)
            .cloned()
            .collect();
        if !named_pool.is_empty() && self.rng.chance(25) {
            let other = SetExpr::Name(self.rng.pick(&named_pool).clone());
            let _ = writeln!(
                self.out,
                " {{\n  let OtherPreserved = {};\n}}",
                other.to_dag()
            );
        } else {
            let _ = writeln!(self.out, ";");
        }
        self.sets.insert(name.to_string(), members);
        self.named.push(NamedSet {
            name: name.to_string(),
            size,
        });
    }

    fn modes(&mut self) {
        if !self.rng.chance(15) {
            return;
        }
        let count = self.rng.range(1, 2);
        for k in 0..count {
            let name = ["ModeZ", "ModeA"][k as usize];
            let _ = writeln!(
                self.out,
                "def Pred{name} : Predicate<\"{}\">;\ndef {name} : HwMode<\"+{}\", [Pred{name}]>;",
                name.to_lowercase(),
                name.to_lowercase()
            );
            self.modes.push(name.to_string());
        }
    }
}

/// The text of a random, valid register description for `seed`: a `//` first
/// line naming the seed, then indices, registers, tuples, classes and
/// callee-saved sets in namespace `T`.
pub fn generate(seed: u64) -> String {
    let mut g = Gen::new(seed);
    let _ = writeln!(
        g.out,
        "// Generated register description, seed {seed} (tests/src/regs_gen.rs)."
    );
    g.modes();
    let banks = g.rng.range(1, 3) as usize;
    for b in 0..banks {
        g.bank(b);
    }
    let tuple_sets = *g.rng.pick(&[0usize, 0, 1, 1, 2, 3]);
    g.tuples(tuple_sets);
    g.classes();
    g.out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_text() {
        for seed in 0..50 {
            assert_eq!(generate(seed), generate(seed));
        }
        assert_ne!(generate(1), generate(2));
    }

    #[test]
    fn set_semantics() {
        let sets = BTreeMap::new();
        let seq = |from, to, step| SetExpr::Sequence {
            prefix: "R".into(),
            from,
            to,
            step,
        };
        let names = |v: Vec<String>| v.join(" ");
        assert_eq!(names(seq(3, 0, None).eval(&sets)), "R3 R2 R1 R0");
        assert_eq!(names(seq(0, 7, Some(3)).eval(&sets)), "R0 R3 R6");
        assert_eq!(
            names(SetExpr::Rotl(Box::new(seq(0, 3, None)), 5).eval(&sets)),
            "R1 R2 R3 R0"
        );
        assert_eq!(
            names(SetExpr::Rotr(Box::new(seq(0, 3, None)), 1).eval(&sets)),
            "R3 R0 R1 R2"
        );
        assert_eq!(
            names(SetExpr::Interleave(vec![seq(0, 2, None), seq(5, 5, None)]).eval(&sets)),
            "R0 R5 R1 R2"
        );
        assert_eq!(
            names(SetExpr::Decimate(Box::new(seq(0, 6, None)), 3).eval(&sets)),
            "R0 R3 R6"
        );
    }

    #[test]
    fn every_case_opens_with_a_comment_and_defines_a_class() {
        for seed in 0..200 {
            let text = generate(seed);
            assert!(text.starts_with("//"));
            assert!(text.contains(": RegisterClass<"), "seed {seed}:\n{text}");
        }
    }
}
