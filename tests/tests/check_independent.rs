//! The checker's own readings of the rules it checks, held against the allocator's and against allocations that break them: reserved registers (frame and base pointers), the registers that may hold a class's values, and the description's implicit definitions and uses.
//!
//! The checker must not share the logic it checks (`regalloc/src/check/`
//! reads reserved registers and class homes itself): where the allocator's
//! reading and the checker's differ, one of them is wrong, so they are
//! compared on every function of the corpus and on every combination of the
//! frame facts that decide; and each rule is shown to reject an allocation
//! that breaks it and to accept one that keeps it.

use std::path::{Path, PathBuf};

use regalloc::check::{CheckErrorKind, check, reserved_registers};
use regalloc::ir::{FramePointerKind, MachineFunction, Operand, RegRef};
use regalloc::orders;
use regalloc::target::TargetInfo;
use regalloc::{AllocRecord, Allocator, Options, allocate_recorded};

fn x86() -> &'static TargetInfo<'static> {
    &regalloc_targets::x86::TARGET
}

fn aarch64() -> &'static TargetInfo<'static> {
    &regalloc_targets::aarch64::TARGET
}

fn bpf() -> &'static TargetInfo<'static> {
    &regalloc_targets::bpf::TARGET
}

fn read(t: &TargetInfo<'_>, text: &str) -> MachineFunction {
    let file = regalloc::mir::read(t, "t.mir", text);
    let errors: Vec<String> = file.errors().map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}");
    file.read_functions().next().expect("a function").clone()
}

// ---------------------------------------------------------------------------
// Reserved registers.
// ---------------------------------------------------------------------------

/// A function of body `body` (a leaf, or one that calls) as text, with
/// combination `k` of the facts that decide its frame: the IR attribute,
/// `hasCalls`, a variable-sized object, a taken frame address, an opaque
/// stack-pointer adjustment, the largest alignment and the local frame
/// size. Both readings start from the same text.
fn framed(body: &str, k: usize) -> String {
    let mut k = k;
    let mut pick = |n: usize| {
        let x = k % n;
        k /= n;
        x
    };
    let attribute = [
        "",
        "\"frame-pointer\"=\"none\"",
        "\"frame-pointer\"=\"non-leaf\"",
        "\"frame-pointer\"=\"all\"",
    ][pick(4)];
    let has_calls = pick(2) == 1;
    let stack = if pick(2) == 1 {
        "\n  - { id: 0, name: vla, type: variable-sized, offset: 0, alignment: 1, stack-id: default }"
    } else {
        " []"
    };
    let address_taken = pick(2) == 1;
    let opaque = pick(2) == 1;
    let max_alignment = [0, 8, 16, 32][pick(4)];
    let local_frame_size = [0, 255, 256, 4096][pick(4)];
    format!(
        "--- |\n  define void @f() #0 {{\n    ret void\n  }}\n  attributes #0 = {{ nounwind {attribute} }}\n...\n---\nname: f\nframeInfo:\n  isFrameAddressTaken: {address_taken}\n  maxAlignment:    {max_alignment}\n  hasCalls:        {has_calls}\n  hasOpaqueSPAdjustment: {opaque}\n  localFrameSize:  {local_frame_size}\nstack:{stack}\nbody: |\n{body}...\n"
    )
}

const FRAME_COMBINATIONS: usize = 4 * 2 * 2 * 2 * 2 * 4 * 4;

/// The checker and the allocator reserve the same registers in every
/// combination of frame facts, on x86-64 and AArch64 (the targets with
/// frame and base pointer sets), in a leaf and in a function that calls.
#[test]
fn reserved_registers_agree_with_the_allocators_in_every_frame() {
    let leaf_x86 = "  bb.0:\n    RET 0\n";
    let call_x86 = "  bb.0:\n    CALL64pcrel32 @g, csr_64, implicit $rsp, implicit $ssp, implicit-def $rsp, implicit-def $ssp\n    RET 0\n";
    let leaf_a64 = "  bb.0:\n    RET_ReallyLR\n";
    let call_a64 = "  bb.0:\n    BL @g, csr_aarch64_aapcs, implicit-def $lr, implicit $sp, implicit-def $sp\n    RET_ReallyLR\n";
    let mut differ = Vec::new();
    let mut kinds = std::collections::BTreeSet::new();
    for (t, body) in [
        (x86(), leaf_x86),
        (x86(), call_x86),
        (aarch64(), leaf_a64),
        (aarch64(), call_a64),
    ] {
        for k in 0..FRAME_COMBINATIONS {
            let f = read(t, &framed(body, k));
            let (ours, theirs) = (reserved_registers(t, &f), orders::reserved_registers(t, &f));
            if ours != theirs {
                differ.push(format!("{} frame {k}", t.name));
            }
            kinds.insert(ours);
        }
    }
    assert!(
        differ.is_empty(),
        "{} differ: {:?}",
        differ.len(),
        &differ[..differ.len().min(10)]
    );
    // Nothing, the frame pointer, both pointers, on two targets.
    assert!(kinds.len() >= 6, "{} distinct reserved sets", kinds.len());
}

