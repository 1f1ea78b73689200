//! The pre-allocation passes on small hand-written x86-64 functions: each result is the one written here, and llc's (`llc-19 -run-pass=NAME` on the same text) where LLVM is installed.

use std::io::Write as _;

use regalloc::passes::{self, Pass, PassState};
use regalloc::target::TargetInfo;

fn x86() -> &'static TargetInfo<'static> {
    &regalloc_targets::x86::TARGET
}

/// The `body:` of a printed function document.
fn body(doc: &str) -> String {
    let at = doc.find("body:").expect("a body");
    doc[at..]
        .trim_end_matches(['\n', '.'])
        .trim_end()
        .to_string()
}

/// Runs the passes up to `stop_after` (each alone when `alone`) on the
/// one function of `mir` and returns its printed body.
fn ours(mir: &str, passes_to_run: &[Pass]) -> String {
    let file = regalloc::mir::read(x86(), "test.mir", mir);
    assert_eq!(
        file.errors().count(),
        0,
        "{:?}",
        file.errors().collect::<Vec<_>>()
    );
    let mut f = file.read_functions().next().expect("a function").clone();
    let mut state = PassState::default();
    for &p in passes_to_run {
        passes::run(x86(), &mut f, p, &mut state).expect("the pass runs");
    }
    body(&regalloc::mir::write_function(x86(), &f))
}

