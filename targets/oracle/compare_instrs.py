#!/usr/bin/env python3
"""Hold the MCInstrDesc table that llvm-tblgen-19 -gen-instr-info makes of
targets/<t>/instrs.td (ours-instrs-<t>.json, from instrours.cpp) against the
one compiled into LLVM 19 (real-instrs-<t>.json, from instr19dump.cpp).

  compare_instrs.py REAL.json OURS.json [--opcodes FILE] [-v]

Every opcode present in OURS is checked (the standard pseudos of Target.td
included).  Core facts (must agree; exit 1 otherwise): number of operands and
defs, per operand the register class, TIED_TO and EARLY_CLOBBER, implicit defs
and uses (in order), and the flags the allocator reads.  Secondary facts
(reported, counted apart): operand types and operand flags, Size, the other
MCID flags.  --opcodes FILE (lines "count OPCODE") lists corpus opcodes that
OURS lacks.
"""
import json, sys

CORE_FLAGS = {"Rematerializable", "CheapAsAMove", "MoveImm", "Commutable",
              "ConvertibleTo3Addr", "Call", "Terminator", "Branch", "MayLoad",
              "MayStore", "MoveReg"}


def core(d):
    return {
        "num_operands": d["num_operands"], "num_defs": d["num_defs"],
        "operands": [(o["rc"], o["tied_to"], o["early_clobber"]) for o in d["operands"]],
        "implicit_defs": d["implicit_defs"], "implicit_uses": d["implicit_uses"],
        "flags": sorted(set(d["flags"]) & CORE_FLAGS),
    }


def secondary(d):
    return {
        "operand_types": [(o["type"], o["flags"]) for o in d["operands"]],
        "size": d["size"],
        "other_flags": sorted(set(d["flags"]) - CORE_FLAGS),
    }


def diff(a, b):
    return ["%s: llvm %s, ours %s" % (k, a[k], b[k]) for k in a if a[k] != b[k]]


def main():
    args = sys.argv[1:]
    verbose = "-v" in args
    args = [a for a in args if a != "-v"]
    opfile = None
    if "--opcodes" in args:
        i = args.index("--opcodes")
        opfile = args[i + 1]
        del args[i:i + 2]
    real, ours = (json.load(open(p)) for p in args[:2])
    checked = core_bad = sec_bad = 0
    for name in sorted(ours):
        if name.startswith("G_"):
            continue   # generic (GlobalISel) opcodes never reach the allocator
        checked += 1
        if name not in real:
            core_bad += 1
            print("CORE %s: not an LLVM 19 opcode" % name)
            continue
        c = diff(core(real[name]), core(ours[name]))
        s = diff(secondary(real[name]), secondary(ours[name]))
        if c:
            core_bad += 1
            print("CORE %s: %s" % (name, "; ".join(c)))
        if s:
            sec_bad += 1
            if verbose or not c:
                print("note %s: %s" % (name, "; ".join(s)))
    missing = []
    if opfile:
        for line in open(opfile):
            parts = line.split()
            if parts and parts[-1] not in ours:
                missing.append(parts[-1])
        for m in missing:
            print("MISSING %s (in corpus, not described)" % m)
    print("checked %d opcodes: %d core mismatches, %d secondary differences%s" %
          (checked, core_bad, sec_bad,
           ", %d corpus opcodes missing" % len(missing) if opfile else ""))
    return 1 if core_bad or missing else 0


if __name__ == "__main__":
    sys.exit(main())
