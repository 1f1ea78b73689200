//! Virtual register numbers are read densely: tables follow the registers a function uses, not the largest number written, and a function allocates alike whatever numbers its registers are written with.

use regalloc::ir::{MachineFunction, VReg, VRegNumbers};
use regalloc::mir::{self, FunctionDoc};
use regalloc::{Allocator, Options};

fn bpf() -> &'static regalloc::target::TargetInfo<'static> {
    &regalloc_targets::bpf::TARGET
}

/// The bundled BPF example: one function of real compiler output.
fn example() -> String {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/bpf/lz4_attach_dictionary.mir"
    );
    std::fs::read_to_string(path).expect("example readable")
}

/// `text` with every virtual register number `%N` and `id: N` passed
/// through `map`.
fn renumber(text: &str, map: impl Fn(u64) -> u64) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(['%', 'i']) {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let prefix = if rest.starts_with('%') {
            "%"
        } else if rest.starts_with("id: ") {
            "id: "
        } else {
            out.push_str(&rest[..1]);
            rest = &rest[1..];
            continue;
        };
        let after = &rest[prefix.len()..];
        let digits = after.len() - after.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        out.push_str(prefix);
        if digits > 0 && (prefix == "%" || in_registers_list(&out)) {
            let n: u64 = after[..digits].parse().unwrap();
            out.push_str(&map(n).to_string());
        } else {
            out.push_str(&after[..digits]);
        }
        rest = &after[digits..];
    }
    out.push_str(rest);
    out
}

/// Whether the text written so far ends inside a `registers:` list (other
/// lists' `id:` entries are stack objects, jump tables, ...).
fn in_registers_list(out: &str) -> bool {
    let last_key = out
        .lines()
        .rev()
        .find(|l| l.starts_with(|c: char| c.is_ascii_alphabetic()))
        .unwrap_or("");
    last_key.starts_with("registers:")
}

/// Written numbers far apart and large: `%N` becomes `%(20000000 + 1000 N)`,
/// an order-keeping renaming.
fn spread(n: u64) -> u64 {
    20_000_000 + 1000 * n
}

fn read_one(text: &str) -> MachineFunction {
    let file = mir::read(bpf(), "t.mir", text);
    assert_eq!(
        file.errors().count(),
        0,
        "{:?}",
        file.errors().collect::<Vec<_>>()
    );
    file.read_functions().next().expect("a function").clone()
}

fn allocate(text: &str, allocator: Allocator) -> String {
    let mut file = mir::read(bpf(), "t.mir", text);
    for doc in &mut file.functions {
        if let FunctionDoc::Read(f) = doc {
            regalloc::allocate(
                bpf(),
                f,
                &Options {
                    allocator,
                    check: true,
                },
            )
            .expect("allocates");
        }
    }
    mir::write(bpf(), &file)
}

#[test]
fn tables_follow_the_registers_used() {
    let text = example();
    let dense = read_one(&text);
    let sparse = read_one(&renumber(&text, spread));
    assert_eq!(sparse.vregs.len(), dense.vregs.len());
    assert_eq!(sparse.vregs, dense.vregs);
    assert_eq!(sparse.insts, dense.insts, "same registers in every operand");
    let last = VReg::new(dense.vregs.len() - 1);
    assert_eq!(dense.vreg_number(last), last.0 as u64);
    assert_eq!(sparse.vreg_number(last), spread(last.0 as u64));
    // A register added later is numbered after the highest written one.
    assert_eq!(
        sparse.vreg_number(VReg::new(dense.vregs.len())),
        spread(last.0 as u64) + 1
    );
}

#[test]
fn allocation_is_the_same_under_an_order_keeping_renaming() {
    let text = example();
    let sparse_text = renumber(&text, spread);
    let dense_count = read_one(&text).vregs.len() as u64;
    let highest = spread(dense_count - 1);
    // Written numbers back to the dense ones; registers the allocation
    // added follow the highest on both sides.
    // (IR values in the module text, `%N` too, are spread and brought
    // back alike.)
    let back = |n: u64| {
        if (n - 20_000_000).is_multiple_of(1000) {
            (n - 20_000_000) / 1000
        } else {
            n - highest - 1 + dense_count
        }
    };
    for allocator in [Allocator::Greedy, Allocator::Basic, Allocator::Fast] {
        let dense = allocate(&text, allocator);
        let sparse = allocate(&sparse_text, allocator);
        assert_ne!(
            dense, sparse,
            "{allocator:?}: the numbers are printed as written"
        );
        assert_eq!(renumber(&sparse, back), dense, "{allocator:?}");
    }
}

