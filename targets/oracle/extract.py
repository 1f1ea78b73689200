#!/usr/bin/env python3
"""Read the tables that LLVM 19's public API does not expose (alternative
allocation orders, callee-saved save lists) straight out of the local symbols
that Debian's llvm-19-dev static archives keep:

    <Class>GetRawAllocationOrder(...)::AltOrder<N>   (uint16 register enums)
    <CSR>_SaveList                                   (uint16, 0-terminated)

Register enum values are turned into names with the dump of llvm19dump.

usage: extract.py <TargetCodeGen.a> <real.json from llvm19dump>   > extra.json
"""
import json
import os
import re
import struct
import subprocess
import sys
import tempfile


def elf_sections(data):
    # ELF64 little-endian only (Debian amd64 archives).
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    secs = []
    for i in range(shnum):
        name, typ, flags, addr, off, size, link, info, align, entsize = struct.unpack_from(
            "<IIQQQQIIQQ", data, shoff + i * shentsize)
        secs.append(dict(name=name, type=typ, off=off, size=size, link=link, entsize=entsize))
    strtab = secs[shstrndx]
    for s in secs:
        s["name"] = data[strtab["off"] + s["name"]:data.index(b"\0", strtab["off"] + s["name"])].decode()
    return secs


def elf_symbols(data, secs):
    out = []
    for s in secs:
        if s["type"] != 2:  # SHT_SYMTAB
            continue
        strs = secs[s["link"]]
        for k in range(s["size"] // 24):
            name, info, other, shndx, value, size = struct.unpack_from("<IBBHQQ", data, s["off"] + 24 * k)
            nm = data[strs["off"] + name:data.index(b"\0", strs["off"] + name)].decode()
            out.append((nm, shndx, value, size))
    return out


def main():
    archive, real = sys.argv[1], sys.argv[2]
    names = [r["name"] for r in json.load(open(real))["registers"]]
    reg = lambda v: names[v - 1] if 0 < v <= len(names) else "?%d" % v
    members = subprocess.run(["ar", "t", archive], capture_output=True, text=True, check=True).stdout.split()
    members = [m for m in members if re.search(r"RegisterInfo\.cpp\.o$", m)]
    out = {"alt_orders": {}, "save_lists": {}}
    with tempfile.TemporaryDirectory() as d:
        for m in members:
            subprocess.run(["ar", "x", os.path.abspath(archive), m], cwd=d, check=True)
            data = open(os.path.join(d, m), "rb").read()
            secs = elf_sections(data)
            for nm, shndx, value, size in elf_symbols(data, secs):
                if shndx == 0 or shndx >= len(secs):
                    continue
                if "AltOrder" not in nm and "_SaveList" not in nm:
                    continue
                body = data[secs[shndx]["off"] + value: secs[shndx]["off"] + value + size]
                vals = list(struct.unpack("<%dH" % (size // 2), body))
                mo = re.match(r"_ZZN4llvmL\d+(\w+?)GetRawAllocationOrderERKNS_15MachineFunctionEE(\d+)AltOrder(\d+)$", nm)
                if mo:
                    out["alt_orders"].setdefault(mo.group(1), {})[int(mo.group(3))] = [reg(v) for v in vals]
                    continue
                mo = re.match(r"_ZN4llvmL\d+(\w+)_SaveListE$", nm)
                if mo:
                    assert vals and vals[-1] == 0, nm
                    out["save_lists"][mo.group(1)] = [reg(v) for v in vals[:-1]]
    out["alt_orders"] = {c: [o[k] for k in sorted(o)] for c, o in sorted(out["alt_orders"].items())}
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
