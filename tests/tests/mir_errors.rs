//! Malformed MIR: each defect gives one error with file, line, column and function, and the file's other functions are still read.

use regalloc::ir::{Operand, RegRef};
use regalloc::mir::{self, FunctionDoc};
use regalloc::target::fixtures;

/// A small valid function `f` (line numbers below count from the `---`).
const F: &str = "---
name:            f
tracksRegLiveness: true
registers:
  - { id: 0, class: gpr, preferred-register: '' }
  - { id: 1, class: gpr, preferred-register: '' }
liveins:
  - { reg: '$r1', virtual-reg: '%0' }
body:             |
  bb.0:
    successors: %bb.1(0x80000000)
    liveins: $r1
  
    %0:gpr = COPY $r1
    %1:gpr = ADD_ri %0, 1
  
  bb.1:
    $r0 = COPY %1
    RET implicit $r0
...
";

/// A second valid function, after the one under test.
const G: &str = "---
name:            g
tracksRegLiveness: true
body:             |
  bb.0:
    RET
...
";

/// Reads `f` with `from` replaced by `to`, followed by `g`; returns the
/// single error's text, after checking that `g` was still read.
fn error_of(from: &str, to: &str) -> String {
    assert!(F.contains(from), "test text not found: {from}");
    let text = F.replacen(from, to, 1) + G;
    let file = mir::read(fixtures::bpf(), "t.mir", &text);
    let errors: Vec<String> = file.errors().map(|e| e.to_string()).collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(
        file.read_functions()
            .map(|f| f.name.as_str())
            .collect::<Vec<_>>(),
        ["g"]
    );
    // A failed function is written back unchanged.
    assert_eq!(
        mir::write(fixtures::bpf(), &file)
            .matches("name:            f")
            .count(),
        1
    );
    errors.into_iter().next().unwrap()
}

#[test]
fn valid_function_reads_with_recovered_tie() {
    let file = mir::read(fixtures::bpf(), "t.mir", &(F.to_string() + G));
    assert_eq!(file.errors().count(), 0);
    let f = file.read_functions().next().unwrap();
    let add = f.inst(f.blocks[0].insts[1]);
    let Operand::Reg(use_) = &add.operands[1] else {
        panic!("register operand")
    };
    assert_eq!(
        use_.tied_to,
        Some(0),
        "ADD_ri's $dst = $src tie comes from the description"
    );
    assert_eq!(use_.reg, RegRef::Virt(regalloc::ir::VReg(0)));
    assert_eq!(f.blocks[1].preds, [regalloc::ir::Block(0)]);
}

#[test]
fn truncated_file() {
    let cut = F.find("%1:gpr = ADD_ri %0, 1").unwrap() + "%1:gpr = ADD_ri %0,".len();
    let file = mir::read(fixtures::bpf(), "t.mir", &F[..cut]);
    let errors: Vec<String> = file.errors().map(|e| e.to_string()).collect();
    assert_eq!(
        errors,
        ["t.mir:15:24: error: in function 'f': expected an operand, found end of body"]
    );
}

/// Text after a document's `...` (found by the CLI fuzz target: it used
/// to panic), at the line and column llc-19 reports ("missing required
/// key 'name'" there: it starts a document).
#[test]
fn text_after_the_document_end() {
    let text = format!("{F}  hasVAStart:      false\n");
    let file = mir::read(fixtures::bpf(), "t.mir", &text);
    let errors: Vec<String> = file.errors().map(|e| e.to_string()).collect();
    assert_eq!(
        errors,
        [
            "t.mir:21:3: error: in function 'f': text after the document's end '...' (a function document starts with '---')"
        ]
    );
}

#[test]
fn truncated_yaml() {
    let cut = F.find("preferred-register: '' }").unwrap();
    let file = mir::read(fixtures::bpf(), "t.mir", &F[..cut]);
    let errors: Vec<String> = file.errors().map(|e| e.to_string()).collect();
    assert_eq!(
        errors,
        [
            "t.mir:6:1: error: in function 'f': invalid YAML: while parsing a node, did not find expected node content"
        ]
    );
}

#[test]
fn bad_operand() {
    assert_eq!(
        error_of("ADD_ri %0, 1", "ADD_ri %0, ???"),
        "t.mir:15:25: error: in function 'f': expected an operand, found '???'"
    );
}

#[test]
fn unknown_register() {
    assert_eq!(
        error_of("%0:gpr = COPY $r1", "%0:gpr = COPY $r99"),
        "t.mir:14:19: error: in function 'f': unknown physical register '$r99'"
    );
}

#[test]
fn unknown_register_in_live_ins() {
    assert_eq!(
        error_of("reg: '$r1'", "reg: '$q1'"),
        "t.mir:8:12: error: in function 'f': unknown physical register '$q1'"
    );
}

#[test]
fn unknown_class_in_body() {
    assert_eq!(
        error_of("%1:gpr = ADD_ri", "%1:gpx = ADD_ri"),
        "t.mir:15:8: error: in function 'f': unknown register class 'gpx'"
    );
}

#[test]
fn unknown_class_in_registers() {
    assert_eq!(
        error_of("{ id: 1, class: gpr,", "{ id: 1, class: fpr,"),
        "t.mir:6:21: error: in function 'f': unknown register class 'fpr'"
    );
}

#[test]
fn conflicting_class() {
    assert_eq!(
        error_of("%1:gpr = ADD_ri", "%1:gpr32 = ADD_ri"),
        "t.mir:15:8: error: in function 'f': conflicting register classes for '%1': 'gpr' and 'gpr32'"
    );
}

#[test]
fn undefined_block() {
    assert_eq!(
        error_of(
            "successors: %bb.1(0x80000000)",
            "successors: %bb.7(0x80000000)"
        ),
        "t.mir:11:17: error: in function 'f': use of undefined machine basic block '%bb.7'"
    );
}

#[test]
fn duplicate_vreg_definition() {
    assert_eq!(
        error_of("{ id: 1, class: gpr,", "{ id: 0, class: gpr,"),
        "t.mir:6:11: error: in function 'f': redefinition of virtual register '%0'"
    );
}

