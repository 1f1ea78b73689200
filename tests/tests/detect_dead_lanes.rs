//! `detect-dead-lanes` on small hand-written functions: on Hexagon (whose description says liveness follows lanes) the result written here, and llc's (`llc-19 -run-pass=detect-dead-lanes` on the same text) where LLVM is installed; on x86-64, nothing.

use std::io::Write as _;

use regalloc::passes::{self, Pass, PassState};
use regalloc::target::TargetInfo;

/// Lanes flow through a COPY, two REG_SEQUENCEs and a PHI: the high half
/// of `%5` is never read (so `%4`, which only feeds it, is dead and its
/// input `undef`), nor the low half of `%11` (so `%0`, read only there,
/// is dead too); `%7` has no reader; the PHI's `IMPLICIT_DEF` input
/// defines nothing.
const LANES: &str = r"---
name: f
tracksRegLiveness: true
registers:
  - { id: 0, class: doubleregs }
  - { id: 1, class: intregs }
  - { id: 2, class: intregs }
  - { id: 3, class: predregs }
  - { id: 4, class: intregs }
  - { id: 5, class: doubleregs }
  - { id: 6, class: doubleregs }
  - { id: 7, class: intregs }
  - { id: 8, class: intregs }
  - { id: 9, class: intregs }
  - { id: 10, class: intregs }
  - { id: 11, class: doubleregs }
  - { id: 12, class: intregs }
liveins:
  - { reg: '$d0', virtual-reg: '%0' }
  - { reg: '$r2', virtual-reg: '%1' }
body: |
  bb.0:
    successors: %bb.1(0x40000000), %bb.2(0x40000000)
    liveins: $d0, $r2
    %0:doubleregs = COPY $d0
    %1:intregs = COPY $r2
    %2:intregs = IMPLICIT_DEF
    %3:predregs = C2_cmpeqi %1, 0
    %4:intregs = A2_tfrsi 7
    %5:doubleregs = REG_SEQUENCE %1, %subreg.isub_lo, %4, %subreg.isub_hi
    %6:doubleregs = COPY %5
    %7:intregs = A2_add %1, %1
    J2_jumpt %3, %bb.2, implicit-def dead $pc
    J2_jump %bb.1, implicit-def dead $pc
  bb.1:
    successors: %bb.2(0x80000000)
    %8:intregs = A2_tfrsi 1
    J2_jump %bb.2, implicit-def dead $pc
  bb.2:
    %9:intregs = PHI %2, %bb.0, %8, %bb.1
    %10:intregs = A2_add %9, %6.isub_lo
    %11:doubleregs = REG_SEQUENCE %0.isub_hi, %subreg.isub_lo, %10, %subreg.isub_hi
    %12:intregs = COPY %11.isub_hi
    $r0 = COPY %12
    PS_jmpret $r31, implicit-def dead $pc, implicit $r0
...
";

/// The `body:` of a printed function document.
fn body(doc: &str) -> String {
    let at = doc.find("body:").expect("a body");
    doc[at..]
        .trim_end_matches(['\n', '.'])
        .trim_end()
        .to_string()
}

/// Our `detect-dead-lanes` run `times` times on the one function of
/// `mir`, printed.
fn ours_times(t: &TargetInfo<'_>, mir: &str, times: usize) -> String {
    let file = regalloc::mir::read(t, "test.mir", mir);
    assert_eq!(file.errors().count(), 0);
    let mut f = file.read_functions().next().expect("a function").clone();
    for _ in 0..times {
        passes::run(t, &mut f, Pass::DetectDeadLanes, &mut PassState::default())
            .expect("the pass runs");
    }
    body(&regalloc::mir::write_function(t, &f))
}

/// Our `detect-dead-lanes` on the one function of `mir`, printed.
fn ours(t: &TargetInfo<'_>, mir: &str) -> String {
    ours_times(t, mir, 1)
}

/// The function of `mir` read and printed back, untouched.
fn unchanged(t: &TargetInfo<'_>, mir: &str) -> String {
    let file = regalloc::mir::read(t, "test.mir", mir);
    let f = file.read_functions().next().expect("a function");
    body(&regalloc::mir::write_function(t, f))
}

