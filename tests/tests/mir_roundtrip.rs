//! Round trip of real MIR on the four targets: read -> write -> `llc-19 -verify-machineinstrs` accepts it, and read -> write -> read gives equal functions.
//!
//! Uses the `regalloc!`-generated tables of `regalloc_targets` (registers,
//! classes and instructions, so tied operands come from the `.td` files'
//! `Constraints`). Runs over the BPF fixtures in `tests/mir/bpf/` and, when
//! it exists, the developers' corpus `bench/out/corpus/<t>/{O2,O0}` for each
//! target, printing `<t> (<set>): N/N functions round-trip`. Files are
//! checked in parallel. Without `llc-19` the verifier step is skipped with a
//! notice; the in-process checks still run.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

use regalloc::mir::{self, FunctionDoc};
use regalloc::target::TargetInfo;

/// One target: its tables, its corpus directory and llc's flags for it (MIR-NOTES.md).
struct Target {
    label: &'static str,
    corpus: &'static str,
    info: &'static TargetInfo<'static>,
    llc_flags: &'static [&'static str],
}

fn bpf() -> Target {
    Target {
        label: "bpf",
        corpus: "bpf",
        info: &regalloc_targets::bpf::TARGET,
        llc_flags: &["-mtriple=bpf", "-mcpu=v3"],
    }
}

fn x86() -> Target {
    Target {
        label: "x86",
        corpus: "x86_64",
        info: &regalloc_targets::x86::TARGET,
        llc_flags: &["-mtriple=x86_64-linux-gnu", "-relocation-model=pic"],
    }
}

fn aarch64() -> Target {
    Target {
        label: "aarch64",
        corpus: "aarch64",
        info: &regalloc_targets::aarch64::TARGET,
        llc_flags: &["-mtriple=aarch64-linux-gnu", "-relocation-model=pic"],
    }
}

fn hexagon() -> Target {
    Target {
        label: "hexagon",
        corpus: "hexagon",
        info: &regalloc_targets::hexagon::TARGET,
        llc_flags: &[
            "-mtriple=hexagon-unknown-linux-musl",
            "-relocation-model=pic",
            "-machine-sink-split=0",
        ],
    }
}

/// `llc-19`, if it runs here.
fn llc() -> Option<&'static str> {
    let ok = Command::new("llc-19")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        println!("notice: llc-19 not found; skipping the machine-verifier step");
    }
    ok.then_some("llc-19")
}

/// Counts for a set of files.
#[derive(Default)]
struct Tally {
    files: usize,
    functions: usize,
    ok: usize,
    /// Files whose llc output equals the input (canonical inputs only).
    identical: usize,
    failures: Vec<String>,
}

/// The text after the `; ModuleID = ...` line, which names the file llc read.
fn without_module_id(s: &str) -> String {
    s.lines()
        .filter(|l| !l.trim_start().starts_with("; ModuleID"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn round_trip(t: &Target, path: &Path, llc: Option<&str>, tmp: &Path, k: usize) -> Tally {
    let target = t.info;
    let mut tally = Tally::default();
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).unwrap();
    let first = mir::read(target, &name, &text);
    let out = mir::write(target, &first);
    let second = mir::read(target, "written", &out);
    tally.files = 1;
    let mut good = vec![true; first.functions.len()];
    for (k, (a, b)) in first.functions.iter().zip(&second.functions).enumerate() {
        match (a, b) {
            (FunctionDoc::Read(a), FunctionDoc::Read(b)) if a == b => {}
            (FunctionDoc::Failed { error, .. }, _) => {
                tally.failures.push(error.to_string());
                good[k] = false;
            }
            (FunctionDoc::Read(a), FunctionDoc::Failed { error, .. }) => {
                tally.failures.push(format!(
                    "{name}: function '{}' does not re-read after write: {error}",
                    a.name
                ));
                good[k] = false;
            }
            (FunctionDoc::Read(a), _) => {
                tally.failures.push(format!(
                    "{name}: function '{}' differs after write and re-read",
                    a.name
                ));
                good[k] = false;
            }
        }
    }
    if first.functions.len() != second.functions.len() {
        tally
            .failures
            .push(format!("{name}: function count changed on re-read"));
        good.iter_mut().for_each(|g| *g = false);
    }
    if let Some(llc) = llc {
        let written = tmp.join(format!(
            "{k}.{}.mir",
            path.file_stem().unwrap().to_string_lossy()
        ));
        std::fs::write(&written, &out).unwrap();
        let res = Command::new(llc)
            .args(t.llc_flags)
            .args(["-run-pass=none", "-verify-machineinstrs", "-o", "-"])
            .arg(&written)
            .output()
            .unwrap();
        let _ = std::fs::remove_file(&written);
        if !res.status.success() {
            let err = String::from_utf8_lossy(&res.stderr);
            tally.failures.push(format!(
                "{name}: llc rejects the written file:\n{}",
                err.lines().take(8).collect::<Vec<_>>().join("\n")
            ));
            good.iter_mut().for_each(|g| *g = false);
        } else if without_module_id(&String::from_utf8_lossy(&res.stdout))
            == without_module_id(&text)
        {
            tally.identical += 1;
        }
    }
    tally.functions = good.len();
    tally.ok = good.iter().filter(|&&g| g).count();
    tally
}

fn mir_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = rd.map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            mir_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "mir") {
            out.push(p);
        }
    }
}

