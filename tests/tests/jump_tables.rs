//! Jump tables through the reader, the allocators, the writer and the checker: entries keep naming the blocks they named while block numbers change, the `jumpTable:` key is printed byte for byte as `llc-19 -run-pass=none` prints it, and the checker sees table edges and changed tables.
//!
//! The MIR writer numbers blocks in layout order, as llc does; a table
//! copied as it was read named the wrong blocks wherever the input's
//! numbers were not in layout order (issue 25: `jt.c` ran wrong, Lua's
//! and SQLite's objects did not assemble). The reproducers
//! `tests/data/jt.in.mir` and `tests/data/jumptable-lua_rawlen.in.mir`
//! are checked against the input's own text (no LLVM needed); every
//! corpus and held-out function that has a table is allocated and its
//! table compared with llc's round trip of the input. Prints:
//!
//! ```text
//! jump tables: F files, N functions (T tables, E entries), A allocations checked; A tables equal to llc's, byte for byte
//! ```

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use regalloc::check::{CheckErrorKind, check};
use regalloc::ir::{MachineFunction, Operand, RegRef};
use regalloc::mir::{self, FunctionDoc};
use regalloc::target::TargetInfo;
use regalloc::{AllocRecord, Allocator, Options, allocate_recorded};
use regalloc_tests::corpus_alloc::{mir_files, targets};

fn x86() -> &'static TargetInfo<'static> {
    &regalloc_targets::x86::TARGET
}

const X86_FLAGS: &[&str] = &["-mtriple=x86_64-linux-gnu", "-relocation-model=pic"];

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(name)
}

// ---------------------------------------------------------------------------
// MIR text, read without the reader under test.
// ---------------------------------------------------------------------------

/// The function documents of a MIR file: (name, text from `---` to the
/// next document).
fn documents(text: &str) -> Vec<(String, String)> {
    let mut docs: Vec<(String, String)> = Vec::new();
    let mut current: Option<String> = None;
    for line in text.split_inclusive('\n') {
        if line.starts_with("---") {
            if let Some(d) = current.take() {
                docs.push((String::new(), d));
            }
            // The IR module's document is not a function.
            if !line.contains('|') {
                current = Some(String::new());
            }
        }
        if let Some(d) = &mut current {
            d.push_str(line);
        }
    }
    docs.extend(current.map(|d| (String::new(), d)));
    for (name, d) in &mut docs {
        *name = d
            .lines()
            .find_map(|l| l.strip_prefix("name:"))
            .map_or(String::new(), |n| n.trim().trim_matches('\'').to_string());
    }
    docs
}

/// The lines of a document's `jumpTable:` key.
fn jump_table_text(doc: &str) -> Option<String> {
    let mut lines = doc
        .split_inclusive('\n')
        .skip_while(|l| !l.starts_with("jumpTable:"));
    let first = lines.next()?;
    let rest: String = lines.take_while(|l| l.starts_with(' ')).collect();
    Some(format!("{first}{rest}"))
}

/// The block numbers of each entry of a `jumpTable:` text.
fn table_entries(jt: &str) -> Vec<Vec<u32>> {
    let mut out: Vec<Vec<u32>> = Vec::new();
    for line in jt.lines() {
        if line.trim_start().starts_with("- id:") {
            out.push(Vec::new());
        }
        for piece in line.split("'%bb.").skip(1) {
            let n: String = piece.chars().take_while(char::is_ascii_digit).collect();
            if let (Some(entry), Ok(n)) = (out.last_mut(), n.parse()) {
                entry.push(n);
            }
        }
    }
    out
}

/// The block headers of a document's body in layout order: (number, the
/// rest of the header line).
fn block_headers(doc: &str) -> Vec<(u32, String)> {
    doc.lines()
        .filter_map(|l| l.strip_prefix("  bb."))
        .map(|rest| {
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            (
                digits.parse().expect("block number"),
                rest[digits.len()..].to_string(),
            )
        })
        .collect()
}

