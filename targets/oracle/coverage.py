#!/usr/bin/env python3
"""Opcode coverage of targets/<t>/instrs.td over the MIR corpus.

  coverage.py [t ...]          per target: opcodes N/N (instructions covered N/N)
  coverage.py --list t         "count OPCODE" lines of the corpus (all levels)

The corpus is bench/out/corpus/<t>/{O2,O0,ssa}/**/*.mir; opcodes are counted
from the function bodies (mir_opcodes.py).  An opcode is described when
llvm-tblgen-19 -dump-json on targets/oracle/<t>-instrs-top.td has an
Instruction record of that name: a def of instrs.td, or one of Target.td's
standard pseudos (COPY, PHI, SUBREG_TO_REG, ...), which are listed apart.
Corpus counts are cached in $OUT (default /tmp/instrfacts).
"""
import json, os, subprocess, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mir_opcodes import corpus_opcodes

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUT = os.environ.get("OUT", "/tmp/instrfacts")
TARGETS = ["bpf", "aarch64", "x86", "hexagon"]
CORPUS_DIR = {"x86": "x86_64"}


def corpus(t):
    d = os.path.join(ROOT, "bench", "out", "corpus", CORPUS_DIR.get(t, t))
    stamp = os.path.getmtime(os.path.join(ROOT, "bench", "out", "corpus", "manifest.csv"))
    cache = os.path.join(OUT, "corpus-%s.json" % t)
    if os.path.exists(cache):
        c = json.load(open(cache))
        if c.get("stamp") == stamp:
            return c["opcodes"]
    ops = dict(corpus_opcodes(d))
    os.makedirs(OUT, exist_ok=True)
    json.dump({"stamp": stamp, "opcodes": ops}, open(cache, "w"))
    return ops


def described(t):
    """(target opcodes, standard pseudos) defined by the top file, or None."""
    if not os.path.exists(os.path.join(ROOT, "targets", t, "instrs.td")):
        return None
    inc = subprocess.check_output(["llvm-config-19", "--includedir"], text=True).strip()
    js = subprocess.check_output(
        ["llvm-tblgen-19", "-dump-json", "-I", inc, "-I", os.path.join(ROOT, "targets", t),
         os.path.join(ROOT, "targets", "oracle", "%s-instrs-top.td" % t)], text=True)
    recs = json.loads(js)
    names = recs["!instanceof"]["Instruction"]
    std = set(recs["!instanceof"].get("StandardPseudoInstruction", []))
    generic = {n for n in names if recs[n].get("Namespace") == "TargetOpcode"}
    return set(names) - std - generic, std | generic


def main():
    args = sys.argv[1:]
    if args and args[0] == "--list":
        for op, n in sorted(corpus(args[1]).items(), key=lambda x: (-x[1], x[0])):
            print(n, op)
        return 0
    status = 0
    for t in args or TARGETS:
        ops = corpus(t)
        total = sum(ops.values())
        d = described(t)
        if d is None:
            print("%-8s opcodes 0/%d (instructions covered 0/%d)  [no instrs.td]" % (t, len(ops), total))
            status = 1
            continue
        mine, std = d
        cov = [o for o in ops if o in mine or o in std]
        n_std = sum(1 for o in ops if o in std)
        print("%-8s opcodes %d/%d (instructions covered %d/%d)  [%d of them Target.td pseudos; instrs.td defines %d opcodes]"
              % (t, len(cov), len(ops), sum(ops[o] for o in cov), total, n_std, len(mine)))
        miss = sorted((o for o in ops if o not in cov), key=lambda o: -ops[o])
        if miss:
            status = 1
            print("   missing: " + " ".join("%s(%d)" % (o, ops[o]) for o in miss[:40])
                  + (" ..." if len(miss) > 40 else ""))
    return status


if __name__ == "__main__":
    sys.exit(main())