/// An opcode the description lacks is not an error: it is kept by name
/// (see `regalloc::ir::UnknownOp`) and written back as it was.
#[test]
fn unknown_instruction_is_kept_by_name() {
    let text = F.replacen("ADD_ri %0, 1", "ADD_rx %0, 1", 1) + G;
    let file = mir::read(fixtures::bpf(), "t.mir", &text);
    assert_eq!(file.errors().count(), 0);
    let f = file.read_functions().next().unwrap();
    let unknown: Vec<&str> = f
        .inst_ids()
        .filter_map(|i| match f.inst(i).op {
            regalloc::ir::Op::Unknown(u) => Some(u.name),
            _ => None,
        })
        .collect();
    assert_eq!(unknown, ["ADD_rx"]);
    assert!(mir::write(fixtures::bpf(), &file).contains("ADD_rx %0, 1"));
}

#[test]
fn unknown_sub_register_index() {
    assert_eq!(
        error_of("$r0 = COPY %1", "$r0 = COPY %1.sub_16"),
        "t.mir:18:19: error: in function 'f': unknown sub-register index 'sub_16'"
    );
}

#[test]
fn bad_tied_def() {
    assert_eq!(
        error_of("ADD_ri %0, 1", "ADD_ri %0(tied-def 2), 1"),
        "t.mir:15:21: error: in function 'f': tied-def 2 does not name a register definition of this instruction"
    );
}

/// A malformed memory operand is reported at the token at fault, with
/// LLVM's message (`against_llc` holds both to llc-19).
#[test]
fn malformed_memory_operand() {
    assert_eq!(
        error_of("ADD_ri %0, 1", "ADD_ri %0, 1 :: (load (s32) into %ir.p)"),
        "t.mir:15:42: error: in function 'f': expected 'from'"
    );
    assert_eq!(
        error_of("ADD_ri %0, 1", "ADD_ri %0, 1 :: (load (s32) from %stack.4)"),
        "t.mir:15:47: error: in function 'f': use of undefined stack object '%stack.4'"
    );
}

/// Attributes come after the operands, each once, in LLVM's order
/// (`pre-instr-symbol` ... `debug-instr-number`, `debug-location`).
#[test]
fn misplaced_instruction_attributes() {
    assert_eq!(
        error_of(
            "ADD_ri %0, 1",
            "ADD_ri %0, 1, debug-instr-number 2, pcsections !1"
        ),
        "t.mir:15:50: error: in function 'f': 'pcsections' must come before 'debug-instr-number'"
    );
    assert_eq!(
        error_of(
            "ADD_ri %0, 1",
            "ADD_ri %0, 1, debug-instr-number 2, debug-instr-number 3"
        ),
        "t.mir:15:50: error: in function 'f': 'debug-instr-number' is given twice"
    );
    assert_eq!(
        error_of("ADD_ri %0, 1", "ADD_ri %0, debug-instr-number 2, 1"),
        "t.mir:15:47: error: in function 'f': operands must come before 'debug-instr-number'"
    );
    assert_eq!(
        error_of("ADD_ri %0, 1", "ADD_ri %0, 1, debug-instr-number x"),
        "t.mir:15:47: error: in function 'f': expected an integer literal after 'debug-instr-number'"
    );
}

/// Attributes read into their typed form, printed in LLVM's order; a
/// `debug-instr-number` of 0 is none, as LLVM reads it.
#[test]
fn instruction_attributes_are_read() {
    let text = F.replacen(
        "ADD_ri %0, 1",
        "ADD_ri %0, 1, pre-instr-symbol <mcsymbol .Lpre>, cfi-type 9, debug-instr-number 4, debug-location !DILocation(line: 3, scope: !2)",
        1,
    );
    let file = mir::read(fixtures::bpf(), "t.mir", &text);
    assert_eq!(file.errors().count(), 0);
    let f = file.read_functions().next().unwrap();
    let attrs = f.inst(f.blocks[0].insts[1]).attrs.as_deref().unwrap();
    assert_eq!(attrs.pre_instr_symbol.as_deref(), Some(".Lpre"));
    assert_eq!(attrs.cfi_type.map(|n| n.get()), Some(9));
    assert_eq!(attrs.debug_instr_number.map(|n| n.get()), Some(4));
    assert_eq!(
        attrs.debug_location,
        Some(regalloc::ir::DebugLocation::Inline(
            "!DILocation(line: 3, scope: !2)".into()
        ))
    );
    assert!(mir::write(fixtures::bpf(), &file).contains(
        "%1:gpr = ADD_ri %0, 1, pre-instr-symbol <mcsymbol .Lpre>, cfi-type 9, debug-instr-number 4, debug-location !DILocation(line: 3, scope: !2)\n"
    ));
    let text = F.replacen("ADD_ri %0, 1", "ADD_ri %0, 1, debug-instr-number 0", 1);
    let file = mir::read(fixtures::bpf(), "t.mir", &text);
    let f = file.read_functions().next().unwrap();
    assert_eq!(f.inst(f.blocks[0].insts[1]).attrs, None);
}

#[test]
fn unknown_stack_object_type() {
    let text = F.replacen(
        "liveins:\n  - { reg: '$r1'",
        "stack:\n  - { id: 0, type: spill, size: 8, alignment: 8 }\nliveins:\n  - { reg: '$r1'",
        1,
    ) + G;
    let file = mir::read(fixtures::bpf(), "t.mir", &text);
    let errors: Vec<String> = file.errors().map(|e| e.to_string()).collect();
    assert_eq!(
        errors,
        ["t.mir:8:20: error: in function 'f': unknown stack object type 'spill'"]
    );
}

#[test]
fn missing_class() {
    let text = F
        .replacen("  - { id: 1, class: gpr, preferred-register: '' }\n", "", 1)
        .replacen("%1:gpr = ADD_ri", "%1 = ADD_ri", 1);
    let file = mir::read(fixtures::bpf(), "t.mir", &text);
    let errors: Vec<String> = file.errors().map(|e| e.to_string()).collect();
    assert_eq!(
        errors,
        ["t.mir:14:5: error: in function 'f': virtual register '%1' has no register class"]
    );
}