/// llc's body after `-run-pass=detect-dead-lanes`, read and printed by our
/// reader and writer; `None` without LLVM.
fn llcs(t: &TargetInfo<'_>, triple: &str, mir: &str) -> Option<String> {
    llcs_times(t, triple, mir, 1)
}

/// llc's body after `detect-dead-lanes` run `times` times.
fn llcs_times(t: &TargetInfo<'_>, triple: &str, mir: &str, times: usize) -> Option<String> {
    let llc = regalloc_tests::llvm_tool("llc")?;
    let dir = std::env::temp_dir().join(format!("regalloc-dead-lanes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).ok()?;
    let path = dir.join(format!("{triple}.{times}.mir"));
    std::fs::File::create(&path)
        .ok()?
        .write_all(mir.as_bytes())
        .ok()?;
    let out = std::process::Command::new(llc)
        .arg(format!("-mtriple={triple}"))
        .arg(format!(
            "-run-pass={}",
            vec!["detect-dead-lanes"; times].join(",")
        ))
        .args(["-o", "-"])
        .arg(&path)
        .output()
        .ok()?;
    assert!(
        out.status.success(),
        "llc: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).ok()?;
    let file = regalloc::mir::read(t, "llc.mir", &text);
    let f = file.read_functions().next()?.clone();
    Some(body(&regalloc::mir::write_function(t, &f)))
}

#[test]
fn dead_definitions_and_undefined_inputs_on_hexagon() {
    let t = &regalloc_targets::hexagon::TARGET;
    assert!(t.tracks_sub_reg_liveness);
    let got = ours(t, LANES);
    let want = unchanged(t, LANES)
        .replace(
            "    %0:doubleregs = COPY $d0",
            "    dead %0:doubleregs = COPY $d0",
        )
        .replace(
            "    %4:intregs = A2_tfrsi 7",
            "    dead %4:intregs = A2_tfrsi 7",
        )
        .replace(", %4, %subreg.isub_hi", ", undef %4, %subreg.isub_hi")
        .replace("    %7:intregs = A2_add", "    dead %7:intregs = A2_add")
        .replace("PHI %2, %bb.0", "PHI undef %2, %bb.0")
        .replace("REG_SEQUENCE %0.isub_hi", "REG_SEQUENCE undef %0.isub_hi");
    assert_ne!(want, unchanged(t, LANES));
    assert_eq!(got, want, "ours");
    if let Some(theirs) = llcs(t, "hexagon-unknown-linux-musl", LANES) {
        assert_eq!(got, theirs, "ours against llc's");
    }
    // Its own output is a fixed point.
    // Not idempotent, in LLVM either: run again, the `IMPLICIT_DEF` whose
    // one reader became `undef` is dead.
    let twice = ours_times(t, LANES, 2);
    assert_eq!(
        twice,
        got.replace(
            "    %2:intregs = IMPLICIT_DEF",
            "    dead %2:intregs = IMPLICIT_DEF"
        )
    );
    if let Some(theirs) = llcs_times(t, "hexagon-unknown-linux-musl", LANES, 2) {
        assert_eq!(twice, theirs, "ours twice against llc's");
    }
}

#[test]
fn nothing_where_liveness_is_by_whole_register() {
    let t = &regalloc_targets::x86::TARGET;
    assert!(!t.tracks_sub_reg_liveness);
    let mir = "---
name: g
tracksRegLiveness: true
registers:
  - { id: 0, class: gr32 }
  - { id: 1, class: gr32 }
  - { id: 2, class: gr32 }
liveins:
  - { reg: '$edi', virtual-reg: '%0' }
body: |
  bb.0:
    liveins: $edi
    %0:gr32 = COPY $edi
    %1:gr32 = IMPLICIT_DEF
    %2:gr32 = ADD32rr %0, %1, implicit-def $eflags
    $eax = COPY %0
    RET 0, implicit $eax
...
";
    let got = ours(t, mir);
    assert_eq!(got, unchanged(t, mir));
    if let Some(theirs) = llcs(t, "x86_64-linux-gnu", mir) {
        assert_eq!(got, theirs, "ours against llc's");
    }
}
