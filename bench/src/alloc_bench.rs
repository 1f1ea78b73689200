//! One allocator alone over one level of the corpus, for the `bench-fast` and `bench-greedy` binaries: a fingerprint of every allocated function and record (to show a speed change leaves the output byte-identical), the allocation time per instruction, and a callgrind profiling mode.
//!
//! ```text
//! NAME dump OUT [TARGET...]     # one line per function: target, module, function, hash of Debug(function, record)
//! NAME time [RUNS] [TARGET...]  # microseconds per 1,000 instructions: per function the best of RUNS (default 3)
//! NAME passes [RUNS] [TARGET...] # microseconds per 1,000 instructions per allocation pass (an AllocContext's pass times), mean of RUNS
//! NAME profile [TARGET...]      # allocate every function once between callgrind's start/stop-instrumentation requests
//! ```
//!
//! Environment, with `PREFIX` the binary's (`BENCH_FAST`, `BENCH_GREEDY`):
//! `PREFIX_ONLY=NAME` keeps only the functions of that name (every mode);
//! `PREFIX_COLD=1` evicts the caches before each timed function;
//! `PREFIX_TOP=N` lists the N slowest functions after `time`.
//!
//! Every file is read before anything is allocated, so `time` and
//! `profile` see the allocator only (`allocate_without_stats_with_context`: no
//! statistics, no checker); `dump` allocates the same way and hashes what a
//! caller gets back. Targets default to all four.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::io::Write;
use std::time::Instant;

use regalloc::ir::MachineFunction;
use regalloc::mir::{self, FunctionDoc};
use regalloc::{
    AllocContext, Allocator, Options, TargetContext, allocate_without_stats_with_context,
};

use crate::corpus::{self, CorpusTarget};

/// Which allocator a binary measures, on which corpus level.
#[derive(Copy, Clone, Debug)]
pub struct Bench {
    /// The binary's name, for the usage line.
    pub name: &'static str,
    /// The allocator.
    pub allocator: Allocator,
    /// The corpus level (`O0`, `O2`).
    pub level: &'static str,
    /// The prefix of the environment variables that tune it.
    pub env: &'static str,
}

impl Bench {
    fn var(&self, what: &str) -> Option<String> {
        std::env::var(format!("{}_{what}", self.env)).ok()
    }

    /// The functions of `ct` at this level: (module, function), only those
    /// named by `PREFIX_ONLY` when it is set.
    fn functions(&self, ct: &CorpusTarget) -> Vec<(String, MachineFunction)> {
        let only = self.var("ONLY");
        let mut out = Vec::new();
        for f in corpus::files(ct.dir, self.level) {
            let text = std::fs::read_to_string(&f.path).expect("corpus file");
            let file = mir::read(ct.info, &f.path.to_string_lossy(), &text);
            for doc in file.functions {
                if let FunctionDoc::Read(func) = doc
                    && only.as_ref().is_none_or(|n| *n == func.name)
                {
                    out.push((format!("{}/{}", f.lib, f.module), func));
                }
            }
        }
        out
    }

    /// Runs the mode the command line names.
    pub fn main(&self) {
        crate::keep_freed_memory();
        let options = Options {
            allocator: self.allocator,
            check: false,
        };
        let args: Vec<String> = std::env::args().skip(1).collect();
        match args.first().map(String::as_str) {
            Some("dump") => {
                let out = args.get(1).expect("dump OUT");
                let mut w =
                    std::io::BufWriter::new(std::fs::File::create(out).expect("create OUT"));
                let mut ctx = AllocContext::new();
                for ct in chosen(&args[2..]) {
                    let target = TargetContext::new(ct.info);
                    for (module, func) in self.functions(&ct) {
                        let mut g = func.clone();
                        let result = allocate_without_stats_with_context(
                            &target, &mut ctx, &mut g, &options,
                        );
                        // DefaultHasher::new() has fixed keys: the same text
                        // hashes the same in every run.
                        let mut h = DefaultHasher::new();
                        format!("{g:?}\n{result:?}").hash(&mut h);
                        writeln!(w, "{} {module} {} {:016x}", ct.dir, func.name, h.finish())
                            .expect("write");
                    }
                }
            }
            Some("time") => {
                let runs: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(3);
                let skip = if args.get(1).is_some_and(|s| s.parse::<usize>().is_ok()) {
                    2
                } else {
                    1
                };
                for ct in chosen(&args[skip..]) {
                    self.time(&ct, runs, &options);
                }
            }
            Some("passes") => {
                let runs: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(3);
                let skip = if args.get(1).is_some_and(|s| s.parse::<usize>().is_ok()) {
                    2
                } else {
                    1
                };
                for ct in chosen(&args[skip..]) {
                    self.passes(&ct, runs.max(1), &options);
                }
            }
            Some("profile") => {
                let mut ctx = AllocContext::new();
                for ct in chosen(&args[1..]) {
                    let mut copies: Vec<MachineFunction> =
                        self.functions(&ct).into_iter().map(|(_, f)| f).collect();
                    // Inside the measured stretch, as the tables were when
                    // the allocator made them on its first function.
                    callgrind::instrument(true);
                    let target = TargetContext::new(ct.info);
                    for g in &mut copies {
                        std::hint::black_box(
                            allocate_without_stats_with_context(&target, &mut ctx, g, &options)
                                .is_ok(),
                        );
                    }
                    callgrind::instrument(false);
                }
            }
            _ => eprintln!(
                "usage: {} dump OUT [TARGET...] | time [RUNS] [TARGET...] | passes [RUNS] [TARGET...] | profile [TARGET...]",
                self.name
            ),
        }
    }

