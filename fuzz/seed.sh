#!/bin/sh
# Seeds the (git-ignored) fuzz corpora: fuzz/corpus/tdgen_records from the conformance cases
# tests/tablegen/ok/*.td, fuzz/corpus/mir_read from the bundled BPF MIR files (each prefixed
# with the byte 0, which picks the BPF target).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
corpus="$here/corpus/tdgen_records"
mkdir -p "$corpus"
cp "$here"/../tests/tablegen/ok/*.td "$corpus"/
echo "seeded $(ls "$corpus" | wc -l) files into $corpus"
mir="$here/corpus/mir_read"
mkdir -p "$mir"
# One seed per function document (the IR module document is left out), so
# that each run allocates one function rather than a whole file.
for f in "$here"/../tests/mir/bpf/*.mir "$here"/../examples/bpf/*.mir; do
  awk -v out="$mir/$(basename "$f" .mir)" '
    /^---/ { n++; keep = ($0 !~ /^--- \|/); if (keep) { file = out "-" n ".mir"; printf "%c", 0 > file } }
    keep { print > file }
  ' "$f"
done
echo "seeded $(ls "$mir" | wc -l) files into $mir"
