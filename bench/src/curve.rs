//! The compile-time curve of one allocator beside another on the -O2 corpus: per function the best of several timed runs of each, the two interleaved, summed into a table by function size (instructions) with the ratio of the two, and the exponent of a power-law fit.
//!
//! Two times per function and allocator, each the best of the runs: the
//! whole allocation (`allocate_without_stats_with_context`: analyses,
//! allocator, clean-up stages, rewriter; no statistics, no checker) and
//! the allocator pass alone ([`Pass::Allocate`], from the context's pass
//! timing, which is on for both sides alike). Both allocators allocate a
//! function one after the other inside one run, so that the machine's
//! load (it is shared) falls on both alike.
//!
//! The table's buckets are `bench-fit`'s: fewer than 100 instructions,
//! 100-999, 1,000-4,999, 5,000 and more (counted at the allocator's
//! input). Each row gives microseconds per 1,000 instructions of each
//! side and the ratio of the first to the second; `fit b` is the exponent
//! `b` of a least-squares fit of ln(time) on ln(instructions) over the
//! functions of more than 50 instructions (1.0 is linear).

use std::time::{Duration, Instant};

use regalloc::ir::MachineFunction;
use regalloc::mir::{self, FunctionDoc};
use regalloc::timing::Pass;
use regalloc::{
    AllocContext, Allocator, Options, TargetContext, allocate_without_stats_with_context,
};

use crate::corpus::{self, CorpusTarget};

/// The size buckets, by lower bound, with their labels.
const BUCKETS: [(usize, &str); 4] = [
    (0, "<100"),
    (100, "100-999"),
    (1_000, "1k-4999"),
    (5_000, "5k+"),
];

/// The fit leaves out functions this small (their time is mostly fixed
/// costs).
const FIT_MIN_INSTS: usize = 50;

/// One function's best times, per side: (whole, allocator pass).
#[derive(Clone, Debug)]
pub struct Timed {
    /// The target's corpus directory name.
    pub target: &'static str,
    /// Instructions at the allocator's input.
    pub insts: usize,
    /// Per side: the best whole-allocation time.
    pub whole: [f64; 2],
    /// Per side: the best allocator-pass time.
    pub pass: [f64; 2],
}

/// Every read function of `ct`'s -O2 corpus.
fn functions(ct: &CorpusTarget) -> Vec<MachineFunction> {
    let mut out = Vec::new();
    for f in corpus::files(ct.dir, "O2") {
        let text = std::fs::read_to_string(&f.path).expect("corpus file");
        let file = mir::read(ct.info, &f.path.to_string_lossy(), &text);
        out.extend(file.functions.into_iter().filter_map(|d| match d {
            FunctionDoc::Read(func) => Some(func),
            _ => None,
        }));
    }
    out
}

/// Allocates a copy of `f` with `allocator`: the whole time and the
/// allocator pass's, or `None` when the allocation failed.
fn time_one(
    target: &TargetContext<'_, '_>,
    ctx: &mut AllocContext,
    f: &MachineFunction,
    allocator: Allocator,
) -> Option<(f64, f64)> {
    let options = Options {
        allocator,
        check: false,
    };
    let mut g = f.clone();
    ctx.take_pass_times();
    let start = Instant::now();
    let result = allocate_without_stats_with_context(target, ctx, &mut g, &options);
    let whole = start.elapsed();
    let pass: Duration = ctx.take_pass_times().get(Pass::Allocate);
    std::hint::black_box(&g);
    result
        .ok()
        .map(|_| (whole.as_secs_f64(), pass.as_secs_f64()))
}

/// Times every function of `targets` with `sides[0]` and `sides[1]`,
/// each the best of `runs`; functions either side fails are left out
/// (and counted on standard error).
pub fn measure(targets: &[CorpusTarget], sides: [Allocator; 2], runs: usize) -> Vec<Timed> {
    let mut out = Vec::new();
    for ct in targets {
        let funcs = functions(ct);
        let target = TargetContext::new(ct.info);
        let mut ctx = AllocContext::new();
        ctx.set_time_passes(true);
        let mut best: Vec<Option<Timed>> = funcs
            .iter()
            .map(|f| {
                Some(Timed {
                    target: ct.dir,
                    insts: f.inst_ids().count(),
                    whole: [f64::INFINITY; 2],
                    pass: [f64::INFINITY; 2],
                })
            })
            .collect();
        for _ in 0..runs.max(1) {
            for (f, slot) in funcs.iter().zip(best.iter_mut()) {
                let Some(timed) = slot else { continue };
                for (k, &side) in sides.iter().enumerate() {
                    match time_one(&target, &mut ctx, f, side) {
                        Some((whole, pass)) => {
                            timed.whole[k] = timed.whole[k].min(whole);
                            timed.pass[k] = timed.pass[k].min(pass);
                        }
                        None => {
                            eprintln!("{} {}: {} failed; left out", ct.dir, f.name, side.name());
                            *slot = None;
                            break;
                        }
                    }
                }
            }
        }
        out.extend(best.into_iter().flatten());
    }
    out
}

