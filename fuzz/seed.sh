#!/bin/sh
# Seeds the (git-ignored) fuzz corpus fuzz/corpus/tdgen_records from the conformance cases tests/tablegen/ok/*.td.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
corpus="$here/corpus/tdgen_records"
mkdir -p "$corpus"
cp "$here"/../tests/tablegen/ok/*.td "$corpus"/
echo "seeded $(ls "$corpus" | wc -l) files into $corpus"