fn corpus_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(rd) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(corpus_files(&p));
        } else if p.extension().is_some_and(|x| x == "mir") {
            out.push(p);
        }
    }
    out.sort();
    out
}

/// On every function of the corpus and the held-out set (all targets,
/// -O2 and -O0), the checker and the allocator reserve the same registers.
#[test]
fn reserved_registers_agree_with_the_allocators_on_the_corpus() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../bench/out");
    let mut compared = 0;
    let mut differ = Vec::new();
    for (dir, t) in [
        ("x86_64", x86()),
        ("aarch64", aarch64()),
        ("hexagon", &regalloc_targets::hexagon::TARGET),
        ("bpf", bpf()),
    ] {
        for set in ["corpus", "heldout"] {
            for level in ["O2", "O0"] {
                for p in corpus_files(&root.join(set).join(dir).join(level)) {
                    let text = std::fs::read_to_string(&p).expect("corpus file");
                    let file = regalloc::mir::read(t, &p.display().to_string(), &text);
                    for f in file.read_functions() {
                        compared += 1;
                        if reserved_registers(t, f) != orders::reserved_registers(t, f) {
                            differ.push(format!("{}: {}", p.display(), f.name));
                        }
                    }
                }
            }
        }
    }
    if compared == 0 {
        println!("skipped: no corpus under bench/out");
        return;
    }
    println!("reserved registers: {compared} corpus functions compared");
    assert!(
        differ.is_empty(),
        "{} differ: {:?}",
        differ.len(),
        &differ[..differ.len().min(10)]
    );
}

/// An x86-64 function keeping 15 values and a pointer live at once: every
/// general register is needed, RBP and RBX included.
fn x86_pressure() -> String {
    let n = 15;
    let mut body = String::from("  bb.0:\n    liveins: $rdi\n    %0:gr64 = COPY $rdi\n");
    for k in 1..=n {
        body += &format!("    %{k}:gr64 = MOV64rm %0, 1, $noreg, {}, $noreg\n", 8 * k);
    }
    for k in (1..=n).rev() {
        body += &format!("    MOV64mr %0, 1, $noreg, {}, $noreg, %{k}\n", 8 * k);
    }
    format!(
        "---\nname: f\ntracksRegLiveness: true\nliveins:\n  - {{ reg: '$rdi', virtual-reg: '%0' }}\nbody: |\n{body}    RET 0\n...\n"
    )
}

/// Whether the allocated function names `reg` or one of its parts.
fn names_reg(t: &TargetInfo<'_>, f: &MachineFunction, reg: &str) -> bool {
    let r = t.find_reg(reg).unwrap();
    f.inst_ids().any(|i| {
        f.inst(i).operands.iter().any(|o| {
            matches!(o, Operand::Reg(x) if matches!(x.reg, RegRef::Phys(p) if t.regs_overlap(p, r)))
        })
    })
}

