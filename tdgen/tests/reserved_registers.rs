//! The ReservedRegisters extension: the prelude's example reserves what it documents (overlapping registers included, base pointer and stack alignment too), and misuse is reported at the def.
use tdgen::target::TargetModel;

const DESCRIPTION: &str = r##"
include "regalloc.td"
let Namespace = "My" in {
  def sub_lo : SubRegIndex<32>;
  def sub_hi : SubRegIndex<32, 32>;
  foreach i = 0...3 in def W#i : Register<"w"#i>;
  def WSP : Register<"wsp">;
  def W19 : Register<"w19">;
  def W29 : Register<"w29">;
  let SubRegIndices = [sub_lo] in {
    foreach i = 0...3 in def X#i : Register<"x"#i> { let SubRegs = [!cast<Register>("W"#i)]; }
    def SP : Register<"sp"> { let SubRegs = [WSP]; }
    def X19 : Register<"x19"> { let SubRegs = [W19]; }
    def FP : Register<"x29"> { let SubRegs = [W29]; }
  }
  // A pair holding SP: reserved because it overlaps SP.
  def P0 : Register<"p0"> { let SubRegIndices = [sub_lo, sub_hi]; let SubRegs = [X0, SP]; }
}
def GPR : RegisterClass<"My", [i64], 64, (add (sequence "X%u", 0, 3), X19, FP, SP)>;
def PAIR : RegisterClass<"My", [i128], 128, (add P0)>;
def MyReserved : ReservedRegisters {
  let Always = (add SP);
  let FramePointer = (add FP);
  let FramePointerInNonLeaf = true;
  let StackAlignment = 16;
  let BasePointer = (add X19);
  let BasePointerFrameSize = 256;
}
def My : Target;
"##;

fn build(text: &str) -> Result<TargetModel, String> {
    let mut loader = tdgen::Loader::new();
    loader.include_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/prelude"));
    let rk = loader
        .records_from_str("reserved.td", text)
        .map_err(|d| loader.render(&d))?;
    TargetModel::build(&rk).map_err(|d| loader.render(&d))
}

fn names(m: &TargetModel, set: &std::collections::BTreeSet<usize>) -> Vec<String> {
    let mut v: Vec<String> = set.iter().map(|&r| m.bank.regs[r].name.clone()).collect();
    v.sort();
    v
}

#[test]
fn reserving_a_register_reserves_everything_overlapping_it() {
    let m = build(DESCRIPTION).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(names(&m, &m.reserved.always), ["P0", "SP", "WSP"]);
    assert_eq!(names(&m, &m.reserved.frame_pointer), ["FP", "W29"]);
    assert!(m.reserved.frame_pointer_in_non_leaf);
    assert_eq!(names(&m, &m.reserved.base_pointer), ["W19", "X19"]);
}

#[test]
fn stack_alignment_and_base_pointer_frame_size_are_read() {
    let m = build(DESCRIPTION).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(m.reserved.stack_alignment, 16);
    assert_eq!(m.reserved.base_pointer_frame_size, 256);
}

#[test]
fn without_a_def_nothing_is_reserved() {
    let start = DESCRIPTION.find("def MyReserved").expect("def present");
    let end = start + DESCRIPTION[start..].find("}\n").expect("def closes") + 2;
    let text = format!("{}{}", &DESCRIPTION[..start], &DESCRIPTION[end..]);
    let m = build(&text).unwrap_or_else(|e| panic!("{e}"));
    assert!(m.reserved.always.is_empty() && m.reserved.frame_pointer.is_empty());
    assert!(!m.reserved.frame_pointer_in_non_leaf);
    assert!(m.reserved.base_pointer.is_empty());
    assert_eq!(m.reserved.stack_alignment, 0);
    assert_eq!(m.reserved.base_pointer_frame_size, 0);
}

#[test]
fn two_defs_are_an_error_at_the_second() {
    let text = format!("{DESCRIPTION}def More : ReservedRegisters {{ let Always = (add X0); }}\n");
    let shown = build(&text).err().expect("the model is rejected");
    assert!(
        shown.contains("a target may declare only one ReservedRegisters")
            && shown.contains("the first one is here"),
        "{shown}"
    );
}

