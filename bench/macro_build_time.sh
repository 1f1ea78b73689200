#!/usr/bin/env bash
# The time the regalloc! macro adds to building a crate that uses it, for the
# largest target (AArch64 by default; `bench/macro_build_time.sh x86` for another).
#
# Builds a throwaway crate twice per round, after its dependencies are built
# once (not timed): without the macro call (a plain `fn main`) and with
# `regalloc::regalloc!("<t>.td")`. The difference is the macro's cost: tdgen
# reading and evaluating the .td files, the target model, the tables as
# tokens, and rustc compiling the generated statics.
#
# Usage: bench/macro_build_time.sh [target] [rounds]   (env PROFILE=release for --release)
set -euo pipefail
t=${1:-aarch64}
rounds=${2:-3}
root=$(cd "$(dirname "$0")/.." && pwd)
work=${BENCH_DIR:-/tmp/regalloc-macro-bench}
export CARGO_TARGET_DIR=${BENCH_TARGET_DIR:-$work/target}
profile_flag=()
[[ ${PROFILE:-dev} == release ]] && profile_flag=(--release)
mkdir -p "$work/crate/src"
cat > "$work/crate/Cargo.toml" <<TOML
[package]
name = "macro-bench"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
regalloc = { path = "$root/regalloc" }

[workspace]
TOML
without='fn main() { println!("no tables"); }'
with="mod t { regalloc::regalloc!(\"$root/targets/$t/$t.td\"); }
fn main() { println!(\"{} registers\", t::TARGET.num_regs()); }"
# Warm-up: dependencies (regalloc, tdgen inside the proc-macro) built once, not timed.
echo "$with" > "$work/crate/src/main.rs"
(cd "$work/crate" && cargo build -q "${profile_flag[@]}")
now() { date +%s.%N; }
build() { # $1: source text; prints seconds
  echo "$1" > "$work/crate/src/main.rs"
  local s; s=$(now)
  (cd "$work/crate" && cargo build -q "${profile_flag[@]}")
  echo "$(now) - $s" | bc
}
printf 'target %s, profile %s, %s rounds\n' "$t" "${PROFILE:-dev}" "$rounds"
printf '%-8s %12s %12s %12s\n' round without with added
for r in $(seq 1 "$rounds"); do
  a=$(build "$without"); b=$(build "$with")
  printf '%-8s %11.2fs %11.2fs %11.2fs\n' "$r" "$a" "$b" "$(echo "$b - $a" | bc)"
done