    /// `passes` on one target: every function allocated `runs` times with
    /// pass timing on; per pass, the mean time per 1,000 instructions and
    /// its share of the whole.
    fn passes(&self, ct: &CorpusTarget, runs: usize, options: &Options) {
        use regalloc::timing::Pass;
        let funcs = self.functions(ct);
        let insts: usize = funcs.iter().map(|(_, f)| f.inst_ids().count()).sum();
        let target = TargetContext::new(ct.info);
        let mut ctx = AllocContext::new();
        ctx.set_time_passes(true);
        for _ in 0..runs {
            for (_, f) in &funcs {
                let mut g = f.clone();
                std::hint::black_box(
                    allocate_without_stats_with_context(&target, &mut ctx, &mut g, options).is_ok(),
                );
            }
        }
        let times = ctx.take_pass_times();
        let per_k = |d: std::time::Duration| d.as_secs_f64() * 1e9 / (runs * insts) as f64;
        let total = times.total();
        println!(
            "{} {} functions, {insts} instructions, mean of {runs} runs (us per 1k instructions; * in LLVM's allocator pass):",
            ct.dir,
            funcs.len()
        );
        for p in Pass::ALL {
            if times.runs(p) == 0 {
                continue;
            }
            println!(
                "  {:>9.1} {:>5.1}%  {} {}",
                per_k(times.get(p)),
                100.0 * times.get(p).as_secs_f64() / total.as_secs_f64().max(1e-12),
                if p.in_allocator_line() { '*' } else { ' ' },
                p.name()
            );
        }
        println!(
            "  {:>9.1}         allocator line",
            per_k(times.allocator_line())
        );
        println!("  {:>9.1}         total", per_k(total));
    }

    /// `time` on one target: per function the best of `runs`.
    fn time(&self, ct: &CorpusTarget, runs: usize, options: &Options) {
        let cold = self.var("COLD").is_some();
        let mut thrash = vec![0u8; if cold { 16 << 20 } else { 0 }];
        let funcs = self.functions(ct);
        let insts: usize = funcs.iter().map(|(_, f)| f.inst_ids().count()).sum();
        // Per function, the best of the runs (this machine is shared: a
        // minimum per function is steadier than one per run).
        let mut best = vec![f64::INFINITY; funcs.len()];
        let target = TargetContext::new(ct.info);
        let mut ctx = AllocContext::new();
        for _ in 0..runs {
            for (k, (_, f)) in funcs.iter().enumerate() {
                // Cloned right before the clock starts, as `bench-run`
                // does: the function's data is as warm as it is there.
                let mut g = f.clone();
                if cold {
                    // Evict the caches, as reading a file, llc and
                    // regalloc2 do between functions in bench-run.
                    for (i, b) in thrash.iter_mut().enumerate() {
                        *b = b.wrapping_add(i as u8);
                    }
                    std::hint::black_box(&thrash);
                }
                let start = Instant::now();
                let r = allocate_without_stats_with_context(&target, &mut ctx, &mut g, options);
                best[k] = best[k].min(start.elapsed().as_secs_f64());
                std::hint::black_box(&r);
            }
        }
        // The N functions taking longest, to find what grows faster than
        // the instruction count and where a profile should look.
        let top: usize = self.var("TOP").and_then(|s| s.parse().ok()).unwrap_or(0);
        let mut order: Vec<usize> = (0..funcs.len()).collect();
        order.sort_by(|&a, &b| best[b].total_cmp(&best[a]));
        for &k in order.iter().take(top) {
            let n = funcs[k].1.inst_ids().count();
            println!(
                "  {} {}: {n} instructions, {:.1} us ({:.1} us per 1k)",
                funcs[k].0,
                funcs[k].1.name,
                best[k] * 1e6,
                best[k] * 1e9 / n as f64
            );
        }
        let best: f64 = best.iter().sum();
        println!(
            "{:8} {} functions, {insts} instructions: {:.1} us per 1k instructions",
            ct.dir,
            funcs.len(),
            best * 1e9 / insts as f64
        );
    }
}

/// The targets named on the command line, all four when none is.
fn chosen(names: &[String]) -> Vec<CorpusTarget> {
    if names.is_empty() {
        corpus::targets().to_vec()
    } else {
        names
            .iter()
            .map(|n| corpus::target(n).unwrap_or_else(|| panic!("unknown target {n}")))
            .collect()
    }
}

/// Callgrind's start/stop-instrumentation client requests, so that a
/// profile (`valgrind --tool=callgrind --instr-atstart=no`) skips reading
/// the corpus, which takes far longer than allocating it.
mod callgrind {
    /// Turns instrumentation on or off; a no-op outside valgrind.
    #[cfg(target_arch = "x86_64")]
    pub fn instrument(on: bool) {
        // VG_USERREQ_TOOL_BASE('C', 'T') + 4 (start) or + 5 (stop).
        let req: u64 = 0x4354_0000 + if on { 4 } else { 5 };
        let args: [u64; 6] = [req, 0, 0, 0, 0, 0];
        // SAFETY: valgrind's client-request preamble: the four rotations
        // of rdi add up to 128 bits and `xchg rbx, rbx` does nothing, so
        // on a real CPU this changes no register; under valgrind it reads
        // `args` (through rax) and writes the result to rdx.
        unsafe {
            std::arch::asm!(
                "rol rdi, 3", "rol rdi, 13", "rol rdi, 61", "rol rdi, 51", "xchg rbx, rbx",
                inout("rdx") 0u64 => _,
                in("rax") args.as_ptr(),
                inout("rdi") 0u64 => _,
                options(nostack),
            );
        }
    }

    /// Elsewhere: nothing.
    #[cfg(not(target_arch = "x86_64"))]
    pub fn instrument(_on: bool) {}
}