#[test]
fn failed_function_is_kept_verbatim() {
    let text = F.replacen("$r0 = COPY %1", "$r0 = COPY %1.sub_16", 1) + G;
    let file = mir::read(fixtures::bpf(), "t.mir", &text);
    assert!(matches!(&file.functions[0], FunctionDoc::Failed { name: Some(n), .. } if n == "f"));
    assert_eq!(
        mir::write(fixtures::bpf(), &file)
            .split("---\nname:            g")
            .next()
            .unwrap(),
        F.replacen("$r0 = COPY %1", "$r0 = COPY %1.sub_16", 1)
    );
}

mod ir_module {
    //! The IR module document is read for function attributes only: no
    //! text there may break the reader or the functions after it.

    use super::*;
    use proptest::prelude::*;

    /// Lines the attribute scanner looks at, broken in every way the
    /// strategy can combine them.
    fn ir_line() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("define void @f(ptr %p) #0 {".to_string()),
            Just("define void @\"f\\2".to_string()),
            Just("attributes #0 = { \"frame-pointer\"=\"all\" }".to_string()),
            Just("attributes #0 = { \"frame-pointer\"=\"".to_string()),
            Just("define @".to_string()),
            "[ -~]{0,40}",
            "[#@()\"=\\\\{}a-f0-9é ]{0,30}",
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        #[test]
        fn any_ir_module_leaves_the_function_readable(lines in proptest::collection::vec(ir_line(), 0..8)) {
            let module: String = lines.iter().map(|l| format!("  {l}\n")).collect();
            let text = format!("--- |\n{module}...\n{F}");
            let file = mir::read(fixtures::bpf(), "t.mir", &text);
            prop_assert_eq!(file.read_functions().count(), 1);
            prop_assert_eq!(file.errors().count(), 0);
        }
    }
}

mod described {
    //! Instructions held to their description as LLVM 19's MIR parser and
    //! machine verifier hold them (`regalloc/src/mir/verify.rs`): implicit
    //! registers present, explicit operands counted and placed, virtual
    //! register classes what the operands take. Each message is tested as
    //! exact text; `against_llc` below holds the rules to llc itself.

    use regalloc::mir;
    use regalloc::target::TargetInfo;

    fn x86() -> &'static TargetInfo<'static> {
        &regalloc_targets::x86::TARGET
    }

    /// A valid x86-64 function (line numbers below count from the `---`).
    pub(super) const X: &str = "---
name:            f
tracksRegLiveness: true
registers:
  - { id: 0, class: gr32 }
  - { id: 1, class: gr32 }
  - { id: 2, class: gr64_with_sub_8bit }
  - { id: 3, class: gr32 }
liveins:
  - { reg: '$edi', virtual-reg: '%0' }
  - { reg: '$rsi', virtual-reg: '%2' }
body:             |
  bb.0:
    liveins: $edi, $rsi
    %0:gr32 = COPY $edi
    %2:gr64_with_sub_8bit = COPY $rsi
    %1:gr32 = ADD32rr %0, %0, implicit-def dead $eflags
    %3:gr32 = ADD32rr %1, %2.sub_32bit, implicit-def dead $eflags
    $eax = COPY %3
    RET 0, $eax
...
";

    /// The errors reading `X` with `from` replaced by `to`.
    pub(super) fn errors_of(from: &str, to: &str) -> Vec<String> {
        assert!(X.contains(from), "test text not found: {from}");
        let file = mir::read(x86(), "t.mir", &X.replacen(from, to, 1));
        file.errors().map(|e| e.to_string()).collect()
    }

    /// The single error reading `X` with `from` replaced by `to`.
    fn error_of(from: &str, to: &str) -> String {
        let errors = errors_of(from, to);
        assert_eq!(errors.len(), 1, "{errors:?}");
        errors.into_iter().next().unwrap()
    }

    const ADD: &str = "%1:gr32 = ADD32rr %0, %0, implicit-def dead $eflags";

    #[test]
    fn the_valid_function_reads() {
        assert_eq!(errors_of(ADD, ADD), Vec::<String>::new());
    }

    #[test]
    fn a_missing_implicit_definition_is_named_after_the_last_operand() {
        assert_eq!(
            error_of(ADD, "%1:gr32 = ADD32rr %0, %0"),
            "t.mir:17:29: error: in function 'f': missing implicit register operand 'implicit-def $eflags'"
        );
        // The position is the next token's: memory operands, a comment.
        assert_eq!(
            error_of(ADD, "%1:gr32 = ADD32rr %0, %0   :: (load (s32))"),
            "t.mir:17:32: error: in function 'f': missing implicit register operand 'implicit-def $eflags'"
        );
        assert_eq!(
            error_of(ADD, "%1:gr32 = ADD32rr %0, %0  ; no flags"),
            "t.mir:17:41: error: in function 'f': missing implicit register operand 'implicit-def $eflags'"
        );
    }

    #[test]
    fn an_implicit_definition_must_be_a_definition() {
        assert_eq!(
            error_of(ADD, "%1:gr32 = ADD32rr %0, %0, implicit $eflags"),
            "t.mir:17:47: error: in function 'f': missing implicit register operand 'implicit-def $eflags'"
        );
        // `dead` or not, anywhere among the operands: LLVM compares
        // register and sense only.
        assert_eq!(
            errors_of(ADD, "%1:gr32 = ADD32rr %0, implicit-def $eflags, %0"),
            Vec::<String>::new()
        );
    }

    #[test]
    fn a_missing_implicit_use_and_an_instruction_without_operands() {
        let setcc = format!("{ADD}\n    %4:gr8 = SETCCr 4");
        assert_eq!(
            error_of(ADD, &setcc),
            "t.mir:18:22: error: in function 'f': missing implicit register operand 'implicit $eflags'"
        );
        // CQO: no operands; the position is after the instruction.
        let cqo = format!("{ADD}\n    CQO ; sign");
        assert_eq!(
            error_of(ADD, &cqo),
            "t.mir:18:15: error: in function 'f': missing implicit register operand 'implicit-def $rax'"
        );
        let cqo = format!("{ADD}\n    CQO implicit-def $rax, implicit-def $rdx");
        assert_eq!(
            error_of(ADD, &cqo),
            "t.mir:18:45: error: in function 'f': missing implicit register operand 'implicit $rax'"
        );
    }