/// Each entry of the input document's table with its blocks renumbered
/// into layout order: what any correct output must list.
fn expected_in_layout_numbers(input_doc: &str) -> Vec<Vec<u32>> {
    let position: HashMap<u32, u32> = block_headers(input_doc)
        .into_iter()
        .enumerate()
        .map(|(k, (n, _))| (n, k as u32))
        .collect();
    let jt = jump_table_text(input_doc).expect("the input has a table");
    table_entries(&jt)
        .into_iter()
        .map(|e| e.iter().map(|n| position[n]).collect())
        .collect()
}

// ---------------------------------------------------------------------------
// Allocation and llc.
// ---------------------------------------------------------------------------

/// What allocating a file's functions that have tables gave.
struct Allocated {
    /// The whole file as written after allocation.
    text: String,
    /// Functions with a table that were allocated and checked.
    functions: usize,
    /// Their tables and entries.
    tables: usize,
    entries: usize,
    /// Reader, allocation and checker errors, one line each.
    errors: Vec<String>,
}

/// Reads `text`, allocates with `allocator` and checks every function that
/// has a jump table, and writes the file.
fn allocate_tables(t: &TargetInfo<'_>, label: &str, text: &str, allocator: Allocator) -> Allocated {
    let mut file = mir::read(t, label, text);
    let mut out = Allocated {
        text: String::new(),
        functions: 0,
        tables: 0,
        entries: 0,
        errors: file.errors().map(|e| e.to_string()).collect(),
    };
    let options = Options {
        allocator,
        check: false,
    };
    for doc in &mut file.functions {
        let FunctionDoc::Read(f) = doc else { continue };
        let Some(jt) = f.jump_tables.clone() else {
            continue;
        };
        let original = f.clone();
        match allocate_recorded(t, f, &options) {
            Ok((_, record)) => {
                if let Err(e) = check(t, &original, f, &record) {
                    out.errors.push(format!("{label}: {}: {}", f.name, e[0]));
                }
                out.functions += 1;
                out.tables += jt.tables.len();
                out.entries += jt.tables.iter().map(|t| t.blocks.len()).sum::<usize>();
            }
            Err(e) => {
                out.errors.push(format!("{label}: {}: {e}", f.name));
                *f = original;
            }
        }
    }
    out.text = mir::write(t, &file);
    out
}

