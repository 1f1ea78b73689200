#!/usr/bin/env python3
"""Hold the facts of our registers.td (facts.py over llvm-tblgen-19 output)
against the register file compiled into real LLVM 19 (llvm19dump + extract.py).

usage: compare.py [--inc T.inc] facts-T.json extra-T.json real-T[-mode].json [real-T-mode2.json ...]

With --inc (our llvm-tblgen -gen-register-info output), DWARF numbers
(flavour 0, debug and EH, after DwarfRegAlias resolution) are compared too.
Assembly names are compared for every register that has a record (tuples
have none).

Prints one line per differing fact (capped per category) and a summary; exit
status 1 if anything differs.  Facts that only the real side has at run time
(pressure-set limits may be adjusted by the target's C++) are reported as
notes, not differences.
"""
import json
import sys

CAP = 12

# Answers that come from a target's hand-written C++ rather than from the
# register description, so no .td file can reproduce them.  Reported as
# notes.  (namespace, class) -> {sub-register index: class}.
CPP_OVERRIDES = {
    # AArch64RegisterInfo::getSubClassWithSubReg: "edge case for GPR/FPR
    # register classes".
    ("AArch64", "GPR32all"): {"hsub": "FPR32"},
    ("AArch64", "GPR64all"): {"hsub": "FPR64"},
}


def vt(s):
    return s.split("|")[0].lower()


def dwarf_table(inc, which):
    import re
    m = re.search(r"DwarfLLVMRegPair \w+%sFlavour0L2Dwarf\[\] = \{\n(.*?)\n\};" % which, inc, re.S)
    return {r: int(n) for r, n in re.findall(r"\{ \w+::(\w+), (-?\d+)U \}", m.group(1))} if m else {}


