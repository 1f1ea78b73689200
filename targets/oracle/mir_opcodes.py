#!/usr/bin/env python3
"""Count opcodes in LLVM MIR bodies.

Library + CLI:  mir_opcodes.py DIR...   prints "count opcode" lines (most used first).
An instruction line in a `body: |` block is
  [defs =] [flags] OPCODE operands...
where defs start with % or $ (possibly after dead/undef/early-clobber/...).
"""
import os, re, sys
from collections import Counter

FLAGS = {"frame-setup", "frame-destroy", "nnan", "ninf", "nsz", "arcp", "contract",
         "afn", "reassoc", "nuw", "nsw", "exact", "nofpexcept", "unpredictable",
         "noconvergent", "nneg", "disjoint", "samesign", "noconvergent"}
DEFSTART = re.compile(r"^(?:early-clobber |dead |undef |renamable |internal |implicit-def |implicit |def |killed )*[%$]")
OPC = re.compile(r"^[A-Za-z_][A-Za-z0-9_.]*$")


def opcodes_of_file(path, counter):
    in_body = False
    body_indent = None
    with open(path, errors="replace") as f:
        for line in f:
            if not in_body:
                if line.startswith("body:"):
                    in_body = True
                continue
            if line.startswith("...") or line.startswith("---"):
                in_body = False
                continue
            s = line.strip()
            if not s or s.startswith(";") or s.startswith("bb.") or s.startswith("successors:") \
               or s.startswith("liveins:") or s == "}" or s.startswith("{"):
                continue
            if s.startswith("}"):
                continue
            if DEFSTART.match(s):
                i = s.find(" = ")
                if i < 0:
                    continue
                s = s[i + 3:]
            toks = s.split()
            j = 0
            while j < len(toks) and toks[j] in FLAGS:
                j += 1
            if j < len(toks):
                op = toks[j].rstrip(",")
                if OPC.match(op):
                    counter[op] += 1


def corpus_opcodes(root, levels=("O2", "O0", "ssa")):
    c = Counter()
    for lvl in levels:
        d = os.path.join(root, lvl)
        for dp, _, fs in os.walk(d):
            for fn in fs:
                if fn.endswith(".mir"):
                    opcodes_of_file(os.path.join(dp, fn), c)
    return c


if __name__ == "__main__":
    c = Counter()
    for d in sys.argv[1:]:
        if os.path.isdir(d):
            for dp, _, fs in os.walk(d):
                for fn in fs:
                    if fn.endswith(".mir"):
                        opcodes_of_file(os.path.join(dp, fn), c)
        else:
            opcodes_of_file(d, c)
    for op, n in c.most_common():
        print(n, op)