/// `llc-19 -run-pass=none` of `path`: the input with blocks and tables
/// renumbered by LLVM.
fn llc_round_trip(llc: &Path, flags: &[&str], path: &Path) -> Result<String, String> {
    let out = Command::new(llc)
        .args(["-run-pass=none", "-o", "-"])
        .args(flags)
        .arg(path)
        .output()
        .map_err(|e| format!("cannot run llc: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "llc failed on {}: {}",
            path.display(),
            regalloc_tests::first_lines(&String::from_utf8_lossy(&out.stderr), 4)
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The differences between the `jumpTable:` keys of `ours` and `llc`'s, by
/// function: byte for byte, and (for a clearer message) as blocks by id
/// once the two layouts are known to be the same. Returns the number of
/// functions compared.
fn compare_with_llc(ours: &str, llc: &str, label: &str, problems: &mut Vec<String>) -> usize {
    let theirs: HashMap<String, String> = documents(llc).into_iter().collect();
    let mut compared = 0;
    for (name, doc) in documents(ours) {
        let Some(our_table) = jump_table_text(&doc) else {
            continue;
        };
        compared += 1;
        let Some(their_doc) = theirs.get(&name) else {
            problems.push(format!("{label}: {name}: not in llc's output"));
            continue;
        };
        let their_table = jump_table_text(their_doc).unwrap_or_default();
        if our_table == their_table {
            continue;
        }
        let headers = |d: &str| -> Vec<String> {
            block_headers(d).into_iter().map(|(_, rest)| rest).collect()
        };
        let detail = if headers(&doc) != headers(their_doc) {
            "block layouts differ".to_string()
        } else if table_entries(&our_table) != table_entries(&their_table) {
            format!(
                "blocks {:?}, llc's {:?}",
                table_entries(&our_table),
                table_entries(&their_table)
            )
        } else {
            format!("same blocks, different text:\n{our_table}llc's:\n{their_table}")
        };
        problems.push(format!("{label}: {name}: {detail}"));
    }
    compared
}

// ---------------------------------------------------------------------------
// The reproducers.
// ---------------------------------------------------------------------------

/// jt.c's two switches and Lua's `lua_rawlen`, whose blocks are not
/// numbered in layout order: after allocation with each allocator, the
/// tables list the layout positions of the blocks the input named, and
/// (with llc) are exactly llc's.
#[test]
fn reproducers_jump_to_the_blocks_they_named() {
    let llc = regalloc_tests::llvm_tool("llc");
    if llc.is_none() {
        regalloc_tests::skip_or_fail("llc-19: the comparison with llc's round trip");
    }
    for file in ["jt.in.mir", "jumptable-lua_rawlen.in.mir"] {
        let path = data(file);
        let text = std::fs::read_to_string(&path).expect("reproducer");
        let inputs: HashMap<String, String> = documents(&text).into_iter().collect();
        let renumbered = inputs
            .values()
            .filter(|d| jump_table_text(d).is_some())
            .any(|d| {
                let order: Vec<u32> = block_headers(d).into_iter().map(|(n, _)| n).collect();
                order.iter().enumerate().any(|(k, &n)| n != k as u32)
            });
        assert!(
            renumbered,
            "{file}: a table's function is not in layout order"
        );
        let theirs = llc
            .as_ref()
            .map(|l| llc_round_trip(l, X86_FLAGS, &path).expect("llc"));
        for allocator in [Allocator::Greedy, Allocator::Basic, Allocator::Fast] {
            let out = allocate_tables(x86(), file, &text, allocator);
            assert!(out.errors.is_empty(), "{:?}", out.errors);
            let mut with_tables = 0;
            for (name, doc) in documents(&out.text) {
                let Some(jt) = jump_table_text(&doc) else {
                    continue;
                };
                with_tables += 1;
                assert_eq!(
                    table_entries(&jt),
                    expected_in_layout_numbers(&inputs[&name]),
                    "{file}: {name} ({})",
                    allocator.name()
                );
            }
            assert_eq!(with_tables, out.functions);
            assert!(with_tables > 0);
            if let Some(theirs) = &theirs {
                let mut problems = Vec::new();
                compare_with_llc(&out.text, theirs, file, &mut problems);
                assert!(problems.is_empty(), "{problems:#?}");
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Every corpus function with a table.
// ---------------------------------------------------------------------------

/// One set of MIR to sweep: a directory, its target, llc's flags, and the
/// allocators to run.
struct Sweep {
    dir: PathBuf,
    target: &'static TargetInfo<'static>,
    flags: &'static [&'static str],
    allocators: &'static [Allocator],
}

fn sweeps() -> Vec<Sweep> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../bench/out");
    let mut out = Vec::new();
    for (_, dir, t, flags, _) in targets() {
        for set in ["corpus", "heldout"] {
            for (level, allocators) in [
                ("O2", &[Allocator::Greedy][..]),
                ("O0", &[Allocator::Greedy, Allocator::Fast][..]),
            ] {
                out.push(Sweep {
                    dir: root.join(set).join(dir).join(level),
                    target: t,
                    flags,
                    allocators,
                });
            }
        }
    }
    out
}

#[derive(Default)]
struct Totals {
    files: usize,
    functions: usize,
    allocations: usize,
    tables: usize,
    entries: usize,
    equal: usize,
    problems: Vec<String>,
}

/// Every function with a jump table in the four targets' corpus and
/// held-out sets (-O2 with Greedy, -O0 with Greedy and Fast) is allocated
/// and checked, and its `jumpTable:` is llc's round trip's, byte for byte.
#[test]
fn every_corpus_table_matches_llc_after_allocation() {
    let Some(llc) = regalloc_tests::require_llvm_tool("llc") else {
        return;
    };
    let mut work: Vec<(PathBuf, &Sweep)> = Vec::new();
    let sweeps = sweeps();
    for s in &sweeps {
        for p in mir_files(&s.dir) {
            if std::fs::read_to_string(&p).is_ok_and(|t| t.contains("\njumpTable:")) {
                work.push((p, s));
            }
        }
    }
    if work.is_empty() {
        assert!(!regalloc_tests::in_ci(), "no corpus on CI");
        println!("skipped: no corpus under bench/out");
        return;
    }
    let totals = Mutex::new(Totals::default());
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                while let Some((path, s)) = work.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let label = path.display().to_string();
                    let text = std::fs::read_to_string(path).expect("corpus file");
                    let theirs = llc_round_trip(&llc, s.flags, path);
                    let mut local = Totals {
                        files: 1,
                        ..Totals::default()
                    };
                    for (k, &allocator) in s.allocators.iter().enumerate() {
                        let out = allocate_tables(s.target, &label, &text, allocator);
                        local.problems.extend(out.errors);
                        local.allocations += out.functions;
                        if k == 0 {
                            local.functions += out.functions;
                            local.tables += out.tables;
                            local.entries += out.entries;
                        }
                        match &theirs {
                            Ok(theirs) => {
                                let before = local.problems.len();
                                let label = format!("{label} ({})", allocator.name());
                                let n = compare_with_llc(
                                    &out.text,
                                    theirs,
                                    &label,
                                    &mut local.problems,
                                );
                                local.equal += n - (local.problems.len() - before);
                            }
                            Err(e) => local.problems.push(e.clone()),
                        }
                    }
                    let mut t = totals.lock().unwrap();
                    t.files += local.files;
                    t.functions += local.functions;
                    t.allocations += local.allocations;
                    t.tables += local.tables;
                    t.entries += local.entries;
                    t.equal += local.equal;
                    t.problems.extend(local.problems);
                }
            });
        }
    });
    let t = totals.into_inner().unwrap();
    println!(
        "jump tables: {} files, {} functions ({} tables, {} entries), {} allocations checked; {} tables equal to llc's, byte for byte",
        t.files, t.functions, t.tables, t.entries, t.allocations, t.equal
    );
    for p in t.problems.iter().take(20) {
        println!("  {p}");
    }
    assert!(t.problems.is_empty(), "{} problems", t.problems.len());
    assert_eq!(t.equal, t.allocations);
}