#[test]
fn registers_are_ordered_by_written_number_whatever_order_they_appear_in() {
    let text = "---
name:            f
tracksRegLiveness: true
liveins:
  - { reg: '$r1', virtual-reg: '%9' }
body:             |
  bb.0:
    liveins: $r1
  
    %9:gpr = COPY $r1
    %foo:gpr = COPY %9
    %3:gpr = COPY %foo
    $r0 = COPY %3
    RET implicit $r0
...
";
    let f = read_one(text);
    let written: Vec<String> = (0..f.vregs.len())
        .map(|i| f.vreg_text(VReg::new(i)))
        .collect();
    assert_eq!(written, ["%3", "%9", "%foo"]);
    assert_eq!(f.live_ins[0].vreg, Some(VReg(1)));
    // The output names them as written.
    let out = mir::write(bpf(), &mir::read(bpf(), "t.mir", text));
    assert!(
        out.contains("    %9:gpr = COPY $r1\n    %foo:gpr = COPY %9\n    %3:gpr = COPY %foo\n"),
        "{out}"
    );
    assert!(out.contains("  - { id: 3, class: gpr, preferred-register: '' }\n  - { id: 9, class: gpr, preferred-register: '' }\n"), "{out}");
}

#[test]
fn numbers_of_registers_added_later() {
    let n = VRegNumbers::new(vec![7, 20_000_000]);
    assert_eq!(n.number(VReg(0)), 7);
    assert_eq!(n.number(VReg(1)), 20_000_000);
    assert_eq!(n.number(VReg(2)), 20_000_001);
    assert_eq!(n.number(VReg(5)), 20_000_004);
    // Dense numbers need no table.
    assert_eq!(VRegNumbers::new(vec![0, 1, 2]), VRegNumbers::default());
    assert_eq!(VRegNumbers::default().number(VReg(4)), 4);
}

/// A number llc-19 cannot read is a located error in each place a
/// register is written.
#[test]
fn a_number_beyond_what_llc_reads_is_a_located_error() {
    let cases = [
        (
            "registers:\n  - { id: 4294967295, class: gpr, preferred-register: '' }\nbody: |\n  bb.0:\n    RET\n",
            "t.mir:5:11: error: in function 'f': virtual register number '%4294967295' is too large (the largest is 4294967294)",
        ),
        (
            "liveins:\n  - { reg: '$r1', virtual-reg: '%4294967296' }\nbody: |\n  bb.0:\n    RET\n",
            "t.mir:5:32: error: in function 'f': virtual register number '%4294967296' is too large (the largest is 4294967294)",
        ),
        (
            "body: |\n  bb.0:\n    %99999999999:gpr = MOV_ri 1\n    RET\n",
            "t.mir:6:5: error: in function 'f': virtual register number '%99999999999' is too large (the largest is 4294967294)",
        ),
    ];
    for (keys, want) in cases {
        let text = format!("---\nname: f\ntracksRegLiveness: true\n{keys}...\n");
        let file = mir::read(bpf(), "t.mir", &text);
        let errors: Vec<String> = file.errors().map(|e| e.to_string()).collect();
        assert_eq!(errors, [want]);
    }
    // The largest llc-19 reads is read, and allocated.
    let text = "---\nname: f\ntracksRegLiveness: true\nbody: |\n  bb.0:\n    %4294967294:gpr = MOV_ri 1\n    $r0 = COPY %4294967294\n    RET implicit $r0\n...\n";
    let out = allocate(text, Allocator::Greedy);
    assert!(out.contains("- { id: 4294967294, class: gpr"), "{out}");
}

/// Checker errors name the `.mir` line of their instruction, read ones
/// by their own position, inserted ones by the read one they stand before.
#[test]
fn checker_errors_name_the_instruction_line() {
    use regalloc::ir::{Operand, RegRef};
    let text = "---
name:            f
tracksRegLiveness: true
body:             |
  bb.0:
    liveins: $r1
  
    %0:gpr = COPY $r1
    %1:gpr = COPY %0
    %1:gpr = ADD_ri %1, 1
    $r0 = COPY %1
    RET implicit $r0
...
";
    let original = read_one(text);
    let mut allocated = original.clone();
    let options = Options {
        allocator: Allocator::Greedy,
        check: false,
    };
    let (_, record) =
        regalloc::allocate_recorded(bpf(), &mut allocated, &options).expect("allocates");
    // The ADD_ri (line 10) reads a register nothing wrote.
    let add = original.blocks[0].insts[2];
    let Operand::Reg(r) = &mut allocated.insts[add.index()].operands[1] else {
        panic!("a register operand");
    };
    r.reg = RegRef::Phys(regalloc::target::Reg(
        (0..bpf().regs.len() as u32)
            .find(|&k| bpf().regs[k as usize].name == "R7")
            .expect("R7"),
    ));
    let errors = regalloc::check::check(bpf(), &original, &allocated, &record).unwrap_err();
    let first = &errors[0];
    assert_eq!(first.inst, Some(add));
    let mut unlocated = first.clone();
    unlocated.source = None;
    assert_eq!(first.to_string(), format!("t.mir:10:5: error: {unlocated}"));
}
