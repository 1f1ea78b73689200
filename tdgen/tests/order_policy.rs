//! The allocation-order policy extension: the prelude's documented example gives the documented orders.
use std::collections::BTreeSet;
use tdgen::target::{TargetModel, policy};

const DESCRIPTION: &str = r#"
include "regalloc.td"
class MyReg<int n, string p> : Register<p # n> { let Namespace = "My"; let HWEncoding = n; }
foreach i = 0...31 in {
  def R#i : MyReg<i, "r">;
  def F#i : MyReg<i, "f">;
}
def MyCSR : CalleeSavedRegs<(add (sequence "R%u", 16, 23), (sequence "F%u", 24, 31))>;
def MyPolicy : AllocationOrderPolicy {
  let CheapCalleeSaved = (sequence "R%u", 16, 19);
}
def GPR : RegisterClass<"My", [i32], 32, (sequence "R%u", 0, 31)>;
def FPR : RegisterClass<"My", [f64], 64, (sequence "F%u", 0, 31)> {
  let KeepCalleeSavedOrder = 0;
}
def ACC : RegisterClass<"My", [i32], 32, (add R20, R21, R2, R3)> {
  let KeepCalleeSavedOrder = 1;
}
def My : Target;
"#;

fn order(m: &TargetModel, class: &str) -> Vec<String> {
    let c = m
        .classes
        .list
        .iter()
        .find(|c| c.name == class)
        .expect("class exists");
    let csr = &m.callee_saved[0].save_list;
    let o = policy::effective_order(
        &m.bank,
        &m.policy,
        c.keep_callee_saved_order,
        &c.orders[0],
        csr,
        &BTreeSet::new(),
    );
    o.into_iter().map(|r| m.bank.regs[r].name.clone()).collect()
}

fn names(prefix: &str, r: impl Iterator<Item = u32>) -> Vec<String> {
    r.map(|i| format!("{prefix}{i}")).collect()
}

#[test]
fn prelude_example_orders_follow_the_policy() {
    let mut loader = tdgen::Loader::new();
    loader.include_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/prelude"));
    let rk = loader
        .records_from_str("policy.td", DESCRIPTION)
        .unwrap_or_else(|d| panic!("{}", loader.render(&d)));
    let m = TargetModel::build(&rk).unwrap_or_else(|d| panic!("{}", loader.render(&d)));
    // GPR: cheap R16..R19 keep their place; R20..R23 go last, as in LLVM.
    let mut gpr = names("R", 0..20);
    gpr.extend(names("R", 24..32));
    gpr.extend(names("R", 20..24));
    assert_eq!(order(&m, "GPR"), gpr);
    // FPR overrides the policy with LLVM's behaviour.
    let mut fpr = names("F", 0..24);
    fpr.extend(names("F", 24..32));
    assert_eq!(order(&m, "FPR"), fpr);
    // ACC keeps its written order entirely.
    assert_eq!(order(&m, "ACC"), ["R20", "R21", "R2", "R3"]);
}

#[test]
fn cheap_register_outside_every_callee_saved_set_is_an_error() {
    let text = DESCRIPTION.replace("(sequence \"R%u\", 16, 19)", "(add R1)");
    let mut loader = tdgen::Loader::new();
    loader.include_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/prelude"));
    let rk = loader
        .records_from_str("policy.td", &text)
        .expect("the records evaluate");
    let err = TargetModel::build(&rk)
        .err()
        .expect("the model is rejected");
    let shown = loader.render(&err);
    assert!(
        shown.contains("CheapCalleeSaved lists R1, which is in no callee-saved set"),
        "{shown}"
    );
}
