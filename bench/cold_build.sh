#!/usr/bin/env bash
# Cold build time of a backend crate that uses the regalloc! macro (the
# tutorial's Toy target, docs/toy/toy.td), beside a crate that depends on
# regalloc2 alone, measured one after the other in the same run (the
# figure to report is the ratio: these machines are noisy).
#
# Each crate is built from nothing (its own empty target directory; the
# crates' sources come from the local cargo registry, so no network), in
# the dev profile, as `cargo build` would first build it for a user.
#
# Usage: bench/cold_build.sh [rounds]
set -euo pipefail
rounds=${1:-1}
root=$(cd "$(dirname "$0")/.." && pwd)
work=${BENCH_DIR:-/tmp/regalloc-cold-build}
rm -rf "$work"
mkdir -p "$work/backend/src" "$work/ra2/src"
cat > "$work/backend/Cargo.toml" <<TOML
[package]
name = "toy-backend"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
regalloc = { path = "$root/regalloc" }

[workspace]
TOML
cat > "$work/backend/src/main.rs" <<RS
mod toy {
    regalloc::regalloc!("$root/docs/toy/toy.td");
}
fn main() {
    println!("{} registers", toy::TARGET.num_regs());
}
RS
cat > "$work/ra2/Cargo.toml" <<TOML
[package]
name = "ra2-only"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
regalloc2 = "0.15.2"

[workspace]
TOML
cat > "$work/ra2/src/main.rs" <<'RS'
fn main() {
    let r = regalloc2::PReg::new(3, regalloc2::RegClass::Int);
    println!("{r:?}");
}
RS
now() { date +%s.%N; }
cold() { # $1: crate directory; prints seconds
    rm -rf "$1/target"
    local t0 t1
    t0=$(now)
    (cd "$1" && CARGO_TARGET_DIR="$1/target" cargo build -q --offline)
    t1=$(now)
    echo "$t1 - $t0" | bc
}
for ((k = 1; k <= rounds; k++)); do
    a=$(cold "$work/backend")
    b=$(cold "$work/ra2")
    printf 'round %d: regalloc! backend %.1f s, regalloc2 alone %.1f s, ratio %.1fx\n' \
        "$k" "$a" "$b" "$(echo "$a / $b" | bc -l)"
done
