#!/usr/bin/env python3
"""Print a compact one-line summary of MCInstrDesc facts for opcodes.
   digest.py real-instrs-<t>.json [OPCODE|@file-with-opcodes ...]"""
import json, sys
TYPES = {0: "unk", 1: "imm", 2: "reg", 3: "mem", 4: "pcrel"}
SHOWN = {"Rematerializable", "CheapAsAMove", "MoveImm", "Commutable", "ConvertibleTo3Addr",
         "Call", "Terminator", "Branch", "MayLoad", "MayStore", "MoveReg", "Return", "Barrier",
         "UnmodeledSideEffects", "Pseudo", "Compare", "Select", "Predicable", "IndirectBranch",
         "Variadic", "Bitcast", "Add"}
def fmt(name, d):
    ops = []
    for i, o in enumerate(d["operands"]):
        s = (o["rc"] or TYPES.get(o["type"], "t%d" % o["type"]))
        if o["rc"] and o["type"] != 2: s += "/" + TYPES.get(o["type"], "t%d" % o["type"])
        if o["tied_to"] >= 0: s += "=%d" % o["tied_to"]
        if o["early_clobber"]: s += "!ec"
        if o["flags"]: s += "#f%d" % o["flags"]
        ops.append(s)
    out = ",".join(ops[:d["num_defs"]]) + " <- " + ",".join(ops[d["num_defs"]:])
    extra = ""
    if d["implicit_defs"]: extra += " D[" + " ".join(d["implicit_defs"]) + "]"
    if d["implicit_uses"]: extra += " U[" + " ".join(d["implicit_uses"]) + "]"
    fl = [f for f in d["flags"] if f in SHOWN]
    return "%-22s %s%s  {%s} sz%d" % (name, out, extra, " ".join(fl), d["size"])
if __name__ == "__main__":
    db = json.load(open(sys.argv[1]))
    names = []
    for a in sys.argv[2:]:
        if a.startswith("@"):
            names += [l.split()[-1] for l in open(a[1:]) if l.strip()]
        else:
            names.append(a)
    for n in names or sorted(db):
        print(fmt(n, db[n]) if n in db else n + "  ??? not in LLVM")