// ---------------------------------------------------------------------------
// The format: every kind, long lists, ids.
// ---------------------------------------------------------------------------

/// Reads and writes `text` without allocating.
fn read_write(text: &str) -> String {
    let file = mir::read(x86(), "t.mir", text);
    let errors: Vec<String> = file.errors().map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}");
    mir::write(x86(), &file)
}

/// Runs llc on `text` (written to a temporary file).
fn llc_on_text(llc: &Path, text: &str, name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("regalloc-jt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("temporary file");
    let out = llc_round_trip(llc, X86_FLAGS, &path).expect("llc accepts the file");
    let _ = std::fs::remove_file(&path);
    out
}

/// Every entry kind LLVM 19 prints, a table of 150 entries (block numbers
/// of one to two digits, so lines wrap at every width), an empty entry and
/// ids out of order (which llc renumbers by position, operands too): our
/// read and write give llc's text.
#[test]
fn every_kind_and_long_tables_print_as_llc_prints_them() {
    let Some(llc) = regalloc_tests::require_llvm_tool("llc") else {
        return;
    };
    let base = std::fs::read_to_string(data("jt.in.mir")).expect("reproducer");
    let kind_line = "  kind:            label-difference32\n";
    assert_eq!(base.matches(kind_line).count(), 2);
    for kind in regalloc::ir::JumpTableKind::ALL {
        let text = base.replace(kind_line, &format!("  kind:            {}\n", kind.name()));
        let ours = read_write(&text);
        let mut problems = Vec::new();
        let n = compare_with_llc(
            &ours,
            &llc_on_text(&llc, &text, "kind.mir"),
            kind.name(),
            &mut problems,
        );
        assert_eq!(n, 2);
        assert!(problems.is_empty(), "{problems:#?}");
    }
    // f1 has blocks bb.0 to bb.16.
    let f1_entry = "    - id:              0\n      blocks:          [ '%bb.6', '%bb.7', '%bb.8', '%bb.9', '%bb.10', \n                         '%bb.11', '%bb.12' ]\n";
    assert_eq!(base.matches(f1_entry).count(), 1);
    let long: Vec<String> = (0..150)
        .map(|k| format!("'%bb.{}'", (k * 7 + 3) % 17))
        .collect();
    let entries = format!(
        "    - id:              4\n      blocks:          [ {} ]\n    - id:              9\n      blocks:          []\n    - id:              2\n      blocks:          [ '%bb.16' ]\n",
        long.join(", ")
    );
    let text = base.replace(f1_entry, &entries).replacen(
        "%jump-table.0, $noreg",
        "%jump-table.4, $noreg",
        1,
    );
    let ours = read_write(&text);
    let mut problems = Vec::new();
    let n = compare_with_llc(
        &ours,
        &llc_on_text(&llc, &text, "long.mir"),
        "long",
        &mut problems,
    );
    assert_eq!(n, 2);
    assert!(problems.is_empty(), "{problems:#?}");
    let f1 = &documents(&ours)[0].1;
    assert!(f1.contains("%jump-table.0, $noreg"), "operand renumbered");
    assert!(jump_table_text(f1).unwrap().lines().count() > 20, "wrapped");
}

// ---------------------------------------------------------------------------
// Reader errors.
// ---------------------------------------------------------------------------

/// A switch through a two-entry table; bb.2 is laid out before bb.1.
const SWITCH: &str = "---
name:            f
tracksRegLiveness: true
liveins:
  - { reg: '$rdi', virtual-reg: '%0' }
  - { reg: '$esi', virtual-reg: '%3' }
jumpTable:
  kind:            label-difference32
  entries:
    - id:              0
      blocks:          [ '%bb.2', '%bb.1' ]
body:             |
  bb.0:
    successors: %bb.1, %bb.2
    liveins: $rdi, $esi
  
    %0:gr64_nosp = COPY $rdi
    %3:gr32 = COPY $esi
    %1:gr64 = LEA64r $rip, 1, $noreg, %jump-table.0, $noreg
    %2:gr64 = MOVSX64rm32 %1, 4, %0, 0, $noreg :: (load (s32) from jump-table)
    %2:gr64 = ADD64rr %2, %1, implicit-def dead $eflags
    JMP64r %2
  
  bb.2:
    $eax = MOV32ri 2
    RET64 implicit $eax
  
  bb.1:
    $eax = COPY %3
    RET64 implicit $eax
...
";

fn read_switch(text: &str) -> MachineFunction {
    let file = mir::read(x86(), "t.mir", text);
    let errors: Vec<String> = file.errors().map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}");
    file.read_functions().next().expect("f").clone()
}

