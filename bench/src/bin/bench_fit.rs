//! `bench-fit`: how allocation time grows with function size, from the per-function CSVs `bench/run` writes.
//!
//! `cargo run --release -p regalloc-bench --bin bench-fit -- [--allocator A] [--min-insts N] TARGET...`
//! reads `bench/out/run/<target>-<allocator>.csv` (default allocator
//! greedy) and prints, per target and for each side with times (ours
//! whole and its allocator line, LLVM's allocator pass and all its passes
//! from the scheduler to the rewriter, regalloc2's ion and fastalloc): the
//! exponent `b`
//! of a least-squares fit of ln(time) on ln(instructions), `time = a *
//! size^b`, over the functions of more than N instructions (default 50;
//! 1.0 is linear), a table of microseconds per instruction by size bucket
//! (<100, 100-999, 1k-4999, 5k+ instructions), and the times of the
//! largest functions and of our slowest ones. Functions are bucketed by their instruction count at our
//! allocator's input; regalloc2's per-instruction figures divide by the
//! instruction count of its SSA input (`ra2_instructions`).

use clap::Parser;
use regalloc_bench::corpus;
use regalloc_bench::csv::Table;

/// Command line.
#[derive(Parser, Debug)]
#[command(about = "Allocation time against function size: power-law fit and per-size table")]
struct Args {
    /// fast, basic, greedy or pbqp (the CSV `bench/run` wrote).
    #[arg(long, default_value = "greedy")]
    allocator: String,
    /// Fit over the functions of more than this many instructions.
    #[arg(long, default_value_t = 50)]
    min_insts: usize,
    /// How many of the largest and of our slowest functions to list.
    #[arg(long, default_value_t = 3)]
    largest: usize,
    /// bpf, x86_64, aarch64, hexagon.
    #[arg(required = true)]
    targets: Vec<String>,
}

/// One side's time for one function: (bucketing size, divisor size, microseconds).
#[derive(Clone, Copy)]
struct Point {
    size: f64,
    insts: f64,
    us: f64,
}

/// Least-squares slope and intercept of ln(us) over ln(size), points with a positive time.
fn fit(pts: &[Point]) -> Option<(f64, f64, usize)> {
    let xy: Vec<(f64, f64)> = pts
        .iter()
        .filter(|p| p.us > 0.0 && p.insts > 0.0)
        .map(|p| (p.insts.ln(), p.us.ln()))
        .collect();
    if xy.len() < 3 {
        return None;
    }
    let n = xy.len() as f64;
    let (sx, sy) = xy.iter().fold((0.0, 0.0), |(a, b), (x, y)| (a + x, b + y));
    let (mx, my) = (sx / n, sy / n);
    let (num, den) = xy.iter().fold((0.0, 0.0), |(a, b), (x, y)| {
        (a + (x - mx) * (y - my), b + (x - mx) * (x - mx))
    });
    (den > 0.0).then(|| {
        let b = num / den;
        (b, (my - b * mx).exp(), xy.len())
    })
}

const BUCKETS: &[(&str, f64, f64)] = &[
    ("<100", 0.0, 100.0),
    ("100-999", 100.0, 1000.0),
    ("1k-4999", 1000.0, 5000.0),
    ("5k+", 5000.0, f64::INFINITY),
];

