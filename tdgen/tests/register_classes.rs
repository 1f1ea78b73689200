//! Register classes llvm-tblgen-19 accepts and emits that its own oracle (`shared/oracle/facts.py`) cannot read: an allocatable class with no members.
use tdgen::target::TargetModel;

fn build(text: &str) -> Result<TargetModel, String> {
    let mut loader = tdgen::Loader::new();
    loader.include_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/prelude"));
    let rk = loader
        .records_from_str("classes.td", text)
        .map_err(|d| loader.render(&d))?;
    TargetModel::build(&rk).map_err(|d| loader.render(&d))
}

/// AMDGPU's `VReg_1` evaluates to no registers and stays allocatable:
/// llvm-tblgen emits it (`NONERegClassID` with no members); so does tdgen.
#[test]
fn an_empty_allocatable_class_is_kept() {
    let model = build(
        r##"
include "regalloc.td"
let Namespace = "T" in {
  foreach i = 0-3 in def R#i : Register<"r"#i>;
}
def GPR : RegisterClass<"T", [i32], 32, (add R0, R1, R2, R3)>;
def NONE : RegisterClass<"T", [i32], 32, (sub GPR, R0, R1, R2, R3)>;
def T : Target;
"##,
    )
    .unwrap_or_else(|e| panic!("the description is accepted:\n{e}"));
    let none = model
        .classes
        .list
        .iter()
        .find(|c| c.name == "NONE")
        .expect("the empty class is kept");
    assert!(none.members.is_empty());
    assert!(none.allocatable);
    let names: Vec<&str> = model.classes.list.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names,
        ["GPR", "NONE"],
        "class order: size, then members, then name"
    );
}