/// llc's body after `-run-pass=` the passes, read and printed by our MIR
/// reader and writer; `None` without LLVM.
fn llcs(mir: &str, passes_to_run: &[Pass]) -> Option<String> {
    let llc = regalloc_tests::llvm_tool("llc")?;
    let dir = std::env::temp_dir().join(format!("regalloc-passes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).ok()?;
    // One file per call: tests run in parallel.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = dir.join(format!("{call}.mir"));
    std::fs::File::create(&path)
        .ok()?
        .write_all(mir.as_bytes())
        .ok()?;
    let names: Vec<&str> = passes_to_run.iter().map(|p| p.name()).collect();
    let out = std::process::Command::new(llc)
        .args(["-mtriple=x86_64-linux-gnu", "-o", "-"])
        .arg(format!("-run-pass={}", names.join(",")))
        .arg(&path)
        .output()
        .ok()?;
    assert!(
        out.status.success(),
        "llc: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).ok()?;
    let file = regalloc::mir::read(x86(), "llc.mir", &text);
    let f = file.read_functions().next()?.clone();
    Some(body(&regalloc::mir::write_function(x86(), &f)))
}

/// Ours equals `want`, and llc's where LLVM is installed.
fn check(mir: &str, passes_to_run: &[Pass], want: &str) {
    let got = ours(mir, passes_to_run);
    assert_eq!(got, want.trim_end(), "ours");
    if let Some(theirs) = llcs(mir, passes_to_run) {
        assert_eq!(got, theirs, "ours against llc's");
    }
}

/// A diamond whose PHI takes an `IMPLICIT_DEF` on one side, an unreachable
/// block feeding the PHI (written before the join: blocks are numbered in
/// layout order when read, as llc numbers them), return values in
/// physical registers.
const DIAMOND: &str = "---
name: f
tracksRegLiveness: true
registers:
  - { id: 0, class: gr32 }
  - { id: 1, class: gr32 }
  - { id: 2, class: gr32 }
  - { id: 3, class: gr32 }
  - { id: 4, class: gr32 }
  - { id: 5, class: gr32 }
liveins:
  - { reg: '$edi', virtual-reg: '%0' }
body: |
  bb.0:
    successors: %bb.1(0x40000000), %bb.2(0x40000000)
    liveins: $edi
    %0:gr32 = COPY $edi
    %1:gr32 = IMPLICIT_DEF
    TEST32rr %0, %0, implicit-def $eflags
    JCC_1 %bb.2, 4, implicit $eflags
  bb.1:
    successors: %bb.2(0x80000000)
    %2:gr32 = ADD32rr %0, %0, implicit-def $eflags
    JMP_1 %bb.2
  bb.3:
    successors: %bb.2(0x80000000)
    %4:gr32 = MOV32ri 7
    JMP_1 %bb.2
  bb.2:
    %3:gr32 = PHI %1, %bb.0, %2, %bb.1, %4, %bb.3
    %5:gr32 = PHI %0, %bb.0, %0, %bb.1, %0, %bb.3
    $eax = COPY %3
    $edi = COPY %5
    RET 0, implicit $eax, implicit $edi
...
";

#[test]
fn processimpdefs_marks_reads_undef_and_drops_the_definition() {
    check(
        DIAMOND,
        &[Pass::ProcessImplicitDefs],
        "body:             |
  bb.0:
    successors: %bb.1(0x40000000), %bb.3(0x40000000)
    liveins: $edi
  
    %0:gr32 = COPY $edi
    TEST32rr %0, %0, implicit-def $eflags
    JCC_1 %bb.3, 4, implicit $eflags
  
  bb.1:
    successors: %bb.3(0x80000000)
  
    %2:gr32 = ADD32rr %0, %0, implicit-def $eflags
    JMP_1 %bb.3
  
  bb.2:
    successors: %bb.3(0x80000000)
  
    %4:gr32 = MOV32ri 7
    JMP_1 %bb.3
  
  bb.3:
    %3:gr32 = PHI undef %1:gr32, %bb.0, %2, %bb.1, %4, %bb.2
    %5:gr32 = PHI %0, %bb.0, %0, %bb.1, %0, %bb.2
    $eax = COPY %3
    $edi = COPY %5
    RET 0, implicit $eax, implicit $edi",
    );
}

#[test]
fn unreachable_blocks_go_and_their_phi_entries_with_them() {
    check(
        DIAMOND,
        &[Pass::ProcessImplicitDefs, Pass::UnreachableBlockElim],
        "body:             |
  bb.0:
    successors: %bb.1(0x40000000), %bb.2(0x40000000)
    liveins: $edi
  
    %0:gr32 = COPY $edi
    TEST32rr %0, %0, implicit-def $eflags
    JCC_1 %bb.2, 4, implicit $eflags
  
  bb.1:
    successors: %bb.2(0x80000000)
  
    %2:gr32 = ADD32rr %0, %0, implicit-def $eflags
    JMP_1 %bb.2
  
  bb.2:
    %3:gr32 = PHI undef %1:gr32, %bb.0, %2, %bb.1
    %5:gr32 = PHI %0, %bb.0, %0, %bb.1
    $eax = COPY %3
    $edi = COPY %5
    RET 0, implicit $eax, implicit $edi",
    );
}

#[test]
fn livevars_sets_kill_and_dead_flags() {
    check(
        DIAMOND,
        &[
            Pass::ProcessImplicitDefs,
            Pass::UnreachableBlockElim,
            Pass::LiveVariables,
        ],
        "body:             |
  bb.0:
    successors: %bb.1(0x40000000), %bb.2(0x40000000)
    liveins: $edi
  
    %0:gr32 = COPY killed $edi
    TEST32rr %0, %0, implicit-def $eflags
    JCC_1 %bb.2, 4, implicit killed $eflags
  
  bb.1:
    successors: %bb.2(0x80000000)
  
    %2:gr32 = ADD32rr %0, %0, implicit-def dead $eflags
    JMP_1 %bb.2
  
  bb.2:
    %3:gr32 = PHI undef %1:gr32, %bb.0, %2, %bb.1
    %5:gr32 = PHI %0, %bb.0, %0, %bb.1
    $eax = COPY killed %3
    $edi = COPY killed %5
    RET 0, implicit killed $eax, implicit killed $edi",
    );
}

#[test]
fn only_code_that_needs_the_passes_runs_them() {
    let file = regalloc::mir::read(x86(), "test.mir", DIAMOND);
    let f = file.read_functions().next().expect("a function");
    assert_eq!(passes::first_needed(f), Some(Pass::DetectDeadLanes));
    assert!(passes::has_phis(f) && passes::is_ssa(f));
    // Two-address form (a register defined twice), no PHIs: past them all.
    let past = DIAMOND
        .replace(
            "    %2:gr32 = ADD32rr %0, %0",
            "    %2:gr32 = COPY %0\n    %2:gr32 = ADD32rr %2, %0",
        )
        .replace(
            "%3:gr32 = PHI %1, %bb.0, %2, %bb.1, %4, %bb.3",
            "%3:gr32 = COPY %2",
        )
        .replace(
            "%5:gr32 = PHI %0, %bb.0, %0, %bb.1, %0, %bb.3",
            "%5:gr32 = COPY %0",
        );
    let file = regalloc::mir::read(x86(), "past.mir", &past);
    let mut f = file.read_functions().next().expect("a function").clone();
    assert_eq!(passes::first_needed(&f), None);
    let before = f.clone();
    assert_eq!(
        regalloc::pipeline::prepare(x86(), &mut f, Pass::LiveVariables),
        Ok(vec![])
    );
    assert_eq!(f, before);
}

#[test]
fn pass_names_are_llvms() {
    let names: Vec<&str> = Pass::ALL.iter().map(|p| p.name()).collect();
    assert_eq!(
        names,
        [
            "detect-dead-lanes",
            "processimpdefs",
            "unreachable-mbb-elimination",
            "livevars",
            "phi-node-elimination",
            "twoaddressinstruction",
            "register-coalescer"
        ]
    );
    assert_eq!(Pass::from_name("livevars"), Some(Pass::LiveVariables));
    assert_eq!(
        Pass::from_name("twoaddressinstruction"),
        Some(Pass::TwoAddress)
    );
    assert_eq!(
        Pass::from_name("register-coalescer"),
        Some(Pass::RegisterCoalescer)
    );
    assert_eq!(Pass::from_name("rename-independent-subregs"), None);
}

/// An if-then whose PHI needs no split: the entry's input is read by the
/// PHI only.
const IF_THEN: &str = "---
name: g
tracksRegLiveness: true
registers:
  - { id: 0, class: gr32 }
  - { id: 1, class: gr32 }
  - { id: 2, class: gr32 }
  - { id: 3, class: gr32 }
liveins:
  - { reg: '$edi', virtual-reg: '%0' }
body: |
  bb.0:
    successors: %bb.1(0x40000000), %bb.2(0x40000000)
    liveins: $edi
    %0:gr32 = COPY $edi
    %1:gr32 = MOV32ri 1
    TEST32rr %0, %0, implicit-def $eflags
    JCC_1 %bb.2, 4, implicit $eflags
  bb.1:
    successors: %bb.2(0x80000000)
    %2:gr32 = ADD32rr %0, %0, implicit-def $eflags
  bb.2:
    %3:gr32 = PHI %1, %bb.0, %2, %bb.1
    $eax = COPY %3
    RET 0, implicit $eax
...
";

#[test]
fn phi_elimination_copies_at_the_ends_of_the_predecessors() {
    check(
        IF_THEN,
        &Pass::ALL[..5],
        "body:             |
  bb.0:
    successors: %bb.1(0x40000000), %bb.2(0x40000000)
    liveins: $edi
  
    %0:gr32 = COPY killed $edi
    %1:gr32 = MOV32ri 1
    TEST32rr %0, %0, implicit-def $eflags
    %4:gr32 = COPY killed %1
    JCC_1 %bb.2, 4, implicit killed $eflags
  
  bb.1:
    successors: %bb.2(0x80000000)
  
    %2:gr32 = ADD32rr killed %0, %0, implicit-def dead $eflags
    %4:gr32 = COPY killed %2
  
  bb.2:
    %3:gr32 = COPY killed %4
    $eax = COPY killed %3
    RET 0, implicit killed $eax",
    );
}

/// The diamond's edge bb.0 -> bb.2 is critical and %0 is live out of
/// bb.0 past the PHIs: LLVM splits it. The new block goes after bb.0
/// (numbered in layout order), takes the edge's place and probability in
/// bb.0's successors and jumps to the join; bb.0's branch, which went to
/// the join, is reversed (JE 4 becomes JNE 5) to reach bb.1, and the new
/// block is its fall-through.
#[test]
fn phi_elimination_splits_a_critical_edge_as_llvm_does() {
    check(
        DIAMOND,
        &Pass::ALL[..5],
        "body:             |
  bb.0:
    successors: %bb.2(0x40000000), %bb.1(0x40000000)
    liveins: $edi
  
    %0:gr32 = COPY killed $edi
    TEST32rr %0, %0, implicit-def $eflags
    JCC_1 %bb.2, 5, implicit killed $eflags
  
  bb.1:
    successors: %bb.3(0x80000000)
  
    %6:gr32 = IMPLICIT_DEF
    %7:gr32 = COPY killed %0
    JMP_1 %bb.3
  
  bb.2:
    successors: %bb.3(0x80000000)
  
    %2:gr32 = ADD32rr %0, %0, implicit-def dead $eflags
    %6:gr32 = COPY killed %2
    %7:gr32 = COPY killed %0
    JMP_1 %bb.3
  
  bb.3:
    %5:gr32 = COPY killed %7
    %3:gr32 = COPY killed %6
    $eax = COPY killed %3
    $edi = COPY killed %5
    RET 0, implicit killed $eax, implicit killed $edi",
    );
}

/// The chapter's example, `%2 = SUB %0, %1` with `%0` read again later:
/// the tied `%0` is copied into `%2` first (`%2 = COPY %0; %2 = SUB %2,
/// %1`), and the copy does not kill `%0`; the `IMUL` after it reads `%2`
/// for the last time, so its copy does.
const TWO_ADDRESS_COPY: &str = "---
name: f
tracksRegLiveness: true
registers:
  - { id: 0, class: gr32 }
  - { id: 1, class: gr32 }
  - { id: 2, class: gr32 }
  - { id: 3, class: gr32 }
liveins:
  - { reg: '$edi', virtual-reg: '%0' }
  - { reg: '$esi', virtual-reg: '%1' }
body: |
  bb.0:
    liveins: $edi, $esi
    %0:gr32 = COPY $edi
    %1:gr32 = COPY $esi
    %2:gr32 = SUB32rr %0, %1, implicit-def $eflags
    %3:gr32 = IMUL32rr %2, %0, implicit-def $eflags
    $eax = COPY %3
    RET 0, implicit $eax
...
";

#[test]
fn two_address_copies_the_tied_source() {
    check(
        TWO_ADDRESS_COPY,
        &Pass::ALL[..6],
        "body:             |
  bb.0:
    liveins: $edi, $esi
  
    %0:gr32 = COPY killed $edi
    %1:gr32 = COPY killed $esi
    %2:gr32 = COPY %0
    %2:gr32 = SUB32rr %2, killed %1, implicit-def dead $eflags
    %3:gr32 = COPY killed %2
    %3:gr32 = IMUL32rr %3, killed %0, implicit-def dead $eflags
    $eax = COPY killed %3
    RET 0, implicit killed $eax",
    );
}

/// Commuting saves the copy of a value that lives on: `IMUL %0, %1`
/// with `%1` dying and `%0` read later becomes `%2 = COPY %1; %2 = IMUL
/// %2, %0`; `CMOV %0, %2, 4` (E) likewise, its condition reversed to 5
/// (NE) by the description's commuting rule.
const TWO_ADDRESS_COMMUTE: &str = "---
name: g
tracksRegLiveness: true
registers:
  - { id: 0, class: gr32 }
  - { id: 1, class: gr32 }
  - { id: 2, class: gr32 }
  - { id: 3, class: gr32 }
  - { id: 4, class: gr32 }
liveins:
  - { reg: '$edi', virtual-reg: '%0' }
  - { reg: '$esi', virtual-reg: '%1' }
body: |
  bb.0:
    liveins: $edi, $esi
    %0:gr32 = COPY $edi
    %1:gr32 = COPY $esi
    %2:gr32 = IMUL32rr %0, %1, implicit-def $eflags
    TEST32rr %0, %0, implicit-def $eflags
    %3:gr32 = CMOV32rr %0, %2, 4, implicit $eflags
    %4:gr32 = SUB32rr %3, %0, implicit-def $eflags
    $eax = COPY %4
    RET 0, implicit $eax
...
";

#[test]
fn two_address_commutes_to_copy_the_value_that_dies() {
    check(
        TWO_ADDRESS_COMMUTE,
        &Pass::ALL[..6],
        "body:             |
  bb.0:
    liveins: $edi, $esi
  
    %0:gr32 = COPY killed $edi
    %1:gr32 = COPY killed $esi
    %2:gr32 = COPY killed %1
    %2:gr32 = IMUL32rr %2, %0, implicit-def dead $eflags
    TEST32rr %0, %0, implicit-def $eflags
    %3:gr32 = COPY killed %2
    %3:gr32 = CMOV32rr %3, %0, 5, implicit killed $eflags
    %4:gr32 = COPY killed %3
    %4:gr32 = SUB32rr %4, killed %0, implicit-def dead $eflags
    $eax = COPY killed %4
    RET 0, implicit killed $eax",
    );
}

/// Three-address conversion where a tied source lives on (the
/// description's `ThreeAddressForm`s, as LLVM's x86 `convertToThreeAddress`):
/// `ADD64ri32` becomes `LEA64r`; `ADD32rr %1, %1` reads one new 64-bit
/// register whose low half is a copy of `%1`; `INC8r` goes through an
/// `IMPLICIT_DEF`'d register and a copy of the result's low byte; `SHL32ri`
/// by 2 scales the index by 4; `SUB32ri` negates its immediate; `ADD32ri`
/// whose `EFLAGS` are read (by the branch) keeps its tie and gets a copy.
const TWO_ADDRESS_THREE_ADDRESS: &str = "---
name: k
tracksRegLiveness: true
registers:
  - { id: 0, class: gr64 }
  - { id: 1, class: gr32 }
  - { id: 2, class: gr64 }
  - { id: 3, class: gr32 }
  - { id: 4, class: gr8 }
  - { id: 5, class: gr8 }
  - { id: 6, class: gr32 }
  - { id: 7, class: gr32 }
  - { id: 8, class: gr32 }
liveins:
  - { reg: '$rdi', virtual-reg: '%0' }
  - { reg: '$esi', virtual-reg: '%1' }
body: |
  bb.0:
    successors: %bb.1(0x80000000)
    liveins: $rdi, $esi
    %0:gr64 = COPY $rdi
    %1:gr32 = COPY $esi
    %2:gr64 = ADD64ri32 %0, 16, implicit-def $eflags
    %3:gr32 = ADD32rr %1, %1, implicit-def $eflags
    %4:gr8 = COPY %1.sub_8bit
    %5:gr8 = INC8r %4, implicit-def $eflags
    %6:gr32 = SHL32ri %3, 2, implicit-def $eflags
    %7:gr32 = SUB32ri %3, 9, implicit-def $eflags
    %8:gr32 = ADD32ri %6, 1, implicit-def $eflags
    JCC_1 %bb.1, 4, implicit $eflags
  bb.1:
    $rax = COPY %2
    $rdx = COPY %0
    $ecx = COPY %1
    $r8d = COPY %3
    $r9b = COPY %4
    $r10b = COPY %5
    $r11d = COPY %6
    $esi = COPY %7
    $edi = COPY %8
    RET 0, implicit $rax, implicit $rdx, implicit $ecx, implicit $r8d, implicit $r9b, implicit $r10b, implicit $r11d, implicit $esi, implicit $edi
...
";

#[test]
fn two_address_converts_to_three_address_forms() {
    check(
        TWO_ADDRESS_THREE_ADDRESS,
        &Pass::ALL[..6],
        "body:             |
  bb.0:
    successors: %bb.1(0x80000000)
    liveins: $rdi, $esi
  
    %0:gr64 = COPY killed $rdi
    %1:gr32 = COPY killed $esi
    %2:gr64 = LEA64r %0, 1, $noreg, 16, $noreg
    undef %9.sub_32bit:gr64_nosp = COPY %1
    %3:gr32 = LEA64_32r killed %9, 1, killed %9, 0, $noreg
    %4:gr8 = COPY %1.sub_8bit
    %10:gr64_nosp = IMPLICIT_DEF
    %10.sub_8bit:gr64_nosp = COPY %4
    %11:gr32 = LEA64_32r killed %10, 1, $noreg, 1, $noreg
    %5:gr8 = COPY killed %11.sub_8bit
    undef %12.sub_32bit:gr64_nosp = COPY %3
    %6:gr32 = LEA64_32r $noreg, 4, killed %12, 0, $noreg
    undef %13.sub_32bit:gr64 = COPY %3
    %7:gr32 = LEA64_32r killed %13, 1, $noreg, -9, $noreg
    %8:gr32 = COPY %6
    %8:gr32 = ADD32ri %8, 1, implicit-def $eflags
    JCC_1 %bb.1, 4, implicit killed $eflags
  
  bb.1:
    $rax = COPY killed %2
    $rdx = COPY killed %0
    $ecx = COPY killed %1
    $r8d = COPY killed %3
    $r9b = COPY killed %4
    $r10b = COPY killed %5
    $r11d = COPY killed %6
    $esi = COPY killed %7
    $edi = COPY killed %8
    RET 0, implicit killed $rax, implicit killed $rdx, implicit killed $ecx, implicit killed $r8d, implicit killed $r9b, implicit killed $r10b, implicit killed $r11d, implicit killed $esi, implicit killed $edi",
    );
}

/// `INSERT_SUBREG` becomes a copy into the sub-register of a copy of its
/// base; a tied sub-register use (`%0.sub_32bit`) moves into the copy,
/// the instruction reading the whole copy; an `undef` tied use is just
/// renamed to the definition.
const TWO_ADDRESS_SUB_REGISTERS: &str = "---
name: h
tracksRegLiveness: true
registers:
  - { id: 0, class: gr64_with_sub_8bit }
  - { id: 1, class: gr32 }
  - { id: 2, class: gr64 }
  - { id: 3, class: gr32 }
  - { id: 4, class: gr32 }
liveins:
  - { reg: '$rdi', virtual-reg: '%0' }
  - { reg: '$esi', virtual-reg: '%1' }
body: |
  bb.0:
    liveins: $rdi, $esi
    %0:gr64_with_sub_8bit = COPY $rdi
    %1:gr32 = COPY $esi
    %2:gr64 = INSERT_SUBREG %0, %1, %subreg.sub_32bit
    %3:gr32 = SUB32rr %0.sub_32bit, %1, implicit-def $eflags
    %4:gr32 = XOR32rr undef %3, %3, implicit-def $eflags
    $rax = COPY %2
    $edx = COPY %4
    RET 0, implicit $rax, implicit $edx
...
";

#[test]
fn two_address_tied_sub_registers_insert_subreg_and_undef() {
    check(
        TWO_ADDRESS_SUB_REGISTERS,
        &Pass::ALL[..6],
        "body:             |
  bb.0:
    liveins: $rdi, $esi
  
    %0:gr64_with_sub_8bit = COPY killed $rdi
    %1:gr32 = COPY killed $esi
    %2:gr64_with_sub_8bit = COPY %0
    %2.sub_32bit:gr64_with_sub_8bit = COPY %1
    %3:gr32 = COPY killed %0.sub_32bit
    %3:gr32 = SUB32rr %3, killed %1, implicit-def dead $eflags
    %4:gr32 = XOR32rr undef %4, killed %3, implicit-def dead $eflags
    $rax = COPY killed %2
    $edx = COPY killed %4
    RET 0, implicit killed $rax, implicit killed $edx",
    );
}

/// A function after two-address lowering, with the registers and body
/// given, read by the coalescer alone.
fn lowered(registers: &[&str], body: &str) -> String {
    let regs: String = registers
        .iter()
        .enumerate()
        .map(|(k, c)| format!("  - {{ id: {k}, class: {c} }}\n"))
        .collect();
    format!(
        "---
name: c
tracksRegLiveness: true
registers:
{regs}liveins:
  - {{ reg: '$edi', virtual-reg: '%0' }}
body: |
  bb.0:
    liveins: $edi
{body}...
"
    )
}

/// A copy between two registers whose values never differ is joined:
/// the copy goes, the shorter interval's register is renamed, and the
/// kept register's `killed` flags go with it (as LLVM's).
#[test]
fn coalescer_joins_a_copy() {
    let mir = lowered(
        &["gr32", "gr32", "gr32"],
        "    %0:gr32 = COPY killed $edi
    %1:gr32 = COPY killed %0
    %2:gr32 = IMUL32rri killed %1, 3, implicit-def dead $eflags
    $eax = COPY killed %2
    RET 0, implicit killed $eax
",
    );
    check(
        &mir,
        &[Pass::RegisterCoalescer],
        "body:             |
  bb.0:
    liveins: $edi
  
    %1:gr32 = COPY $edi
    %2:gr32 = IMUL32rri %1, 3, implicit-def dead $eflags
    $eax = COPY %2
    RET 0, implicit killed $eax",
    );
}

/// The copy stays when the copy's destination is redefined while its
/// source is still read (the values conflict).
#[test]
fn coalescer_refuses_interfering_values() {
    let mir = lowered(
        &["gr32", "gr32", "gr32"],
        "    %0:gr32 = COPY killed $edi
    %1:gr32 = COPY %0
    %1:gr32 = ADD32ri %1, 5, implicit-def dead $eflags
    %2:gr32 = IMUL32rri killed %0, 3, implicit-def dead $eflags
    $eax = COPY killed %1
    $ecx = COPY killed %2
    RET 0, implicit killed $eax, implicit killed $ecx
",
    );
    check(
        &mir,
        &[Pass::RegisterCoalescer],
        "body:             |
  bb.0:
    liveins: $edi
  
    %0:gr32 = COPY $edi
    %1:gr32 = COPY %0
    %1:gr32 = ADD32ri %1, 5, implicit-def dead $eflags
    %2:gr32 = IMUL32rri %0, 3, implicit-def dead $eflags
    $eax = COPY %1
    $ecx = COPY %2
    RET 0, implicit killed $eax, implicit killed $ecx",
    );
}

/// Two copies in a row join into one register, the first register still
/// read after both.
#[test]
fn coalescer_joins_through_two_copies() {
    let mir = lowered(
        &["gr32", "gr32", "gr32", "gr32", "gr32"],
        "    %0:gr32 = COPY killed $edi
    %1:gr32 = COPY %0
    %2:gr32 = COPY killed %1
    %3:gr32 = IMUL32rri killed %2, 3, implicit-def dead $eflags
    %4:gr32 = IMUL32rri killed %0, 5, implicit-def dead $eflags
    $eax = COPY killed %3
    $ecx = COPY killed %4
    RET 0, implicit killed $eax, implicit killed $ecx
",
    );
    check(
        &mir,
        &[Pass::RegisterCoalescer],
        "body:             |
  bb.0:
    liveins: $edi
  
    %2:gr32 = COPY $edi
    %3:gr32 = IMUL32rri %2, 3, implicit-def dead $eflags
    %4:gr32 = IMUL32rri %2, 5, implicit-def dead $eflags
    $eax = COPY %3
    $ecx = COPY %4
    RET 0, implicit killed $eax, implicit killed $ecx",
    );
}

/// A copy of a constant into a physical register becomes the constant's
/// definition there, and the constant's own definition, now unread, goes.
#[test]
fn coalescer_rematerializes_a_constant_into_a_physical_register() {
    let mir = lowered(
        &["gr32", "gr32"],
        "    %1:gr32 = MOV32ri 7
    $eax = COPY killed %1
    RET 0, implicit killed $eax
",
    );
    check(
        &mir,
        &[Pass::RegisterCoalescer],
        "body:             |
  bb.0:
    liveins: $edi
  
    $eax = MOV32ri 7
    RET 0, implicit killed $eax",
    );
}

/// The whole path from SSA to the coalescer, beside llc's on the same
/// text: the copy for the tied operand of `SUB` and the one for the tied
/// operand of `IMUL` carry one value through both and are joined; the
/// copy of `%0`, still read by `IMUL`, stays.
#[test]
fn coalescer_after_the_whole_path() {
    check(
        TWO_ADDRESS_COPY,
        &Pass::ALL,
        "body:             |
  bb.0:
    liveins: $edi, $esi
  
    %0:gr32 = COPY $edi
    %1:gr32 = COPY $esi
    %3:gr32 = COPY %0
    %3:gr32 = SUB32rr %3, %1, implicit-def dead $eflags
    %3:gr32 = IMUL32rr %3, %0, implicit-def dead $eflags
    $eax = COPY %3
    RET 0, implicit killed $eax",
    );
}