    #[test]
    fn calls_and_unknown_opcodes_carry_what_they_carry() {
        let call = format!("{ADD}\n    CALL64pcrel32 @g, csr_64");
        assert_eq!(errors_of(ADD, &call), Vec::<String>::new());
        assert_eq!(
            errors_of(ADD, "%1:gr32 = ADD32rrx %0, %0"),
            Vec::<String>::new()
        );
    }

    #[test]
    fn explicit_operands_are_counted_and_placed() {
        assert_eq!(
            error_of(ADD, "%1:gr32 = ADD32rr %0, implicit-def dead $eflags"),
            "t.mir:17:52: error: in function 'f': too few operands: ADD32rr takes 3 explicit operands, 2 given"
        );
        assert_eq!(
            error_of(
                ADD,
                "%1:gr32 = ADD32rr %0, %0, %0, implicit-def dead $eflags"
            ),
            "t.mir:17:31: error: in function 'f': extra explicit operand: ADD32rr takes 3 explicit operands"
        );
        assert_eq!(
            error_of(
                ADD,
                "%1:gr32 = ADD32rr %0, %0, $noreg, implicit-def dead $eflags"
            ),
            "t.mir:17:31: error: in function 'f': extra explicit operand: ADD32rr takes 3 explicit operands"
        );
        // A register mask is let through, as LLVM does (a call's).
        assert_eq!(
            errors_of(
                ADD,
                "%1:gr32 = ADD32rr %0, %0, csr_64, implicit-def dead $eflags"
            ),
            Vec::<String>::new()
        );
        assert_eq!(
            error_of(ADD, "ADD32rr %1, %0, %0, implicit-def dead $eflags"),
            "t.mir:17:13: error: in function 'f': operand 0 of ADD32rr must be a register definition"
        );
        assert_eq!(
            error_of(
                ADD,
                "%1:gr32 = ADD32rr %0, def %0, implicit-def dead $eflags"
            ),
            "t.mir:17:27: error: in function 'f': operand 2 of ADD32rr is a use, not a definition"
        );
        assert_eq!(
            error_of(ADD, "%1:gr32 = ADD32rr %0, 5, implicit-def dead $eflags"),
            "t.mir:17:27: error: in function 'f': operand 2 of ADD32rr must be a register or a stack object"
        );
        assert_eq!(
            error_of(ADD, "%1:gr32 = ADD32ri %0, %0, implicit-def dead $eflags"),
            "t.mir:17:27: error: in function 'f': operand 2 of ADD32ri may not be a register"
        );
    }

    const USE: &str = "%3:gr32 = ADD32rr %1, %2.sub_32bit";

    #[test]
    fn a_virtual_register_of_a_larger_class_is_refused() {
        assert_eq!(
            error_of(USE, "%3:gr32 = ADD32rr %1, %2"),
            "t.mir:18:27: error: in function 'f': illegal virtual register for instruction: operand 2 of ADD32rr takes a gr32 register, %2 is gr64_with_sub_8bit"
        );
    }

    #[test]
    fn a_sub_register_must_be_in_the_operands_class_for_every_register() {
        // Every gr64_with_sub_8bit register's low half is a gr32 register;
        // not so for gr64, which holds $rip.
        let text = X
            .replacen("id: 2, class: gr64_with_sub_8bit", "id: 2, class: gr64", 1)
            .replacen("%2:gr64_with_sub_8bit = COPY", "%2:gr64 = COPY", 1);
        let file = mir::read(x86(), "t.mir", &text);
        let errors: Vec<String> = file.errors().map(|e| e.to_string()).collect();
        assert_eq!(
            errors,
            [
                "t.mir:18:27: error: in function 'f': illegal virtual register for instruction: operand 2 of ADD32rr takes a gr32 register, %2.sub_32bit is not one when %2 (gr64) is $rip"
            ]
        );
    }

    #[test]
    fn a_sub_register_index_must_exist_in_every_register_of_the_class() {
        assert_eq!(
            error_of(ADD, &format!("{ADD}\n    %5:gr8 = COPY %0.sub_8bit_hi")),
            "t.mir:18:19: error: in function 'f': invalid register class for sub-register index: %0.sub_8bit_hi, but only the gr32_abcd registers of class gr32 have sub_8bit_hi"
        );
        assert_eq!(
            error_of(
                ADD,
                &format!("{ADD}\n    %6:gr16 = COPY %0.sub_16bit\n    %5:gr32 = COPY %6.sub_32bit")
            ),
            "t.mir:19:20: error: in function 'f': invalid sub-register index for virtual register: %6.sub_32bit, but no register of class gr16 has sub_32bit"
        );
    }

    #[test]
    fn a_class_given_further_down_is_checked_at_the_use() {
        assert_eq!(
            error_of(
                USE,
                "%3:gr32 = ADD32rr %1, %7, implicit-def dead $eflags\n    %7:gr64 = COPY $rsi\n    KILL %2.sub_32bit"
            ),
            "t.mir:18:27: error: in function 'f': illegal virtual register for instruction: operand 2 of ADD32rr takes a gr32 register, %7 is gr64"
        );
    }
}

mod against_llc {
    //! The rules of `described` held to llc-19 itself: the parser's
    //! positions and messages for missing implicit registers, the
    //! verifier's verdicts on the other cases, and, on instructions taken
    //! from the corpus of all four targets, the verifier's verdict on every
    //! virtual register class tried. Skipped without llc-19.

    use std::collections::{BTreeMap, BTreeSet};
    use std::path::{Path, PathBuf};
    use std::process::Command;

    use regalloc::ir::{
        Block, Generic, InstData, MachineFunction, Op, Operand, RegFlags, RegOperand, RegRef,
        UnknownOp, VReg,
    };
    use regalloc::mir;
    use regalloc::target::{InstrFlags, RegClass, SubRegIndex, TargetInfo};

