//! The ReservedRegisters extension: the prelude's example reserves what it documents (overlapping registers included), and misuse is reported at the def.
use tdgen::target::TargetModel;

const DESCRIPTION: &str = r##"
include "regalloc.td"
let Namespace = "My" in {
  def sub_lo : SubRegIndex<32>;
  def sub_hi : SubRegIndex<32, 32>;
  foreach i = 0...3 in def W#i : Register<"w"#i>;
  def WSP : Register<"wsp">;
  def W29 : Register<"w29">;
  let SubRegIndices = [sub_lo] in {
    foreach i = 0...3 in def X#i : Register<"x"#i> { let SubRegs = [!cast<Register>("W"#i)]; }
    def SP : Register<"sp"> { let SubRegs = [WSP]; }
    def FP : Register<"x29"> { let SubRegs = [W29]; }
  }
  // A pair holding SP: reserved because it overlaps SP.
  def P0 : Register<"p0"> { let SubRegIndices = [sub_lo, sub_hi]; let SubRegs = [X0, SP]; }
}
def GPR : RegisterClass<"My", [i64], 64, (add (sequence "X%u", 0, 3), FP, SP)>;
def PAIR : RegisterClass<"My", [i128], 128, (add P0)>;
def MyReserved : ReservedRegisters {
  let Always = (add SP);
  let FramePointer = (add FP);
  let FramePointerInNonLeaf = true;
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
}

#[test]
fn without_a_def_nothing_is_reserved() {
    let start = DESCRIPTION.find("def MyReserved").expect("def present");
    let end = start + DESCRIPTION[start..].find("}\n").expect("def closes") + 2;
    let text = format!("{}{}", &DESCRIPTION[..start], &DESCRIPTION[end..]);
    let m = build(&text).unwrap_or_else(|e| panic!("{e}"));
    assert!(m.reserved.always.is_empty() && m.reserved.frame_pointer.is_empty());
    assert!(!m.reserved.frame_pointer_in_non_leaf);
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