/// The single error of reading SWITCH with `from` replaced by `to`.
fn switch_error(from: &str, to: &str) -> String {
    assert!(SWITCH.contains(from), "{from}");
    let file = mir::read(x86(), "t.mir", &SWITCH.replacen(from, to, 1));
    let errors: Vec<String> = file.errors().map(|e| e.to_string()).collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    errors[0].clone()
}

#[test]
fn the_switch_reads_and_llc_agrees() {
    let f = read_switch(SWITCH);
    let jt = f.jump_tables.as_ref().expect("a table");
    assert_eq!(jt.kind, regalloc::ir::JumpTableKind::LabelDifference32);
    let blocks: Vec<u32> = jt.tables[0].blocks.iter().map(|b| b.0).collect();
    assert_eq!(blocks, [1, 2], "bb.2 is at position 1, bb.1 at 2");
    let ours = mir::write_function(x86(), &f);
    assert!(
        ours.contains("      blocks:          [ '%bb.1', '%bb.2' ]\n"),
        "{ours}"
    );
    if let Some(llc) = regalloc_tests::require_llvm_tool("llc") {
        let mut problems = Vec::new();
        compare_with_llc(
            &ours,
            &llc_on_text(&llc, SWITCH, "switch.mir"),
            "switch",
            &mut problems,
        );
        assert!(problems.is_empty(), "{problems:#?}");
    }
}

