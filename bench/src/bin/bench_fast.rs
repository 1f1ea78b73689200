//! `bench-fast`: the fast allocator alone over the -O0 corpus, in the modes of [`regalloc_bench::alloc_bench`] (dump, time, profile).

use regalloc::Allocator;
use regalloc_bench::alloc_bench::Bench;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    Bench {
        name: "bench-fast",
        allocator: Allocator::Fast,
        level: "O0",
        env: "BENCH_FAST",
    }
    .main();
}
