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
