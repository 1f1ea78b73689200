#!/bin/sh
# Regenerate the register facts of targets/<t>/registers.td with llvm-tblgen-19
# and hold them against the register file compiled into LLVM 19 itself.
#
#   targets/oracle/run.sh [bpf aarch64 x86 hexagon]      (from anywhere)
#
# Outputs go to $OUT (default /tmp/regfacts): <NS>.inc, <NS>.json,
# facts-<t>.json (ours), real-<t>[-mode].json and extra-<t>.json (LLVM's).
# Needs llvm-19, clang-19 and llvm-19-dev (headers, libLLVM-19.so and the
# static archives, whose local symbols hold the alternative orders and
# callee-saved save lists).
set -e
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-/tmp/regfacts}
FACTS=${FACTS:-/work/shared/oracle/facts.py}
INC=$(llvm-config-19 --includedir)
LIB=$(llvm-config-19 --libdir)
mkdir -p "$OUT"

if [ ! -x "$OUT/llvm19dump" ] || [ "$ROOT/targets/oracle/llvm19dump.cpp" -nt "$OUT/llvm19dump" ]; then
  nice -n 10 clang++-19 -O1 -std=c++17 $(llvm-config-19 --cxxflags) \
    "$ROOT/targets/oracle/llvm19dump.cpp" $(llvm-config-19 --ldflags --libs) -o "$OUT/llvm19dump"
fi

status=0
for t in ${*:-bpf aarch64 x86 hexagon}; do
  case $t in
    bpf)     NS=BPF;     ARCHIVE=BPF;     set -- "bpf v3 '' Default" ;;
    aarch64) NS=AArch64; ARCHIVE=AArch64; set -- "aarch64-linux-gnu '' '' Default" ;;
    x86)     NS=X86;     ARCHIVE=X86;     set -- "x86_64-linux-gnu '' '' Default" ;;
    hexagon) NS=Hexagon; ARCHIVE=Hexagon
             set -- "hexagon-unknown-linux-musl '' '' Default" \
                    "hexagon-unknown-linux-musl hexagonv68 +hvxv68,+hvx-length64b Hvx64" \
                    "hexagon-unknown-linux-musl hexagonv68 +hvxv68,+hvx-length128b Hvx128" ;;
    *) echo "unknown target $t" >&2; exit 2 ;;
  esac
  echo "== $t"
  top="$ROOT/targets/oracle/$t-top.td"
  llvm-tblgen-19 -gen-register-info -I "$INC" -I "$ROOT/targets/$t" "$top" -o "$OUT/$NS.inc"
  llvm-tblgen-19 -dump-json -I "$INC" -I "$ROOT/targets/$t" "$top" > "$OUT/$NS.json"
  python3 "$FACTS" "$NS" "$OUT/$NS.inc" "$OUT/$NS.json" --self-check > "$OUT/facts-$t.json"
  reals=""
  for spec in "$@"; do
    eval "set -- $spec"
    f="$OUT/real-$t-$4.json"
    "$OUT/llvm19dump" "$1" "$2" "$3" "$4" > "$f"
    reals="$reals $f"
  done
  first=${reals# }; first=${first%% *}
  python3 "$ROOT/targets/oracle/extract.py" "$LIB/libLLVM${ARCHIVE}CodeGen.a" "$first" > "$OUT/extra-$t.json"
  python3 "$ROOT/targets/oracle/compare.py" --inc "$OUT/$NS.inc" "$OUT/facts-$t.json" \
    "$OUT/extra-$t.json" $reals || status=1
done
exit $status
