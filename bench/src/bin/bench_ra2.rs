//! The regalloc2 adapter over the SSA corpus: per target, how many functions it can express, why the others not, and ion and fastalloc's spill code and checker verdicts.
//!
//! `cargo run --release -p regalloc-bench --bin bench-ra2 [-- TARGET...]`
//! reads `bench/out/corpus/<t>/ssa`, converts every function
//! (`regalloc_bench::ra2::prepare`), runs both algorithms with regalloc2's
//! checker, and prints the counts, the reasons for inexpressible functions
//! (grouped, most frequent first) and the approximations made.

use std::collections::BTreeMap;

use rayon::prelude::*;
use regalloc::mir::{self, FunctionDoc};
use regalloc_bench::corpus;
use regalloc_bench::ra2::{self, Approximations, Ra2Algorithm};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// One function's outcome.
enum Outcome {
    Unread,
    Inexpressible(String),
    Ran {
        approx: Approximations,
        insts: usize,
        results: Vec<Result<ra2::Ra2Counts, String>>,
    },
}

/// The reason with numbers and names blurred, for grouping.
fn reason_key(r: &str) -> String {
    let mut out = String::new();
    let mut last_digit = false;
    for ch in r.chars() {
        if ch.is_ascii_digit() {
            if !last_digit {
                out.push('N');
            }
            last_digit = true;
        } else {
            out.push(ch);
            last_digit = false;
        }
    }
    out
}

fn main() {
    std::panic::set_hook(Box::new(|_| {}));
    let args: Vec<String> = std::env::args().skip(1).collect();
    let names: Vec<String> = if args.is_empty() {
        corpus::targets()
            .iter()
            .map(|t| t.dir.to_string())
            .collect()
    } else {
        args
    };
    for name in names {
        let Some(ct) = corpus::target(&name) else {
            eprintln!("error: unknown target `{name}` (bpf, x86_64, aarch64, hexagon)");
            std::process::exit(2);
        };
        let t = ct.info;
        let files = corpus::files(ct.dir, "ssa");
        if files.is_empty() {
            println!(
                "notice: no SSA corpus for {} (run bench/corpus/build)",
                ct.dir
            );
            continue;
        }
        let outcomes: Vec<(String, Outcome)> = files
            .par_iter()
            .flat_map_iter(|f| {
                let text = std::fs::read_to_string(&f.path).unwrap_or_default();
                let file = mir::read(t, &f.path.to_string_lossy(), &text);
                file.functions
                    .into_iter()
                    .map(|d| match d {
                        FunctionDoc::Read(func) => {
                            let o = match ra2::prepare(t, &func) {
                                Err(e) => Outcome::Inexpressible(e),
                                Ok(p) => Outcome::Ran {
                                    approx: p.func.approx,
                                    insts: p.func.mir_insts,
                                    results: [Ra2Algorithm::Ion, Ra2Algorithm::Fastalloc]
                                        .into_iter()
                                        .map(|a| ra2::allocate(&p, a, true))
                                        .collect(),
                                },
                            };
                            (func.name.clone(), o)
                        }
                        FunctionDoc::Failed { name, .. } => {
                            (name.unwrap_or_default(), Outcome::Unread)
                        }
                    })
                    .collect::<Vec<_>>()
            })
            .collect();
        let total = outcomes.len();
        let mut unread = 0;
        let mut reasons: BTreeMap<String, (usize, String)> = BTreeMap::new();
        let mut expressible = 0;
        let mut approx = Approximations::default();
        let mut insts = 0;
        let mut per_algo: [(usize, usize, ra2::Ra2Counts); 2] = Default::default();
        let mut errors: BTreeMap<String, (usize, String)> = BTreeMap::new();
        for (fname, o) in &outcomes {
            match o {
                Outcome::Unread => unread += 1,
                Outcome::Inexpressible(r) => {
                    let e = reasons
                        .entry(reason_key(r))
                        .or_insert((0, format!("{fname}: {r}")));
                    e.0 += 1;
                }
                Outcome::Ran {
                    approx: a,
                    insts: n,
                    results,
                } => {
                    expressible += 1;
                    insts += n;
                    approx.copies_aliased += a.copies_aliased;
                    approx.sub_register_operands += a.sub_register_operands;
                    approx.undef_uses += a.undef_uses;
                    approx.ties_dropped += a.ties_dropped;
                    approx.unknown_phys_reads += a.unknown_phys_reads;
                    approx.phys_live_across_blocks += a.phys_live_across_blocks;
                    approx.edges_split += a.edges_split;
                    approx.undef_phi_inputs += a.undef_phi_inputs;
                    for (k, r) in results.iter().enumerate() {
                        match r {
                            Ok(c) => {
                                let s = &mut per_algo[k];
                                s.0 += 1;
                                if c.checked == Some(Ok(())) {
                                    s.1 += 1;
                                } else if let Some(Err(e)) = &c.checked {
                                    let e2 = errors
                                        .entry(reason_key(e).chars().take(80).collect())
                                        .or_insert((0, format!("{fname}: {e}")));
                                    e2.0 += 1;
                                }
                                s.2.spills += c.spills;
                                s.2.reloads += c.reloads;
                                s.2.moves += c.moves;
                                s.2.copies_left += c.copies_left;
                                s.2.spill_cost += c.spill_cost;
                                s.2.reload_cost += c.reload_cost;
                                s.2.time += c.time;
                            }
                            Err(e) => {
                                let e2 = errors
                                    .entry(reason_key(e).chars().take(80).collect())
                                    .or_insert((0, format!("{fname}: {e}")));
                                e2.0 += 1;
                            }
                        }
                    }
                }
            }
        }
        println!(
            "{}: {total} functions in the SSA corpus, {unread} unread by the MIR reader, {expressible} expressible, {} inexpressible",
            ct.dir,
            total - unread - expressible
        );
        let mut rs: Vec<_> = reasons.into_values().collect();
        rs.sort_by_key(|x| std::cmp::Reverse(x.0));
        for (n, example) in rs.iter().take(8) {
            println!("  inexpressible x{n}: e.g. {example}");
        }
        println!(
            "  approximations: {} copies aliased, {} sub-register operands, {} undef uses, {} ties dropped, {} unknown physical reads, {} blocks with physical live-ins, {} critical edges split, {} undefined PHI inputs",
            approx.copies_aliased,
            approx.sub_register_operands,
            approx.undef_uses,
            approx.ties_dropped,
            approx.unknown_phys_reads,
            approx.phys_live_across_blocks,
            approx.edges_split,
            approx.undef_phi_inputs
        );
        for (k, a) in [Ra2Algorithm::Ion, Ra2Algorithm::Fastalloc]
            .iter()
            .enumerate()
        {
            let (ok, checked, c) = &per_algo[k];
            println!(
                "  {}: {ok}/{expressible} allocated, {checked}/{ok} accepted by regalloc2's checker, spills {} reloads {} moves {} copies left {} (weighted spill+reload {:.1}), {:.3} s for {insts} instructions ({:.0} us per 1k)",
                a.name(),
                c.spills,
                c.reloads,
                c.moves,
                c.copies_left,
                c.spill_cost + c.reload_cost,
                c.time.as_secs_f64(),
                c.time.as_secs_f64() * 1e6 / (insts.max(1) as f64 / 1000.0)
            );
        }
        let mut es: Vec<_> = errors.into_values().collect();
        es.sort_by_key(|x| std::cmp::Reverse(x.0));
        for (n, example) in es.iter().take(6) {
            println!("  failure x{n}: e.g. {example}");
        }
    }
}