/// Round-trips every `.mir` file under `dir`, files in parallel.
fn run(t: &Target, set: &str, dir: &Path) -> Tally {
    let mut files = Vec::new();
    mir_files(dir, &mut files);
    // Largest first, so that the slowest files do not end up last.
    files.sort_by_key(|f| std::cmp::Reverse(f.metadata().map(|m| m.len()).unwrap_or(0)));
    let llc = llc();
    let tmp = std::env::temp_dir().join(format!(
        "regalloc-mir-roundtrip-{}-{}-{}",
        t.label,
        set.replace(' ', "-"),
        std::process::id()
    ));
    std::fs::create_dir_all(&tmp).unwrap();
    let next = Mutex::new(0usize);
    let total = Mutex::new(Tally::default());
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                loop {
                    let k = {
                        let mut n = next.lock().unwrap();
                        *n += 1;
                        *n - 1
                    };
                    let Some(f) = files.get(k) else { break };
                    let one = round_trip(t, f, llc, &tmp, k);
                    let mut tot = total.lock().unwrap();
                    tot.files += one.files;
                    tot.functions += one.functions;
                    tot.ok += one.ok;
                    tot.identical += one.identical;
                    tot.failures.extend(one.failures);
                }
            });
        }
    });
    let _ = std::fs::remove_dir_all(&tmp);
    let mut t_all = total.into_inner().unwrap();
    t_all.failures.sort();
    for f in t_all.failures.iter().take(20) {
        println!("FAIL {f}");
    }
    println!(
        "{} ({set}): {}/{} functions round-trip ({} files; {} byte-identical after llc)",
        t.label, t_all.ok, t_all.functions, t_all.files, t_all.identical
    );
    t_all
}