#[test]
fn an_undefined_block_in_a_table_is_an_error_at_it() {
    assert_eq!(
        switch_error("[ '%bb.2', '%bb.1' ]", "[ '%bb.2', '%bb.99' ]"),
        "t.mir:11:35: error: in function 'f': use of undefined machine basic block '%bb.99'"
    );
}

#[test]
fn a_malformed_entry_is_an_error_at_it() {
    assert_eq!(
        switch_error("[ '%bb.2', '%bb.1' ]", "[ '%bb.2', 'bb.1' ]"),
        "t.mir:11:35: error: in function 'f': expected a block reference '%bb.N', found 'bb.1'"
    );
    assert_eq!(
        switch_error("[ '%bb.2', '%bb.1' ]", "[ '%bb.2x' ]"),
        "t.mir:11:26: error: in function 'f': expected a block reference '%bb.N', found '%bb.2x'"
    );
    assert_eq!(
        switch_error("    - id:              0\n      blocks:", "    - blocks:"),
        "t.mir:10:7: error: in function 'f': jump table entry has no 'id'"
    );
    assert_eq!(
        switch_error(
            "    - id:              0\n",
            "    - id:              0\n      size:            2\n"
        ),
        "t.mir:11:7: error: in function 'f': unknown key 'size' in jump table entry"
    );
    assert_eq!(
        switch_error("    - id:              0\n", "    - id:              x\n"),
        "t.mir:10:24: error: in function 'f': expected a jump table id"
    );
    assert_eq!(
        switch_error("[ '%bb.2', '%bb.1' ]", "'%bb.2'"),
        "t.mir:11:24: error: in function 'f': expected a list of blocks"
    );
}

#[test]
fn a_duplicate_id_is_an_error_at_the_second() {
    assert_eq!(
        switch_error(
            "      blocks:          [ '%bb.2', '%bb.1' ]\n",
            "      blocks:          [ '%bb.2', '%bb.1' ]\n    - id:              0\n      blocks:          [ '%bb.1' ]\n"
        ),
        "t.mir:12:24: error: in function 'f': redefinition of jump table entry '%jump-table.0'"
    );
}

#[test]
fn kinds_keys_and_operands_are_checked() {
    assert_eq!(
        switch_error("label-difference32", "label-difference16"),
        "t.mir:8:20: error: in function 'f': unknown jump table kind 'label-difference16' (expected one of block-address, gp-rel64-block-address, gp-rel32-block-address, label-difference32, label-difference64, inline, custom32)"
    );
    assert_eq!(
        switch_error("  kind:            label-difference32\n", ""),
        "t.mir:8:3: error: in function 'f': jump table has no 'kind'"
    );
    assert_eq!(
        switch_error("  entries:\n", "  align: 4\n  entries:\n"),
        "t.mir:9:3: error: in function 'f': unknown key 'align' in jump table"
    );
    assert_eq!(
        switch_error("%jump-table.0, $noreg", "%jump-table.1, $noreg"),
        "t.mir:19:39: error: in function 'f': use of undefined jump table '%jump-table.1'"
    );
    assert_eq!(
        switch_error("'%bb.2', '%bb.1'", "'%bb.2.if', '%bb.1'"),
        "t.mir:11:26: error: in function 'f': the name of machine basic block '%bb.2' isn't 'if'"
    );
}