    use super::described::{X, errors_of};

    fn have_llc() -> bool {
        let ok = Command::new("llc-19")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
        if !ok {
            println!("skipped: llc-19 not found");
        }
        ok
    }

    /// A file of its own for `text` under the temporary directory.
    fn temp_file(name: &str, text: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("mir_errors_llc_{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temporary directory");
        let p = dir.join(name);
        std::fs::write(&p, text).expect("temporary file");
        p
    }

    /// What llc-19 prints on stderr for `file`, and whether it succeeded.
    fn llc(flags: &[&str], file: &Path, verify: bool) -> (bool, String) {
        let mut c = Command::new("llc-19");
        c.args(flags).args(["-run-pass=none", "-o", "/dev/null"]);
        if verify {
            c.arg("-verify-machineinstrs");
        }
        let out = c.arg(file).output().expect("llc-19 runs");
        let _ = std::fs::remove_file(file);
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    const X86: &[&str] = &["-mtriple=x86_64-linux-gnu"];
    const ADD: &str = "%1:gr32 = ADD32rr %0, %0, implicit-def dead $eflags";

    /// Our single error reading `X` with `from` replaced by `to`, and
    /// llc's first error on the same text, both as `line:col: message`.
    fn ours_and_llc(k: usize, from: &str, to: &str) -> (String, String) {
        let ours = errors_of(from, to);
        assert_eq!(ours.len(), 1, "{to}: {ours:?}");
        let ours = ours[0]
            .strip_prefix("t.mir:")
            .and_then(|r| r.split_once(": error: in function 'f': "))
            .map(|(at, m)| format!("{at}: {m}"))
            .expect("our error's form");
        let path = temp_file(&format!("case{k}.mir"), &X.replacen(from, to, 1));
        let (ok, err) = llc(X86, &path, false);
        assert!(!ok, "llc accepted {to}");
        let prefix = format!("error: {}:", path.display());
        let theirs = err
            .lines()
            .find_map(|l| l.strip_prefix(&prefix))
            .unwrap_or_else(|| panic!("llc's error for {to}: {err}"))
            .to_string();
        (ours, theirs)
    }

    /// Malformed memory operands and instruction attributes: llc's
    /// parser and the reader report the same line, column and message.
    #[test]
    fn malformed_memory_operands_are_reported_where_llc_reports_them() {
        if !have_llc() {
            return;
        }
        let operands = [
            "(load (s32) into got)",
            "(store (s32) on got)",
            "(volatile volatile load (s32))",
            "(foo load (s32))",
            "(load foo (s32) from got)",
            "(load)",
            "(load syncscope(x) (s32))",
            "(load (x32) from got)",
            "(load (s) from got)",
            "(load (s70000) from got)",
            "(load (p16777216) from got)",
            "(load (<2 x s32) from got)",
            "(load (<vscale 2 x s32>) from got)",
            "(load (<0 x s32>) from got)",
            "(load (<2 x s0>) from got)",
            "(load (s32 from got)",
            "(load 4x from got)",
            "(load (s32) from)",
            "(load (s32) from foo)",
            "(load (s32) from %ir-block.0)",
            "(load (s32) from call-entry 3)",
            "(load (s32) from %stack.0)",
            "(load (s32) from %fixed-stack.1)",
            "(load (s32) from got +)",
            "(load (s32) from got + x)",
            "(load (s32) from got + 99999999999999999999)",
            "(load (s32) from got, foo 3)",
            "(load (s32) from got, align x)",
            "(load (s32) from got, align 3)",
            "(load (s32) from got, basealign 3)",
            "(load (s32) from got + 4, align 8)",
            "(load (s32) from got, addrspace x)",
            "(load (s32) from got, !tbaa !x)",
        ];
        let attributes = [
            "debug-instr-number x",
            "debug-instr-number 4294967296",
            "cfi-type x",
            "pre-instr-symbol .La",
            "post-instr-symbol <mcsymbol a b>",
            "debug-location 3",
        ];
        let cases = operands
            .iter()
            .map(|o| format!("{ADD} :: {o}"))
            .chain(attributes.iter().map(|a| format!("{ADD}, {a}")));
        for (k, to) in cases.enumerate() {
            let (ours, theirs) = ours_and_llc(100 + k, ADD, &to);
            assert_eq!(ours, theirs, "{to}");
        }
    }

    /// For each missing implicit register, llc's parser and the reader
    /// report the same line, column and message.
    #[test]
    fn implicit_registers_are_reported_where_llc_reports_them() {
        if !have_llc() {
            return;
        }
        let cases = [
            (ADD, "%1:gr32 = ADD32rr %0, %0".to_string()),
            (ADD, "%1:gr32 = ADD32rr %0, %0   :: (load (s32))".into()),
            (ADD, "%1:gr32 = ADD32rr %0, %0  ; no flags".into()),
            (ADD, "%1:gr32 = ADD32rr %0, %0, implicit $eflags".into()),
            (ADD, format!("{ADD}\n    %4:gr8 = SETCCr 4")),
            (ADD, format!("{ADD}\n    CQO ; sign")),
            (
                ADD,
                format!("{ADD}\n    CQO implicit-def $rax, implicit-def $rdx"),
            ),
            (
                ADD,
                format!("{ADD}\n    CQO implicit-def $rax, implicit $rax"),
            ),
        ];
        for (k, (from, to)) in cases.iter().enumerate() {
            let ours = errors_of(from, to);
            assert_eq!(ours.len(), 1, "{to}: {ours:?}");
            let ours = ours[0]
                .strip_prefix("t.mir:")
                .and_then(|r| r.split_once(": error: in function 'f': "))
                .map(|(at, m)| format!("{at}: {m}"))
                .expect("our error's form");
            let path = temp_file(&format!("implicit{k}.mir"), &X.replacen(from, to, 1));
            let (ok, err) = llc(X86, &path, false);
            assert!(!ok, "llc accepted {to}");
            let prefix = format!("error: {}:", path.display());
            let theirs = err
                .lines()
                .find_map(|l| l.strip_prefix(&prefix))
                .unwrap_or_else(|| panic!("llc's error for {to}: {err}"));
            assert_eq!(ours, theirs, "{to}");
        }
    }

    /// The verifier refuses what the reader refuses, with the matching
    /// complaint, and accepts what it accepts.
    #[test]
    fn the_verifier_agrees_on_operands_and_classes() {
        if !have_llc() {
            return;
        }
        const USE: &str = "%3:gr32 = ADD32rr %1, %2.sub_32bit";
        let refused = [
            // An implicit operand where an explicit one belongs.
            (
                ADD,
                "%1:gr32 = ADD32rr %0, implicit-def dead $eflags".to_string(),
                "Explicit operand marked as implicit",
            ),
            (
                ADD,
                "%1:gr32 = ADD32rr implicit-def dead $eflags".into(),
                "Too few operands",
            ),
            (
                ADD,
                "%1:gr32 = ADD32rr %0, %0, %0, implicit-def dead $eflags".into(),
                "Extra explicit operand on non-variadic instruction",
            ),
            (
                ADD,
                "%1:gr32 = ADD32rr %0, %0, 7, implicit-def dead $eflags".into(),
                "Extra explicit operand on non-variadic instruction",
            ),
            (
                ADD,
                "ADD32rr %1, %0, %0, implicit-def dead $eflags".into(),
                "Explicit definition marked as use",
            ),
            (
                ADD,
                "%1:gr32 = ADD32rr %0, def %0, implicit-def dead $eflags".into(),
                "Explicit operand marked as def",
            ),
            (
                ADD,
                "%1:gr32 = ADD32rr %0, 5, implicit-def dead $eflags".into(),
                "Expected a register operand.",
            ),
            (
                ADD,
                "%1:gr32 = ADD32ri %0, %0, implicit-def dead $eflags".into(),
                "Expected a non-register operand.",
            ),
            (
                USE,
                "%3:gr32 = ADD32rr %1, %2".into(),
                "Illegal virtual register for instruction",
            ),
            (
                ADD,
                format!("{ADD}\n    %5:gr8 = COPY %0.sub_8bit_hi"),
                "Invalid register class for subregister index",
            ),
            (
                ADD,
                format!("{ADD}\n    %6:gr16 = COPY %0.sub_16bit\n    %5:gr32 = COPY %6.sub_32bit"),
                "Invalid subregister index for virtual register",
            ),
        ];
        for (k, (from, to, complaint)) in refused.iter().enumerate() {
            assert_eq!(errors_of(from, to).len(), 1, "{to}");
            let path = temp_file(&format!("refused{k}.mir"), &X.replacen(from, to, 1));
            let (ok, err) = llc(X86, &path, true);
            assert!(!ok && err.contains(complaint), "{to}: llc says {err}");
        }
        let accepted = [
            (ADD, ADD.to_string()),
            (ADD, "%1:gr32 = ADD32rr %0, implicit-def $eflags, %0".into()),
            (
                ADD,
                "%1:gr32 = ADD32rr %0, %0, csr_64, implicit-def dead $eflags".into(),
            ),
        ];
        for (k, (from, to)) in accepted.iter().enumerate() {
            assert_eq!(errors_of(from, to), Vec::<String>::new(), "{to}");
            let path = temp_file(&format!("accepted{k}.mir"), &X.replacen(from, to, 1));
            let (ok, err) = llc(X86, &path, true);
            assert!(ok, "{to}: llc says {err}");
        }
    }

    /// The llc flags, tables and corpus directory of each target.
    fn targets() -> [(
        &'static str,
        &'static [&'static str],
        &'static TargetInfo<'static>,
    ); 4] {
        [
            ("x86_64", X86, &regalloc_targets::x86::TARGET),
            (
                "aarch64",
                &["-mtriple=aarch64-linux-gnu"],
                &regalloc_targets::aarch64::TARGET,
            ),
            (
                "hexagon",
                &["-mtriple=hexagon-unknown-linux-musl"],
                &regalloc_targets::hexagon::TARGET,
            ),
            (
                "bpf",
                &["-mtriple=bpf", "-mcpu=v3"],
                &regalloc_targets::bpf::TARGET,
            ),
        ]
    }