fn main() {
    let args = Args::parse();
    let mut failed = false;
    for name in &args.targets {
        let Some(ct) = corpus::target(name) else {
            eprintln!("error: unknown target `{name}`");
            std::process::exit(2);
        };
        let path = corpus::out_dir()
            .join("run")
            .join(format!("{}-{}.csv", ct.dir, args.allocator));
        let table = match std::fs::read_to_string(&path)
            .map_err(|e| e.to_string())
            .and_then(|s| Table::from_text(&s))
        {
            Ok(t) => t,
            Err(e) => {
                eprintln!(
                    "error: {}: {e} (run bench/run --allocator {} --target {})",
                    path.display(),
                    args.allocator,
                    ct.dir
                );
                failed = true;
                continue;
            }
        };
        let col = |n: &str| table.col(n);
        let (Some(c_fn), Some(c_insts)) = (col("function"), col("instructions")) else {
            eprintln!("error: {}: no function/instructions column", path.display());
            failed = true;
            continue;
        };
        let num = |r: &Vec<String>, c: Option<usize>| -> Option<f64> {
            r.get(c?).and_then(|v| v.parse::<f64>().ok())
        };
        // (label, time column, status filter, instruction column for the divisor)
        type Filter = fn(&Table, &Vec<String>) -> bool;
        let ok_ours: Filter = |t, r| {
            t.col("ours_status")
                .and_then(|c| r.get(c))
                .is_some_and(|s| s == "ok")
        };
        let any: Filter = |_, _| true;
        // Ours whole (analyses and rewriter included) and its allocator
        // line (the passes LLVM's allocator pass holds; CSVs from before
        // the column have none); LLVM's allocator pass and every pass from
        // the scheduler to the rewriter.
        let sides: [(&str, &str, Filter, &str); 6] = [
            ("ours", "ours_time_us", ok_ours, "instructions"),
            ("ours line", "ours_alloc_line_us", ok_ours, "instructions"),
            ("LLVM", "llvm_alloc_us", any, "instructions"),
            ("LLVM all", "llvm_passes_us", any, "instructions"),
            ("ion", "ion_time_us", any, "ra2_instructions"),
            ("fastalloc", "fastalloc_time_us", any, "ra2_instructions"),
        ];
        let mut series: Vec<(&str, Vec<Point>)> = Vec::new();
        for (label, tcol, filter, icol) in sides {
            let pts: Vec<Point> = table
                .rows
                .iter()
                .filter(|r| r.len() >= table.header.len() && filter(&table, r))
                .filter_map(|r| {
                    Some(Point {
                        size: num(r, Some(c_insts))?,
                        insts: num(r, col(icol))?,
                        us: num(r, col(tcol))?,
                    })
                })
                .collect();
            if !pts.is_empty() {
                series.push((label, pts));
            }
        }
        let n_rows = table.rows.len();
        println!(
            "\n{} {}: {n_rows} functions in {}",
            ct.dir,
            args.allocator,
            path.display()
        );
        // Exponents.
        for (label, pts) in &series {
            let big: Vec<Point> = pts
                .iter()
                .copied()
                .filter(|p| p.size > args.min_insts as f64)
                .collect();
            match fit(&big) {
                Some((b, a, n)) => println!(
                    "  {label:<10} fit us = a * size^b over {n} functions of more than {} instructions: b = {b:.3} (a = {a:.3})",
                    args.min_insts
                ),
                None => println!("  {label:<10} too few functions for a fit"),
            }
        }
        // Table by size bucket.
        print!("  {:<10} {:>9} {:>12}", "size", "functions", "instructions");
        for (label, _) in &series {
            print!(" {:>14}", format!("{label} us/inst"));
        }
        println!();
        for &(bname, lo, hi) in BUCKETS {
            let in_b = |p: &Point| p.size >= lo && p.size < hi;
            let Some((_, first)) = series.first() else {
                break;
            };
            let nf = first.iter().filter(|p| in_b(p)).count();
            let ni = first
                .iter()
                .filter(|p| in_b(p))
                .fold(0.0, |a, p| a + p.size);
            print!("  {bname:<10} {nf:>9} {ni:>12.0}");
            for (_, pts) in &series {
                let (us, n): (f64, f64) = pts
                    .iter()
                    .filter(|p| in_b(p))
                    .fold((0.0, 0.0), |(a, b), p| (a + p.us, b + p.insts));
                if n > 0.0 {
                    print!(" {:>14.3}", us / n);
                } else {
                    print!(" {:>14}", "-");
                }
            }
            println!();
        }
        // Exponents in one line, for the table.
        print!("  {:<10} {:>9} {:>12}", "b (fit)", "", "");
        for (_, pts) in &series {
            let big: Vec<Point> = pts
                .iter()
                .copied()
                .filter(|p| p.size > args.min_insts as f64)
                .collect();
            match fit(&big) {
                Some((b, _, _)) => print!(" {b:>14.3}"),
                None => print!(" {:>14}", "-"),
            }
        }
        println!();
        // The largest functions.
        let mut idx: Vec<usize> = (0..n_rows)
            .filter(|&i| table.rows[i].len() >= table.header.len())
            .collect();
        idx.sort_by(|&a, &b| {
            let s = |i: usize| num(&table.rows[i], Some(c_insts)).unwrap_or(0.0);
            s(b).total_cmp(&s(a))
        });
        let mut slowest = idx.clone();
        slowest.sort_by(|&a, &b| {
            let s = |i: usize| num(&table.rows[i], col("ours_time_us")).unwrap_or(0.0);
            s(b).total_cmp(&s(a))
        });
        let listed = idx
            .iter()
            .take(args.largest)
            .map(|&i| ("largest", i))
            .chain(slowest.iter().take(args.largest).map(|&i| ("slowest", i)));
        for (what, i) in listed {
            let r = &table.rows[i];
            let ms =
                |c: &str| num(r, col(c)).map_or("-".to_string(), |v| format!("{:.2} ms", v / 1e3));
            println!(
                "  {what}: {} ({} instructions): ours {}, LLVM {}, ion {}, fastalloc {}",
                r[c_fn],
                r[c_insts],
                ms("ours_time_us"),
                ms("llvm_alloc_us"),
                ms("ion_time_us"),
                ms("fastalloc_time_us")
            );
        }
    }
    if failed {
        std::process::exit(1);
    }
}