/// The corpus sets of one target; a notice and nothing checked without the corpus.
fn corpus(t: Target) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../bench/out/corpus")
        .join(t.corpus);
    if !root.is_dir() {
        println!(
            "notice: no corpus at {}; skipping (build it with python3 bench/corpus/build)",
            root.display()
        );
        return;
    }
    let mut failures = Vec::new();
    for set in ["O2", "O0"] {
        let dir = root.join(set);
        if !dir.is_dir() {
            println!("notice: no {} corpus for {}", set, t.label);
            continue;
        }
        let tally = run(&t, &format!("corpus {set}"), &dir);
        if tally.ok != tally.functions {
            failures.push(format!(
                "{} {set}: {}/{} functions round-trip; first failures:\n{}",
                t.label,
                tally.ok,
                tally.functions,
                tally
                    .failures
                    .iter()
                    .take(5)
                    .cloned()
                    .collect::<Vec<_>>()
                    .join("\n")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn bpf_fixtures_round_trip() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("mir/bpf");
    let t = run(&bpf(), "fixtures", &dir);
    assert!(
        t.functions >= 60,
        "expected the committed fixtures, found {} functions",
        t.functions
    );
    assert_eq!(t.ok, t.functions, "{:#?}", t.failures);
}

#[test]
fn bpf_corpus_round_trip() {
    corpus(bpf());
}

#[test]
fn x86_corpus_round_trip() {
    corpus(x86());
}

#[test]
fn aarch64_corpus_round_trip() {
    corpus(aarch64());
}

#[test]
fn hexagon_corpus_round_trip() {
    corpus(hexagon());
}

/// The IR module and frame of the memory-operand oracle: a pointer
/// argument, an alloca, a global, and metadata of every kind an operand
/// or an attribute names (type-based alias information, scopes, a range,
/// a location).
const ORACLE_HEADER: &str = r#"--- |
  @g = global i32 0
  define i32 @f(ptr %p) !dbg !10 {
    %x = alloca i32, align 4
    %v = load i32, ptr %p, !tbaa !20, !alias.scope !30, !noalias !30, !range !40, !dbg !12
    ret i32 %v
  }
  !llvm.dbg.cu = !{!0}
  !llvm.module.flags = !{!3}
  !0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, emissionKind: FullDebug)
  !1 = !DIFile(filename: "a.c", directory: "/")
  !3 = !{i32 2, !"Debug Info Version", i32 3}
  !10 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !11, unit: !0, spFlags: DISPFlagDefinition)
  !11 = !DISubroutineType(types: !{})
  !12 = !DILocation(line: 2, column: 3, scope: !10)
  !20 = !{!21, !21, i64 0}
  !21 = !{!"int", !22}
  !22 = !{!"tbaa"}
  !30 = !{!31}
  !31 = distinct !{!31, !32}
  !32 = distinct !{!32}
  !40 = !{i32 0, i32 10}
...
---
name:            f
tracksRegLiveness: true
registers:
  - { id: 0, class: gr64 }
  - { id: 1, class: gr32 }
  - { id: 2, class: gr32 }
liveins:
  - { reg: '$rdi', virtual-reg: '%0' }
fixedStack:
  - { id: 0, type: default, offset: 16, size: 8, alignment: 16, isImmutable: true }
stack:
  - { id: 0, name: '', type: default, offset: 0, size: 4, alignment: 4 }
  - { id: 1, name: x, type: default, offset: 0, size: 4, alignment: 4 }
body:             |
  bb.0:
    liveins: $rdi
    %0:gr64 = COPY $rdi
"#;

/// Memory operands of every form, some spelled as LLVM does not print
/// them (a byte count, an alignment LLVM leaves out, metadata out of
/// order).
const ORACLE_OPERANDS: &[&str] = &[
    "(load (s32) from %ir.p, !tbaa !20)",
    "(load 4 from %ir.p + 4, align 4)",
    "(load (s24) from %ir.p)",
    "(load unknown-size from %ir.p)",
    "(load (s64) from %ir.p + 4)",
    "(load (<2 x s32>) from %ir.p, align 4)",
    "(load (<2 x p0>) from %ir.p)",
    "(load (p0) from @g)",
    "(load (s32) from @g + 8, basealign 16)",
    "(volatile non-temporal dereferenceable invariant load (s32) from %ir.p)",
    "(load syncscope(\"singlethread\") seq_cst (s32) from %ir.p)",
    "(load store acq_rel monotonic (s32) on %ir.p)",
    "(store release (s32) into %ir.p, !alias.scope !30, !noalias !30)",
    "(load (s32) from %ir.p, !range !40, !tbaa !20)",
    "(load (s32) from %stack.0)",
    "(load (s32) from %stack.1.x + 4)",
    "(load (s32) from %fixed-stack.0, align 16)",
    "(load (s32) from constant-pool)",
    "(load (s32) from got)",
    "(load (s32) from jump-table)",
    "(store (s32) into stack + 8)",
    "(load (s32) from call-entry @g)",
    "(load (s32) from call-entry &memcpy)",
    "(load (s32) from `ptr getelementptr inbounds (i8, ptr @g, i64 4)`)",
    "(load (s32) from unknown-address + 4)",
    "(load (s32) from unknown-address)",
    "(load (s32), addrspace 3)",
    "(load (s32), addrspace 0)",
    "(load (s32) from %ir.p + 8, align 8, basealign 16)",
    "(load (s32) from %ir.x - 4)",
    "(invariant volatile load (s32) from %ir.p)",
    "(load unordered (s32) from %ir.p), (store (s32) into %ir.p)",
];

/// Operands whose alignment LLVM infers from the access size, which the
/// reader keeps as written instead (the size of `p0` is the data
/// layout's, which the reader does not know).
const ALIGNMENT_AS_WRITTEN: &[&str] = &[
    "(load 4 from %ir.p + 4, align 4)",
    "(load (s24) from %ir.p)",
    "(load unknown-size from %ir.p)",
    "(load (s64) from %ir.p + 4)",
    "(load (s32) from @g + 8, basealign 16)",
];

/// The oracle function: one instruction per operand (a load, a store or a
/// read-modify-write, as the operand says), then instructions with every
/// attribute and instruction flags.
fn oracle_function() -> String {
    let mut text = ORACLE_HEADER.to_string();
    for op in ORACLE_OPERANDS {
        let inst = if op.contains("load store") || op.contains("), (store") {
            "ADD32mr %0, 1, $noreg, 0, $noreg, %1, implicit-def dead $eflags"
        } else if op.starts_with("(store") {
            "MOV32mr %0, 1, $noreg, 0, $noreg, %1"
        } else {
            "%1:gr32 = MOV32rm %0, 1, $noreg, 0, $noreg"
        };
        text.push_str(&format!("    {inst} :: {op}\n"));
    }
    text.push_str(
        "    %1:gr32 = MOV32rm %0, 1, $noreg, 0, $noreg, pre-instr-symbol <mcsymbol .Lpre>, post-instr-symbol <mcsymbol .Lpost>, heap-alloc-marker !22, cfi-type 7, debug-instr-number 5, debug-location !12 :: (load (s32) from %ir.p)
    %1:gr32 = MOV32rm %0, 1, $noreg, 0, $noreg, debug-location !DILocation(line: 4, column: 1, scope: !10)
    %1:gr32 = MOV32rm %0, 1, $noreg, 0, $noreg, cfi-type 0, debug-instr-number 0
    %2:gr32 = nuw nsw ADD32rr %1, %1, implicit-def dead $eflags, debug-instr-number 6
    $eax = COPY %2
    RET 0, $eax
...
",
    );
    text
}

/// The instruction lines of a function's body.
fn body_lines(text: &str) -> Vec<&str> {
    let body = text.split("\nbody:").nth(1).unwrap_or("");
    body.lines()
        .filter(|l| l.starts_with("    ") && !l.trim_start().starts_with("liveins:"))
        .collect()
}

/// Memory operands and instruction attributes of every form, held to
/// llc-19: what llc prints for them reads and prints back byte for byte,
/// and the reader's own printing of the original spelling is llc's
/// (metadata numbers aside, which llc renumbers with its module), but for
/// the alignments it keeps as written. Skipped without llc-19.
#[test]
fn memory_operands_and_attributes_print_as_llc_prints_them() {
    let Some(llc) = llc() else { return };
    let t = x86();
    let input = oracle_function();
    let tmp = std::env::temp_dir().join(format!("regalloc-mem-oracle-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let path = tmp.join("oracle.mir");
    std::fs::write(&path, &input).unwrap();
    let out = Command::new(llc)
        .args(t.llc_flags)
        .args(["-run-pass=none", "-o", "-"])
        .arg(&path)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(
        out.status.success(),
        "llc rejects the oracle: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let canonical = String::from_utf8(out.stdout).unwrap();

    // llc's printing reads and prints back unchanged.
    let file = mir::read(t.info, "oracle.mir", &canonical);
    assert_eq!(
        file.errors().count(),
        0,
        "{:?}",
        file.errors().collect::<Vec<_>>()
    );
    let ours = mir::write(t.info, &file);
    assert!(body_lines(&canonical).len() > ORACLE_OPERANDS.len());
    assert_eq!(body_lines(&ours), body_lines(&canonical));

    // The original spellings print as llc prints them.
    let file = mir::read(t.info, "oracle.mir", &input);
    assert_eq!(
        file.errors().count(),
        0,
        "{:?}",
        file.errors().collect::<Vec<_>>()
    );
    let ours = mir::write(t.info, &file);
    let (ours, theirs, given) = (
        body_lines(&ours),
        body_lines(&canonical),
        body_lines(&input),
    );
    assert_eq!(ours.len(), theirs.len());
    for ((o, l), g) in ours.iter().zip(&theirs).zip(&given) {
        if ALIGNMENT_AS_WRITTEN.iter().any(|a| g.ends_with(a)) {
            let written = g.replace(":: (load 4 ", ":: (load (s32) ");
            assert_eq!(*o, written, "llc prints {l}");
        } else if !g.contains('!') {
            assert_eq!(o, l, "given {g}");
        }
    }
}