/// An allocation made where the frame and base pointers are free is
/// rejected by the checker once the frame facts reserve them (a frame
/// pointer kept for any of its reasons, a base pointer needed), with a
/// wrong-class error naming the register, and accepted where they do not.
#[test]
fn an_allocation_into_a_reserved_frame_or_base_pointer_is_rejected() {
    let t = x86();
    let f = read(t, &x86_pressure());
    let mut a = f.clone();
    let opts = Options {
        allocator: Allocator::Greedy,
        check: true,
    };
    let (_, rec) = allocate_recorded(t, &mut a, &opts).expect("allocates");
    assert!(names_reg(t, &a, "RBP") && names_reg(t, &a, "RBX"));
    let rejects = |g: &MachineFunction, reg: &str| {
        let errs = check(t, g, &a, &rec).expect_err("rejected");
        assert!(
            errs.iter().any(|e| e.kind == CheckErrorKind::WrongClass
                && e.to_string().contains("reserved")
                && e.operand_text.as_deref().is_some_and(|o| {
                    t.find_reg(o.trim_start_matches('$'))
                        .is_some_and(|p| t.regs_overlap(p, t.find_reg(reg).unwrap()))
                })),
            "{reg}: {errs:?}"
        );
    };
    check(t, &f, &a, &rec).expect("the allocation as made is correct");
    let mut g = f.clone();
    g.frame_pointer = Some(FramePointerKind::All);
    rejects(&g, "RBP");
    let mut g = f.clone();
    g.frame_info.frame_address_taken = true;
    rejects(&g, "RBP");
    let mut g = f.clone();
    g.frame_info.opaque_sp_adjustment = true;
    rejects(&g, "RBP");
    let mut g = f.clone();
    g.frame_info.max_alignment = 32;
    rejects(&g, "RBP");
    // Realigned with a variable-sized object: the base pointer too.
    let mut g = f.clone();
    g.frame_info.max_alignment = 32;
    g.frame_info.opaque_sp_adjustment = true;
    rejects(&g, "RBX");
    // Calls with the "non-leaf" policy keep the frame pointer; without a
    // policy x86 keeps none.
    let mut g = f.clone();
    g.frame_pointer = Some(FramePointerKind::NonLeaf);
    g.frame_info.has_calls = true;
    rejects(&g, "RBP");
    let mut g = f.clone();
    g.frame_info.has_calls = true;
    g.frame_info.max_alignment = 16;
    check(t, &g, &a, &rec).expect("nothing reserved beyond the usual");
}

// ---------------------------------------------------------------------------
// The registers that may hold a class's values.
// ---------------------------------------------------------------------------

/// An x86-64 function storing the high byte of `%1` (which must be one of
/// EAX, EBX, ECX, EDX) through `%0` (which must be addressable without a
/// REX prefix), and copying both to registers (`%2`, `%3`) of the same
/// classes that meet nothing narrower than a copy.
const X86_HIGH_BYTE: &str = "---
name: f
tracksRegLiveness: true
registers:
  - { id: 0, class: gr64_norex }
  - { id: 1, class: gr32_abcd }
  - { id: 2, class: gr32_abcd }
  - { id: 3, class: gr64_norex }
liveins:
  - { reg: '$rdi', virtual-reg: '%0' }
  - { reg: '$esi', virtual-reg: '%1' }
body: |
  bb.0:
    liveins: $rdi, $esi
    %0:gr64_norex = COPY $rdi
    %1:gr32_abcd = COPY $esi
    %2:gr32_abcd = COPY %1
    %3:gr64_norex = COPY %0
    MOV8mr_NOREX %0, 1, $noreg, 0, $noreg, %1.sub_8bit_hi
    $eax = COPY %2
    $rdx = COPY %3
    RET 0, $eax, $rdx
...
";

/// `f` with its virtual registers replaced by the registers `assign`
/// names (a sub-register operand by the sub-register, when there is one).
fn assign(t: &TargetInfo<'_>, f: &MachineFunction, assign: &[&str]) -> MachineFunction {
    let mut a = f.clone();
    for d in &mut a.insts {
        for o in &mut d.operands {
            if let Operand::Reg(r) = o
                && let RegRef::Virt(v) = r.reg
            {
                let full = t.find_reg(assign[v.index()]).unwrap();
                match r.sub.and_then(|i| t.sub_reg(full, i)) {
                    Some(s) => {
                        r.reg = RegRef::Phys(s);
                        r.sub = None;
                    }
                    None => r.reg = RegRef::Phys(full),
                }
            }
        }
    }
    a
}