    /// An instruction worth varying: described, not a call, its explicit
    /// operands registers and immediates only, one of them a virtual
    /// register read.
    fn candidate(t: &TargetInfo<'_>, d: &InstData) -> bool {
        let Op::Target(op) = d.op else { return false };
        !t.instr(op).is(InstrFlags::CALL)
            && d.operands
                .iter()
                .all(|o| matches!(o, Operand::Reg(_) | Operand::Imm(_)))
            && d.operands
                .iter()
                .filter_map(Operand::as_reg)
                .any(|r| !r.is_def() && !r.is_implicit() && matches!(r.reg, RegRef::Virt(_)))
    }

    /// A function holding `d` alone (virtual register operand `k` given
    /// class `class` and sub-register `sub`, every other virtual register
    /// its class in `src`), its reads defined by `IMPLICIT_DEF`, then a
    /// return.
    fn single(
        t: &TargetInfo<'_>,
        src: &MachineFunction,
        d: &InstData,
        k: usize,
        class: RegClass,
        sub: Option<SubRegIndex>,
    ) -> MachineFunction {
        let mut f = MachineFunction::new("f");
        let b = f.new_block();
        let mut renamed: BTreeMap<u32, VReg> = BTreeMap::new();
        let mut inst = d.clone();
        let mut reads: Vec<VReg> = Vec::new();
        let mut defined: BTreeSet<u32> = BTreeSet::new();
        for (j, o) in inst.operands.iter_mut().enumerate() {
            let Operand::Reg(r) = o else { continue };
            let RegRef::Virt(v) = r.reg else { continue };
            let n = if j == k {
                r.sub = sub;
                f.new_vreg(Some(class))
            } else {
                *renamed
                    .entry(v.0)
                    .or_insert_with(|| f.new_vreg(src.vreg_class(v)))
            };
            r.reg = RegRef::Virt(n);
            r.flags.set(RegFlags::KILLED, false);
            if r.is_def() && r.sub.is_none() {
                defined.insert(n.0);
            } else if !reads.contains(&n) {
                reads.push(n);
            }
        }
        for v in reads.into_iter().filter(|v| !defined.contains(&v.0)) {
            let mut def = InstData::new(Op::Generic(Generic::ImplicitDef));
            def.operands.push(Operand::Reg(RegOperand::def_of(v)));
            f.insts.push(def);
            f.blocks[b.index()]
                .insts
                .push(regalloc::ir::Inst::new(f.insts.len() - 1));
        }
        inst.mem.clear();
        f.insts.push(inst);
        f.blocks[b.index()]
            .insts
            .push(regalloc::ir::Inst::new(f.insts.len() - 1));
        let ret = match t.name.as_ref() {
            "x86" => ("RET", vec![Operand::Imm(0)]),
            "hexagon" => (
                "PS_jmpret",
                vec![
                    Operand::Reg(RegOperand::use_of(t.find_reg("R31").unwrap())),
                    Operand::Reg(RegOperand {
                        flags: RegFlags::DEF | RegFlags::IMPLICIT | RegFlags::DEAD,
                        ..RegOperand::use_of(t.find_reg("PC").unwrap())
                    }),
                ],
            ),
            "aarch64" => ("RET_ReallyLR", vec![]),
            _ => ("RET", vec![]),
        };
        let op = t
            .find_opcode(ret.0)
            .map_or_else(|| Op::Unknown(UnknownOp::new(ret.0)), Op::Target);
        let mut r = InstData::new(op);
        r.operands = ret.1;
        f.insts.push(r);
        f.blocks[b.index()]
            .insts
            .push(regalloc::ir::Inst::new(f.insts.len() - 1));
        let _ = Block::new(0);
        f
    }