// ---------------------------------------------------------------------------
// The checker.
// ---------------------------------------------------------------------------

/// `f` with each virtual register replaced by the physical register
/// `assign` names for it.
fn assign(f: &MachineFunction, assign: &[(u32, &str)]) -> MachineFunction {
    let t = x86();
    let mut a = f.clone();
    for d in &mut a.insts {
        for o in &mut d.operands {
            if let Operand::Reg(r) = o
                && let RegRef::Virt(v) = r.reg
            {
                let name = assign.iter().find(|(n, _)| *n == v.0).expect("assigned").1;
                r.reg = RegRef::Phys(t.find_reg(name).expect("register"));
            }
        }
    }
    a
}

/// A correct assignment: %3 stays in $esi.
const RIGHT: &[(u32, &str)] = &[(0, "rdi"), (1, "rcx"), (2, "rdx"), (3, "esi")];
/// %3 in $ecx, which the table's address (%1, $rcx) overwrites.
const WRONG: &[(u32, &str)] = &[(0, "rdi"), (1, "rcx"), (2, "rdx"), (3, "ecx")];

#[test]
fn the_checker_rejects_a_retargeted_table() {
    let f = read_switch(SWITCH);
    let rec = AllocRecord::new(f.insts.len());
    let a = assign(&f, RIGHT);
    check(x86(), &f, &a, &rec).expect("a correct allocation");
    let mut m = a.clone();
    m.jump_tables.as_mut().unwrap().tables[0].blocks[1] = regalloc::ir::Block(1);
    let errors = check(x86(), &f, &m, &rec).unwrap_err();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].kind, CheckErrorKind::Structure);
    assert_eq!(
        errors[0].to_string(),
        "structure in f: expected %jump-table.0 entry 1 to jump to bb.2, found bb.1"
    );
    let mut m = a.clone();
    m.jump_tables = None;
    assert_eq!(
        check(x86(), &f, &m, &rec).unwrap_err()[0].to_string(),
        "structure in f: expected 1 jump tables, found 0"
    );
    let mut m = a;
    m.jump_tables.as_mut().unwrap().kind = regalloc::ir::JumpTableKind::BlockAddress;
    assert_eq!(
        check(x86(), &f, &m, &rec).unwrap_err()[0].to_string(),
        "structure in f: expected jump tables of kind label-difference32, found block-address"
    );
}

/// A block reached only through a table entry (its switch block's
/// successor list leaves it out) is still walked with the values that
/// reach it: %3 lost on the table edge is found.
#[test]
fn a_block_reached_only_through_a_table_is_checked() {
    let rec_of = |f: &MachineFunction| AllocRecord::new(f.insts.len());
    // With the edges listed, the lost value is found as it always was.
    let listed = read_switch(SWITCH);
    let errors = check(x86(), &listed, &assign(&listed, WRONG), &rec_of(&listed)).unwrap_err();
    assert_eq!(errors[0].kind, CheckErrorKind::WrongValue, "{}", errors[0]);
    // Without them only the table says where the branch goes.
    let unlisted = read_switch(&SWITCH.replace("    successors: %bb.1, %bb.2\n", ""));
    assert!(unlisted.blocks[0].succs.is_empty());
    check(
        x86(),
        &unlisted,
        &assign(&unlisted, RIGHT),
        &rec_of(&unlisted),
    )
    .expect("a correct allocation");
    let errors = check(
        x86(),
        &unlisted,
        &assign(&unlisted, WRONG),
        &rec_of(&unlisted),
    )
    .unwrap_err();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].kind, CheckErrorKind::WrongValue, "{}", errors[0]);
    assert_eq!(
        errors[0].block,
        Some(regalloc::ir::Block(2)),
        "{}",
        errors[0]
    );
}
