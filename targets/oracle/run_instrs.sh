#!/bin/sh
# Check targets/<t>/instrs.td against LLVM 19's own instruction descriptions.
#
#   targets/oracle/run_instrs.sh [bpf aarch64 x86 hexagon]
#
# Per target: llvm-tblgen-19 -gen-instr-info / -gen-register-info on
# <t>-instrs-top.td (must accept the file), compile the generated tables into
# instrours.cpp and dump them; dump LLVM 19's compiled-in MCInstrInfo with
# instr19dump.cpp; compare_instrs.py compares the two (and lists corpus
# opcodes not described).  Outputs in $OUT (default /tmp/instrfacts).
# Exit status 0 iff no core mismatch and no corpus opcode is missing.
set -e
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
O=$ROOT/targets/oracle
OUT=${OUT:-/tmp/instrfacts}
INC=$(llvm-config-19 --includedir)
CXX="nice -n 10 clang++-19 -O0 -std=c++17 $(llvm-config-19 --cxxflags) -I $O"
LIBS="$(llvm-config-19 --ldflags --libs)"
mkdir -p "$OUT"
if [ ! -x "$OUT/instr19dump" ] || [ "$O/instr19dump.cpp" -nt "$OUT/instr19dump" ] || [ "$O/instrdump.h" -nt "$OUT/instr19dump" ]; then
  $CXX "$O/instr19dump.cpp" $LIBS -o "$OUT/instr19dump"
fi
status=0
for t in ${*:-bpf aarch64 x86 hexagon}; do
  case $t in
    bpf) NS=BPF; TRIPLE=bpf ;;
    aarch64) NS=AArch64; TRIPLE=aarch64-linux-gnu ;;
    x86) NS=X86; TRIPLE=x86_64-linux-gnu; CORPUS=x86_64 ;;
    hexagon) NS=Hexagon; TRIPLE=hexagon-unknown-linux-musl ;;
    *) echo "unknown target $t" >&2; exit 2 ;;
  esac
  echo "== $t"
  if [ ! -f "$ROOT/targets/$t/instrs.td" ]; then echo "no targets/$t/instrs.td"; status=1; continue; fi
  top="$O/$t-instrs-top.td"
  llvm-tblgen-19 -gen-instr-info -I "$INC" -I "$ROOT/targets/$t" "$top" -o "$OUT/${NS}Instr.inc"
  llvm-tblgen-19 -gen-register-info -I "$INC" -I "$ROOT/targets/$t" "$top" -o "$OUT/${NS}Reg.inc"
  $CXX -I "$OUT" -DNS=$NS "-DREGINC=\"${NS}Reg.inc\"" "-DINSTRINC=\"${NS}Instr.inc\"" \
    "$O/instrours.cpp" $LIBS -o "$OUT/ours-$t"
  "$OUT/ours-$t" > "$OUT/ours-instrs-$t.json"
  [ -s "$OUT/real-instrs-$t.json" ] || "$OUT/instr19dump" $TRIPLE > "$OUT/real-instrs-$t.json"
  python3 "$O/coverage.py" --list "$t" > "$OUT/corpus-opcodes-$t.txt"
  python3 "$O/compare_instrs.py" "$OUT/real-instrs-$t.json" "$OUT/ours-instrs-$t.json" \
    --opcodes "$OUT/corpus-opcodes-$t.txt" || status=1
done
exit $status