/// The exponent `b` of the least-squares fit of ln(time) on
/// ln(instructions) over `points` of more than `FIT_MIN_INSTS` (50)
/// instructions, or `None` with fewer than three.
pub fn fit_exponent(points: impl Iterator<Item = (usize, f64)>) -> Option<f64> {
    let xy: Vec<(f64, f64)> = points
        .filter(|&(n, t)| n > FIT_MIN_INSTS && t > 0.0)
        .map(|(n, t)| ((n as f64).ln(), t.ln()))
        .collect();
    if xy.len() < 3 {
        return None;
    }
    let n = xy.len() as f64;
    let (mx, my) = xy
        .iter()
        .fold((0.0, 0.0), |(a, b), (x, y)| (a + x / n, b + y / n));
    let (num, den) = xy.iter().fold((0.0, 0.0), |(a, b), (x, y)| {
        (a + (x - mx) * (y - my), b + (x - mx) * (x - mx))
    });
    (den > 0.0).then(|| num / den)
}

/// The bucket `insts` falls in (an index into [`BUCKETS`]).
fn bucket(insts: usize) -> usize {
    BUCKETS
        .iter()
        .rposition(|&(low, _)| insts >= low)
        .unwrap_or(0)
}

/// Prints the table of `timed` under `title`, the sides named `names`.
pub fn print_table(title: &str, names: [&str; 2], timed: &[Timed]) {
    println!("{title}: microseconds per 1,000 instructions, best of the runs per function");
    println!(
        "  {:<8} {:>6} {:>8}  {:>10} {:>10} {:>7}  {:>10} {:>10} {:>7}",
        "size",
        "funcs",
        "insts",
        format!("{} all", names[0]),
        format!("{} all", names[1]),
        "ratio",
        format!("{} pass", names[0]),
        format!("{} pass", names[1]),
        "ratio"
    );
    let rows = BUCKETS
        .iter()
        .enumerate()
        .map(|(k, &(_, label))| {
            let in_bucket: Vec<&Timed> = timed.iter().filter(|t| bucket(t.insts) == k).collect();
            (label.to_string(), in_bucket)
        })
        .chain(std::iter::once(("all".to_string(), timed.iter().collect())));
    for (label, ts) in rows {
        if ts.is_empty() {
            continue;
        }
        let insts: usize = ts.iter().map(|t| t.insts).sum();
        let per_k = |f: &dyn Fn(&Timed) -> f64| {
            ts.iter().map(|t| f(t)).sum::<f64>() * 1e9 / insts.max(1) as f64
        };
        let (w0, w1) = (per_k(&|t| t.whole[0]), per_k(&|t| t.whole[1]));
        let (p0, p1) = (per_k(&|t| t.pass[0]), per_k(&|t| t.pass[1]));
        println!(
            "  {label:<8} {:>6} {insts:>8}  {w0:>10.1} {w1:>10.1} {:>7.3}  {p0:>10.1} {p1:>10.1} {:>7.3}",
            ts.len(),
            w0 / w1.max(1e-12),
            p0 / p1.max(1e-12)
        );
    }
    let fit = |f: &dyn Fn(&Timed) -> f64| {
        fit_exponent(timed.iter().map(|t| (t.insts, f(t))))
            .map_or_else(|| "-".to_string(), |b| format!("{b:.2}"))
    };
    println!(
        "  fit b (time ~ size^b, functions over {FIT_MIN_INSTS} instructions): {} all {}, {} all {}, {} pass {}, {} pass {}",
        names[0],
        fit(&|t| t.whole[0]),
        names[1],
        fit(&|t| t.whole[1]),
        names[0],
        fit(&|t| t.pass[0]),
        names[1],
        fit(&|t| t.pass[1]),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_linear_curve_fits_exponent_one_and_a_quadratic_two() {
        let linear = (1..20).map(|k| (100 * k, 3.0 * (100 * k) as f64));
        assert!((fit_exponent(linear).unwrap() - 1.0).abs() < 1e-9);
        let quadratic = (1..20).map(|k| (100 * k, ((100 * k) as f64).powi(2)));
        assert!((fit_exponent(quadratic).unwrap() - 2.0).abs() < 1e-9);
        // Functions of 50 instructions or fewer are left out.
        assert_eq!(
            fit_exponent([(10, 1.0), (20, 2.0), (50, 9.0)].into_iter()),
            None
        );
    }

    #[test]
    fn sizes_fall_in_bench_fits_buckets() {
        let labels: Vec<&str> = [0, 99, 100, 999, 1_000, 4_999, 5_000, 90_000]
            .iter()
            .map(|&n| BUCKETS[bucket(n)].1)
            .collect();
        assert_eq!(
            labels,
            [
                "<100", "<100", "100-999", "100-999", "1k-4999", "1k-4999", "5k+", "5k+"
            ]
        );
    }
}
