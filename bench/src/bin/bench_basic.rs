//! `bench-basic`: the basic allocator alone over the -O2 corpus, in the modes of [`regalloc_bench::alloc_bench`] (dump, time, profile).

use regalloc::Allocator;
use regalloc_bench::alloc_bench::Bench;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    Bench {
        name: "bench-basic",
        allocator: Allocator::Basic,
        level: "O2",
        env: "BENCH_BASIC",
    }
    .main();
}