    /// Whether llc's verifier complains of a register class.
    fn llc_class_complaint(err: &str) -> bool {
        [
            "Illegal virtual register for instruction",
            "Invalid register class for subregister index",
            "Invalid subregister index for virtual register",
            "No matching super-reg register class",
        ]
        .iter()
        .any(|m| err.contains(m))
    }

    /// On instructions of the corpus, every class and sub-register tried
    /// for one of their virtual register operands: the reader refuses
    /// exactly what llc's verifier refuses.
    #[test]
    fn virtual_register_classes_agree_with_llc_on_corpus_instructions() {
        if !have_llc() {
            return;
        }
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../bench/out/corpus");
        for (dir, flags, t) in targets() {
            let files = corpus_files(&root.join(dir).join("O2"));
            if files.is_empty() {
                println!("skipped {dir}: no corpus");
                continue;
            }
            // One example per opcode, the classes and sub-registers seen.
            let mut examples: BTreeMap<String, (MachineFunction, usize)> = BTreeMap::new();
            let mut classes: BTreeSet<RegClass> = BTreeSet::new();
            let mut subs: BTreeSet<SubRegIndex> = BTreeSet::new();
            for p in files.iter().take(12) {
                let text = std::fs::read_to_string(p).expect("corpus file");
                let file = mir::read(t, &p.display().to_string(), &text);
                for f in file.read_functions() {
                    classes.extend(f.vregs.iter().filter_map(|v| v.class));
                    for i in f.inst_ids() {
                        let d = f.inst(i);
                        subs.extend(
                            d.operands
                                .iter()
                                .filter_map(Operand::as_reg)
                                .filter_map(|r| r.sub),
                        );
                        if candidate(t, d) {
                            examples
                                .entry(d.op.name(t).to_string())
                                .or_insert_with(|| (f.clone(), i.index()));
                        }
                    }
                }
            }
            let classes: Vec<RegClass> = classes.into_iter().collect();
            let subs: Vec<Option<SubRegIndex>> = std::iter::once(None)
                .chain(subs.into_iter().map(Some))
                .collect();
            let examples: Vec<(MachineFunction, usize)> = examples.into_values().collect();
            let mut seed = 0x9e37_79b9_7f4a_7c15u64;
            let mut next = |n: usize| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                (seed % n as u64) as usize
            };
            let (mut agree, mut refused) = (0, 0);
            for case in 0..40 {
                let (src, i) = &examples[next(examples.len())];
                let d = &src.insts[*i];
                let reads: Vec<usize> = (0..d.operands.len())
                    .filter(|&k| {
                        d.operands[k].as_reg().is_some_and(|r| {
                            !r.is_def() && !r.is_implicit() && matches!(r.reg, RegRef::Virt(_))
                        })
                    })
                    .collect();
                let k = reads[next(reads.len())];
                let class = classes[next(classes.len())];
                let sub = subs[next(subs.len())];
                let f = single(t, src, d, k, class, sub);
                let text = mir::write_function(t, &f);
                let ours = mir::read(t, "case.mir", &text);
                let our_complaint: Vec<String> = ours
                    .errors()
                    .map(|e| e.message.clone())
                    .filter(|m| {
                        m.contains("illegal virtual register") || m.contains("sub-register index")
                    })
                    .collect();
                let path = temp_file(&format!("{dir}-class{case}.mir"), &text);
                let (_, err) = llc(flags, &path, true);
                let theirs = llc_class_complaint(&err);
                assert_eq!(
                    !our_complaint.is_empty(),
                    theirs,
                    "{dir}: {}\nours: {our_complaint:?}\nllc: {err}",
                    text
                );
                agree += 1;
                refused += usize::from(theirs);
            }
            println!("{dir}: {agree} cases agree with llc ({refused} refused by both)");
            assert!(refused > 0 && refused < agree, "{dir}: both verdicts tried");
        }
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
}

mod frame_info {
    //! The `frameInfo:` facts that decide reserved registers are read into
    //! `ir::FrameInfo` (the key is still written back verbatim); a value of
    //! the wrong kind is an error at its place.

    use super::*;

    fn with_frame(lines: &str) -> String {
        F.replacen(
            "liveins:\n  - { reg: '$r1'",
            &format!("frameInfo:\n{lines}liveins:\n  - {{ reg: '$r1'"),
            1,
        )
    }