def main(argv):
    inc = None
    if len(argv) > 2 and argv[1] == "--inc":
        inc = open(argv[2]).read()
        argv = argv[:1] + argv[3:]
    ours = json.load(open(argv[1]))
    extra = json.load(open(argv[2]))
    reals = [json.load(open(p)) for p in argv[3:]]
    real = reals[0]
    diffs = {}

    def diff(cat, msg):
        diffs.setdefault(cat, []).append(msg)

    # counts
    for k in ("registers", "register_units", "register_classes", "subreg_indices", "pressure_sets"):
        if ours["counts"][k] != real["counts"][k]:
            diff("counts", "%s: ours %s, llvm %s" % (k, ours["counts"][k], real["counts"][k]))

    # sub-register indices
    on = [s["name"] for s in ours["subreg_indices"]]
    rn = [s["name"] for s in real["subreg_indices"]]
    if on != rn:
        diff("subreg_order", "missing %s extra %s" % (sorted(set(rn) - set(on)), sorted(set(on) - set(rn))))
        if set(on) == set(rn):
            diff("subreg_order", "same set, different order")
    om = {s["name"]: s for s in ours["subreg_indices"]}
    for s in real["subreg_indices"]:
        o = om.get(s["name"])
        if not o:
            continue
        if o["lane_mask"] != s["lane_mask"]:
            diff("subreg_lanemask", "%s ours %s llvm %s" % (s["name"], o["lane_mask"], s["lane_mask"]))
        rng = o["range_by_mode"].get(real["mode"]) or o["range_by_mode"].get("Default")
        if rng and (rng["offset"] & 0xFFFF, rng["size"] & 0xFFFF) != (s["offset"] & 0xFFFF, s["size"] & 0xFFFF):
            diff("subreg_range", "%s ours %s llvm %s" % (s["name"], rng, (s["offset"], s["size"])))

    # registers
    on = [r["name"] for r in ours["registers"]]
    rn = [r["name"] for r in real["registers"]]
    if on != rn:
        miss, ext = [x for x in rn if x not in set(on)], [x for x in on if x not in set(rn)]
        diff("register_set", "missing %d %s ... extra %d %s ..." % (len(miss), miss[:20], len(ext), ext[:20]))
        if not miss and not ext:
            first = next(i for i, (a, b) in enumerate(zip(on, rn)) if a != b)
            diff("register_order", "first difference at enum %d: ours %s llvm %s" % (first + 1, on[first], rn[first]))
    orr = {r["name"]: r for r in ours["registers"]}
    for r in real["registers"]:
        o = orr.get(r["name"])
        if not o:
            continue
        for k in ("subregs", "super_regs", "units", "unit_lane_masks", "is_constant", "in_allocatable_class"):
            if o[k] != r[k]:
                diff("reg_" + k, "%s ours %s llvm %s" % (r["name"], o[k], r[k]))
        if o["cost_per_use"][0] != r["cost_per_use"]:
            diff("reg_cost_per_use", "%s ours %s llvm %s" % (r["name"], o["cost_per_use"], r["cost_per_use"]))
        if o.get("hw_encoding") is not None and o["hw_encoding"] != r["encoding"]:
            diff("reg_encoding", "%s ours %s llvm %s" % (r["name"], o["hw_encoding"], r["encoding"]))

        # An empty AsmName prints as the record name.
        if o.get("asm_name") is not None and r.get("asm") and (o["asm_name"] or r["name"]) != r["asm"]:
            diff("reg_asm_name", "%s ours %s llvm %s" % (r["name"], o["asm_name"], r.get("asm")))
    if inc is not None:
        for which, key in (("Dwarf", "dwarf"), ("EH", "dwarf_eh")):
            tab = dwarf_table(inc, which)
            for r in real["registers"]:
                if r["name"] in orr and tab.get(r["name"], -1) != r.get(key, -1):
                    diff("reg_" + key, "%s ours %s llvm %s" % (r["name"], tab.get(r["name"], -1), r.get(key)))

    # units
    if len(ours["register_units"]) == len(real["register_units"]):
        for a, b in zip(ours["register_units"], real["register_units"]):
            if a["roots"] != b["roots"]:
                diff("unit_roots", "unit %d ours %s llvm %s" % (a["unit"], a["roots"], b["roots"]))
            if a["weight"] != b["weight"]:
                diff("unit_weight", "unit %d ours %s llvm %s" % (a["unit"], a["weight"], b["weight"]))

    # classes
    on = [c["name"] for c in ours["register_classes"]]
    rn = [c["name"] for c in real["register_classes"]]
    if on != rn:
        miss, ext = [x for x in rn if x not in set(on)], [x for x in on if x not in set(rn)]
        diff("class_set", "missing %d %s extra %d %s" % (len(miss), miss, len(ext), ext))
        if not miss and not ext:
            first = next(i for i, (a, b) in enumerate(zip(on, rn)) if a != b)
            diff("class_order", "first difference at id %d: ours %s llvm %s" % (first, on[first], rn[first]))
    oc = {c["name"]: c for c in ours["register_classes"]}
    notes = []
    for c in real["register_classes"]:
        o = oc.get(c["name"])
        if not o:
            continue
        n = c["name"]
        for k in ("members", "order", "copy_cost", "allocatable", "base_class", "allocation_priority", "global_priority",
                  "tsflags", "has_disjunct_subregs", "covered_by_subregs", "lane_mask", "sub_classes",
                  "super_classes", "sub_class_with_subreg", "sub_register_class", "weight"):
            a, b = o.get(k), c.get(k)
            if k == "sub_class_with_subreg" and (ours["namespace"], n) in CPP_OVERRIDES:
                extra_cpp = CPP_OVERRIDES[(ours["namespace"], n)]
                b = {i: x for i, x in b.items() if extra_cpp.get(i) != x}
                notes.append("%s.getSubClassWithSubReg: C++ override %s not modelled" % (n, extra_cpp))
            if k in ("sub_classes",):
                a, b = sorted(a), sorted(b)
            if a != b:
                diff("class_" + k, "%s ours %s llvm %s" % (n, a, b))
        alts = extra["alt_orders"].get(n, [])
        if o["alt_orders"] != alts:
            diff("class_alt_orders", "%s ours %s llvm %s" % (n, o["alt_orders"], alts))
        for rr in reals:
            mode = rr["mode"]
            rc = next(x for x in rr["register_classes"] if x["name"] == n)
            want = dict(rc["by_mode"][mode])
            want["value_types"] = [vt(x) for x in want["value_types"]]
            have = o["by_mode"].get(mode) or o["by_mode"].get("Default")
            have = dict(have, value_types=[x.lower() for x in have["value_types"]])
            if have != want:
                diff("class_by_mode", "%s [%s] ours %s llvm %s" % (n, mode, have, want))
            if rc["raw_allocation_order"] not in [o["order"]] + o["alt_orders"]:
                diff("class_raw_order", "%s [%s] llvm's selected order is none of ours" % (n, mode))

    # callee saved
    ocs = {c["name"]: c for c in ours["callee_saved"]}
    rnames = [m["name"] for m in real["reg_masks"]]
    if [c["name"] for c in ours["callee_saved"]] != rnames:
        diff("csr_set", "missing %s extra %s" % (sorted(set(rnames) - set(ocs)), sorted(set(ocs) - set(rnames))))
    for m in real["reg_masks"]:
        o = ocs.get(m["name"])
        if not o:
            continue
        if o["reg_mask"] != m["reg_mask"]:
            diff("csr_mask", "%s missing %s extra %s" % (m["name"], sorted(set(m["reg_mask"]) - set(o["reg_mask"])),
                                                        sorted(set(o["reg_mask"]) - set(m["reg_mask"]))))
        sl = extra["save_lists"].get(m["name"])
        if sl is not None and o["save_list"] != sl:
            diff("csr_save_list", "%s ours %s llvm %s" % (m["name"], o["save_list"], sl))

    # pressure sets (names only strictly; limits may be adjusted at run time)
    ops = [p["name"] for p in ours["pressure_sets"]]
    rps = [p["name"] for p in real["pressure_sets"]]
    if ops != rps:
        diff("pressure_sets", "ours %s llvm %s" % (ops, rps))
    else:
        for a, b in zip(ours["pressure_sets"], real["pressure_sets"]):
            if a["limit"] != b["limit"]:
                notes.append("pressure limit %s: table %s, llvm at run time %s" % (a["name"], a["limit"], b["limit"]))

    total = 0
    for cat in sorted(diffs):
        print("== %s: %d" % (cat, len(diffs[cat])))
        for m in diffs[cat][:CAP]:
            print("   " + m)
        total += len(diffs[cat])
    for n in notes[:CAP]:
        print("note: " + n)
    print("counts: ours %s" % {k: ours["counts"][k] for k in ("registers", "register_units", "register_classes", "subreg_indices")})
    print("TOTAL differences: %d" % total)
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