/// A copy's destination may be any register of a class storing the value
/// alike (a split piece the allocator widened: ESI for a `gr32_abcd`
/// value no high byte is read from, R9 for a `gr64_norex` value no
/// instruction addresses through); an operand the description narrows
/// must get a register it takes.
#[test]
fn a_widened_class_is_accepted_where_no_operand_narrows_it() {
    let t = x86();
    let f = read(t, X86_HIGH_BYTE);
    let rec = AllocRecord::new(f.insts.len());
    let wrong_class = |regs: &[&str]| {
        let errs = check(t, &f, &assign(t, &f, regs), &rec).expect_err("rejected");
        assert!(
            errs.iter().any(|e| e.kind == CheckErrorKind::WrongClass),
            "{regs:?}: {errs:?}"
        );
        errs
    };
    check(t, &f, &assign(t, &f, &["rdi", "ebx", "ecx", "rsi"]), &rec).expect("all in class");
    check(t, &f, &assign(t, &f, &["rdi", "ebx", "esi", "r9"]), &rec).expect("widened copies");
    // The store addresses through %0: R8 needs a REX prefix.
    let errs = wrong_class(&["r8", "ebx", "ecx", "rsi"]);
    assert!(
        errs.iter()
            .any(|e| e.to_string().contains("as operand 0 of MOV8mr_NOREX takes")),
        "{errs:?}"
    );
    // A 64-bit register does not store a 32-bit value alike.
    wrong_class(&["rdi", "ebx", "rcx", "rsi"]);
    // ESI has no high byte for the store to read.
    check(t, &f, &assign(t, &f, &["rdi", "esi", "ecx", "rsi"]), &rec).expect_err("no high byte");
}

// ---------------------------------------------------------------------------
// The description's implicit definitions and uses.
// ---------------------------------------------------------------------------

/// A BPF call whose MIR leaves out the description's implicit definition
/// of `$r3` (LLVM's parser takes any implicit operands on a call): the
/// description still clobbers it, so a value kept in `$r3` across the call
/// is rejected, and one kept in `$r7` is accepted.
#[test]
fn a_call_clobbers_what_its_description_defines_whatever_its_operands_say() {
    let t = bpf();
    let f = read(
        t,
        "---
name: f
tracksRegLiveness: true
registers:
  - { id: 0, class: gpr }
  - { id: 1, class: gpr }
liveins:
  - { reg: '$r1', virtual-reg: '%0' }
body: |
  bb.0:
    liveins: $r1
    %0:gpr = COPY $r1
    %1:gpr = ADD_ri %0, 5
    JAL @g, implicit-def $r0, implicit-def dead $r1, implicit-def dead $r2, implicit-def dead $r4, implicit-def dead $r5
    $r0 = COPY %1
    RET implicit $r0
...
",
    );
    let rec = AllocRecord::new(f.insts.len());
    check(t, &f, &assign(t, &f, &["r7", "r7"]), &rec).expect("kept in a saved register");
    let errs = check(t, &f, &assign(t, &f, &["r3", "r3"]), &rec).expect_err("clobbered");
    assert_eq!(errs[0].kind, CheckErrorKind::WrongValue, "{errs:?}");
    assert!(errs[0].to_string().contains("$r3"), "{}", errs[0]);
}

/// BPF's `LD_ABS_B` reads `$r6` by its description. With the operand left
/// out of both functions (the reader refuses such text, the checker is
/// given the functions), an allocation that puts another value in `$r6`
/// before it is rejected; one that leaves `$r6` alone is accepted.
#[test]
fn an_implicit_use_of_the_description_is_checked_when_the_operand_is_missing() {
    let t = bpf();
    let mut f = read(
        t,
        "---
name: f
tracksRegLiveness: true
registers:
  - { id: 0, class: gpr }
  - { id: 1, class: gpr }
liveins:
  - { reg: '$r1', virtual-reg: '%0' }
body: |
  bb.0:
    liveins: $r1
    %0:gpr = COPY $r1
    $r6 = COPY %0
    %1:gpr = MOV_ri 5
    LD_ABS_B %0, 0, implicit-def $r0, implicit-def dead $r1, implicit-def dead $r2, implicit-def dead $r3, implicit-def dead $r4, implicit-def dead $r5, implicit $r6
    $r0 = COPY %1
    RET implicit $r0
...
",
    );
    let ld = f.blocks[0].insts[3];
    let r6 = t.find_reg("R6").unwrap();
    f.insts[ld.index()]
        .operands
        .retain(|o| !matches!(o, Operand::Reg(r) if r.reg == RegRef::Phys(r6) && !r.is_def()));
    let rec = AllocRecord::new(f.insts.len());
    check(t, &f, &assign(t, &f, &["r7", "r8"]), &rec).expect("r6 left alone");
    let errs = check(t, &f, &assign(t, &f, &["r7", "r6"]), &rec).expect_err("r6 overwritten");
    assert!(
        errs.iter()
            .any(|e| e.kind == CheckErrorKind::WrongValue && e.to_string().contains("LD_ABS_B")),
        "{errs:?}"
    );
}