#[test]
fn a_non_register_element_is_an_error() {
    let text = DESCRIPTION.replace("let Always = (add SP);", "let Always = (add SP, sub_lo);");
    let shown = build(&text).err().expect("the model is rejected");
    assert!(
        shown.contains("Always of ReservedRegisters 'MyReserved' lists"),
        "{shown}"
    );
}

#[test]
fn non_leaf_frame_pointer_without_a_register_is_an_error() {
    let text = DESCRIPTION.replace("let FramePointer = (add FP);", "");
    let shown = build(&text).err().expect("the model is rejected");
    assert!(
        shown.contains("sets FramePointerInNonLeaf but names no FramePointer register"),
        "{shown}"
    );
}

#[test]
fn base_pointer_frame_size_without_a_register_is_an_error() {
    let text = DESCRIPTION.replace("let BasePointer = (add X19);", "");
    let shown = build(&text).err().expect("the model is rejected");
    assert!(
        shown.contains(
            "ReservedRegisters 'MyReserved' sets BasePointerFrameSize but names no BasePointer register"
        ),
        "{shown}"
    );
}

#[test]
fn a_base_pointer_no_rule_can_reserve_is_an_error() {
    let text = DESCRIPTION
        .replace("let StackAlignment = 16;", "")
        .replace("let BasePointerFrameSize = 256;", "");
    let shown = build(&text).err().expect("the model is rejected");
    assert!(
        shown.contains(
            "ReservedRegisters 'MyReserved' names BasePointer registers, but no function can need them: StackAlignment and BasePointerFrameSize are both 0"
        ),
        "{shown}"
    );
}

#[test]
fn a_negative_stack_alignment_is_an_error() {
    let text = DESCRIPTION.replace("let StackAlignment = 16;", "let StackAlignment = -16;");
    let shown = build(&text).err().expect("the model is rejected");
    assert!(
        shown
            .contains("StackAlignment of ReservedRegisters 'MyReserved' is -16, which is negative"),
        "{shown}"
    );
}

#[test]
fn a_stack_alignment_beyond_32_bits_is_an_error() {
    let text = DESCRIPTION.replace(
        "let StackAlignment = 16;",
        "let StackAlignment = 8589934592;",
    );
    let shown = build(&text).err().expect("the model is rejected");
    assert!(
        shown.contains(
            "StackAlignment of ReservedRegisters 'MyReserved' is 8589934592, which is too large"
        ),
        "{shown}"
    );
}

#[test]
fn a_stack_alignment_not_a_power_of_two_is_an_error() {
    let text = DESCRIPTION.replace("let StackAlignment = 16;", "let StackAlignment = 24;");
    let shown = build(&text).err().expect("the model is rejected");
    assert!(
        shown.contains(
            "StackAlignment of ReservedRegisters 'MyReserved' is 24, which is not a power of two"
        ),
        "{shown}"
    );
}

#[test]
fn a_negative_base_pointer_frame_size_is_an_error() {
    let text = DESCRIPTION.replace(
        "let BasePointerFrameSize = 256;",
        "let BasePointerFrameSize = -1;",
    );
    let shown = build(&text).err().expect("the model is rejected");
    assert!(
        shown.contains(
            "BasePointerFrameSize of ReservedRegisters 'MyReserved' is -1, which is negative"
        ),
        "{shown}"
    );
}

#[test]
fn a_base_pointer_element_that_is_not_a_register_is_an_error() {
    let text = DESCRIPTION.replace(
        "let BasePointer = (add X19);",
        "let BasePointer = (add X19, sub_hi);",
    );
    let shown = build(&text).err().expect("the model is rejected");
    assert!(
        shown.contains(
            "BasePointer of ReservedRegisters 'MyReserved' lists 'sub_hi', which is not a register"
        ),
        "{shown}"
    );
}

#[test]
fn the_errors_point_at_the_def() {
    let text = DESCRIPTION.replace("let StackAlignment = 16;", "let StackAlignment = -16;");
    let shown = build(&text).err().expect("the model is rejected");
    let line = 1 + DESCRIPTION[..DESCRIPTION.find("def MyReserved").expect("def present")]
        .matches('\n')
        .count();
    assert!(shown.contains(&format!("reserved.td:{line}:")), "{shown}");
}
