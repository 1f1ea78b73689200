//! Property test: random valid functions for each of the four targets (classes, sub-registers, fixed registers, calls with register masks, tied operands, loops) go through the Fast, Basic and Greedy allocators with the checker, without a failure.
//!
//! `ALLOC_SEED` fixes the run's seed (printed), `ALLOC_CASES` the number of
//! functions (default 1000, spread over the targets); each function is
//! allocated by all three allocators. A failure prints the seed, the case and
//! the function as MIR.

use regalloc::target::TargetInfo;
use regalloc::{Allocator, Options, allocate};
use regalloc_tests::random_functions::{Palette, generate};
use regalloc_tests::regs_gen::{Rng, case_seed};

fn run_seed() -> u64 {
    match std::env::var("ALLOC_SEED") {
        Ok(s) => s.trim().parse().expect("ALLOC_SEED is a number"),
        Err(_) => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64 % 1_000_000_007),
    }
}

#[test]
fn random_functions_allocate_and_check_on_every_target() {
    let seed = run_seed();
    let cases: u64 = std::env::var("ALLOC_CASES")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(1000);
    println!("random functions: seed {seed} (ALLOC_SEED={seed} reproduces), {cases} cases");
    let targets: [(&str, &TargetInfo<'static>); 4] = [
        ("bpf", &regalloc_targets::bpf::TARGET),
        ("x86", &regalloc_targets::x86::TARGET),
        ("aarch64", &regalloc_targets::aarch64::TARGET),
        ("hexagon", &regalloc_targets::hexagon::TARGET),
    ];
    let palettes: Vec<Palette> = targets.iter().map(|(_, t)| Palette::new(t)).collect();
    for ((name, t), p) in targets.iter().zip(&palettes) {
        println!(
            "{name}: {} classes, {} instructions, call {}, {} sub-register copies to draw from",
            p.classes.len(),
            p.instrs.len(),
            p.call
                .map_or("none".to_string(), |c| t.instr(c).name.to_string()),
            p.subs.len()
        );
    }
    if let Ok(show) = std::env::var("ALLOC_SHOW") {
        let k: usize = show.trim().parse().unwrap_or(0) % 4;
        let f = generate(targets[k].1, &palettes[k], case_seed(seed, 0), 12);
        println!("{}", regalloc::mir::write_function(targets[k].1, &f));
    }
    let mut failures = Vec::new();
    let mut counts = [[0u64; 3]; 4];
    let mut insts = [0usize; 4];
    let mut spills = [[0u64; 3]; 4];
    for case in 0..cases {
        let k = (case % 4) as usize;
        let (name, t) = targets[k];
        let p = &palettes[k];
        assert!(
            p.usable(),
            "{name}: the generator finds classes and instructions"
        );
        let s = case_seed(seed, case);
        let size = Rng::new(s ^ 0x5eed).range(4, 40);
        let f = generate(t, p, s, size);
        insts[k] += f.insts.len();
        for (a, allocator) in [Allocator::Fast, Allocator::Basic, Allocator::Greedy]
            .into_iter()
            .enumerate()
        {
            let mut g = f.clone();
            let options = Options {
                allocator,
                check: true,
            };
            match allocate(t, &mut g, &options) {
                Ok(stats) => {
                    counts[k][a] += 1;
                    spills[k][a] += stats.spills + stats.remats;
                }
                Err(e) => failures.push(format!(
                    "{name} case {case} ({}): {e}\n{}",
                    allocator.name(),
                    regalloc::mir::write_function(t, &f)
                )),
            }
        }
    }
    for (k, (name, _)) in targets.iter().enumerate() {
        let n = (cases / 4) + u64::from((cases % 4) as usize > k);
        println!(
            "{name}: fast {}/{n} allocated and checked, basic {}/{n} allocated and checked, greedy {}/{n} allocated and checked ({} instructions; spills and remats: fast {}, basic {}, greedy {})",
            counts[k][0],
            counts[k][1],
            counts[k][2],
            insts[k],
            spills[k][0],
            spills[k][1],
            spills[k][2]
        );
    }
    for f in failures.iter().take(3) {
        println!("{f}");
    }
    assert!(
        failures.is_empty(),
        "{} of {} allocations failed (seed {seed}; see above)",
        failures.len(),
        cases * 3
    );
}