    #[test]
    fn the_facts_are_read() {
        let text = with_frame(
            "  isFrameAddressTaken: true\n  stackSize:       0\n  maxAlignment:    32\n  hasCalls:        true\n  hasOpaqueSPAdjustment: false\n  localFrameSize:  256\n",
        );
        let file = mir::read(fixtures::bpf(), "t.mir", &text);
        assert_eq!(file.errors().count(), 0);
        let f = file.read_functions().next().unwrap();
        assert_eq!(
            f.frame_info,
            regalloc::ir::FrameInfo {
                has_calls: true,
                frame_address_taken: true,
                opaque_sp_adjustment: false,
                max_alignment: 32,
                local_frame_size: 256,
            }
        );
        assert!(mir::write(fixtures::bpf(), &file).contains("  maxAlignment:    32\n"));
    }

    #[test]
    fn a_value_of_the_wrong_kind_is_an_error_at_its_place() {
        let file = mir::read(
            fixtures::bpf(),
            "t.mir",
            &with_frame("  hasCalls:        maybe\n"),
        );
        let errors: Vec<String> = file.errors().map(|e| e.to_string()).collect();
        assert_eq!(
            errors,
            ["t.mir:8:20: error: in function 'f': expected 'true' or 'false'"]
        );
        let file = mir::read(
            fixtures::bpf(),
            "t.mir",
            &with_frame("  maxAlignment:    -8\n"),
        );
        let errors: Vec<String> = file.errors().map(|e| e.to_string()).collect();
        assert_eq!(
            errors,
            ["t.mir:8:20: error: in function 'f': expected a number of bytes"]
        );
    }
}

/// [`mir::read_bytes`]'s error for a whole file, as text.
fn file_error(target: &regalloc::target::TargetInfo<'_>, bytes: &[u8]) -> String {
    match mir::read_bytes(target, "t.mir", bytes) {
        Ok(file) => panic!("read: {} functions", file.functions.len()),
        Err(e) => e.to_string(),
    }
}

#[test]
fn llvm_ir_is_not_mir() {
    assert_eq!(
        file_error(
            fixtures::bpf(),
            b"; ModuleID = 'x.c'\nsource_filename = \"x.c\"\n\ndefine void @f() {\n  ret void\n}\n"
        ),
        "t.mir:1:1: error: expected a MIR document ('--- |' and an LLVM IR module, or '---' and a machine function); found LLVM IR '; ModuleID = 'x.c'' (llc -stop-before=<pass> writes MIR)"
    );
}

#[test]
fn plain_text_is_not_mir() {
    assert_eq!(
        file_error(fixtures::bpf(), b"\n# a comment\nhello, world\n"),
        "t.mir:3:1: error: expected a MIR document ('--- |' and an LLVM IR module, or '---' and a machine function); found 'hello, world'"
    );
}

#[test]
fn text_after_the_ir_module_is_not_mir() {
    assert_eq!(
        file_error(
            fixtures::bpf(),
            b"--- |\n  define void @f() {\n    ret void\n  }\nhello\n---\nname: f\n"
        ),
        "t.mir:5:1: error: expected the IR module's indented text, its end '...' or a function document '---'; found 'hello'"
    );
}

/// llc-19 reads an empty file (or blank lines and comments) as a module
/// without functions; so does the reader.
#[test]
fn an_empty_file_is_a_module_without_functions() {
    for text in ["", "\n\n", "# nothing here\n"] {
        let file = mir::read_bytes(fixtures::bpf(), "t.mir", text.as_bytes()).expect("MIR");
        assert!(file.functions.is_empty());
        assert_eq!(mir::write(fixtures::bpf(), &file), text);
    }
}

#[test]
fn invalid_utf8_is_located_by_byte_offset_and_line() {
    let text = F.replacen("RET implicit $r0", "RET implicit $r0 ; caf\u{e9}", 1);
    let mut bytes = text.into_bytes();
    // The é of "café" as Latin-1: one byte that is not UTF-8.
    let at = bytes.windows(2).position(|w| w == "é".as_bytes()).unwrap();
    bytes.splice(at..at + 2, [0xe9]);
    assert_eq!(
        file_error(fixtures::bpf(), &bytes),
        format!(
            "t.mir:19:27: error: invalid UTF-8 at byte offset {at} (byte 0xe9): a MIR file is UTF-8 text"
        )
    );
}

#[test]
fn a_file_for_another_target_says_which() {
    let text = "--- |\n  target datalayout = \"e-m:e-p:64:64-i64:64-i128:128-n32:64-S128\"\n  target triple = \"bpf\"\n...\n"
        .to_string()
        + F;
    assert_eq!(
        file_error(&regalloc_targets::x86::TARGET, text.as_bytes()),
        "t.mir:3:3: error: the file is for target 'bpf' (target triple \"bpf\"), but target 'x86' was asked for"
    );
    // The same file for its own target reads.
    let file = mir::read_bytes(fixtures::bpf(), "t.mir", text.as_bytes()).expect("MIR");
    assert_eq!(file.errors().count(), 0);
}

/// A function document without a body and without a final newline is
/// written with the body on a line of its own (llc-19 reads the result).
#[test]
fn a_last_key_without_newline_keeps_its_line() {
    let file = mir::read(
        fixtures::bpf(),
        "t.mir",
        "---\nname: f\ntracksRegLiveness: true",
    );
    assert_eq!(file.errors().count(), 0);
    assert_eq!(
        mir::write(fixtures::bpf(), &file),
        "---\nname:            f\ntracksRegLiveness: true\nbody:             |\n...\n"
    );
}

#[test]
fn instructions_keep_their_file_positions() {
    let file = mir::read(fixtures::bpf(), "t.mir", &(F.to_string() + G));
    let f = file.read_functions().next().unwrap();
    let at = |b: usize, k: usize| f.source.location(f.blocks[b].insts[k]).unwrap().to_string();
    assert_eq!(at(0, 0), "t.mir:14:5");
    assert_eq!(at(0, 1), "t.mir:15:5");
    assert_eq!(at(1, 1), "t.mir:19:5");
}
