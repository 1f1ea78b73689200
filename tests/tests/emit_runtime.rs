//! The run-time tables (`regalloc_td::load`) equal the `regalloc!`-generated ones (`regalloc_targets`), field by field, for the four targets.

use regalloc::target::TargetInfo;

fn load(t: &str) -> TargetInfo<'static> {
    let td = regalloc_tests::tests_dir().join(format!("../targets/{t}/{t}.td"));
    regalloc_td::load(&td, &[]).unwrap_or_else(|e| panic!("{t}: {e}"))
}

/// Compares table by table, then row by row, so that a failure names the first differing row.
fn same<'a>(t: &str, rt: &TargetInfo<'a>, generated: &TargetInfo<'a>) {
    assert_eq!(rt.name, generated.name, "{t}: name");
    assert_eq!(rt.regs.len(), generated.regs.len(), "{t}: register count");
    for (a, b) in rt.regs.iter().zip(generated.regs.iter()) {
        assert_eq!(a, b, "{t}: register {}", b.name);
    }
    assert_eq!(rt.units, generated.units, "{t}: units");
    assert_eq!(
        rt.sub_reg_indices, generated.sub_reg_indices,
        "{t}: sub-register indices"
    );
    assert_eq!(
        rt.sub_reg_compose, generated.sub_reg_compose,
        "{t}: composition"
    );
    assert_eq!(
        rt.classes.len(),
        generated.classes.len(),
        "{t}: class count"
    );
    for (a, b) in rt.classes.iter().zip(generated.classes.iter()) {
        assert_eq!(a, b, "{t}: class {}", b.name);
    }
    assert_eq!(
        rt.callee_saved, generated.callee_saved,
        "{t}: callee-saved sets"
    );
    assert_eq!(rt.reserved, generated.reserved, "{t}: reserved");
    assert_eq!(
        rt.frame_pointer, generated.frame_pointer,
        "{t}: frame-pointer registers"
    );
    assert_eq!(
        rt.frame_pointer_in_non_leaf, generated.frame_pointer_in_non_leaf,
        "{t}: frame pointer in non-leaf functions"
    );
    assert_eq!(
        rt.stack_alignment, generated.stack_alignment,
        "{t}: stack alignment"
    );
    assert_eq!(
        rt.join_global_copies, generated.join_global_copies,
        "{t}: the coalescer's global copies"
    );
    assert_eq!(
        rt.tracks_sub_reg_liveness, generated.tracks_sub_reg_liveness,
        "{t}: sub-register liveness"
    );
    assert_eq!(
        rt.base_pointer, generated.base_pointer,
        "{t}: base-pointer registers"
    );
    assert_eq!(
        rt.base_pointer_frame_size, generated.base_pointer_frame_size,
        "{t}: base-pointer frame size"
    );
    assert_eq!(rt.instrs, generated.instrs, "{t}: instructions");
    assert!(rt == generated, "{t}: TargetInfo values differ");
    rt.validate()
        .unwrap_or_else(|e| panic!("{t}: run-time tables invalid: {e}"));
    generated
        .validate()
        .unwrap_or_else(|e| panic!("{t}: generated tables invalid: {e}"));
}

#[test]
fn bpf_runtime_equals_generated() {
    same("bpf", &load("bpf"), &regalloc_targets::bpf::TARGET);
}

#[test]
fn aarch64_runtime_equals_generated() {
    same(
        "aarch64",
        &load("aarch64"),
        &regalloc_targets::aarch64::TARGET,
    );
}

#[test]
fn x86_runtime_equals_generated() {
    same("x86", &load("x86"), &regalloc_targets::x86::TARGET);
}

#[test]
fn hexagon_runtime_equals_generated() {
    same(
        "hexagon",
        &load("hexagon"),
        &regalloc_targets::hexagon::TARGET,
    );
}

#[test]
fn alt_order_selectors_agree() {
    // The generated selector runs the Rust compiled from the fragment; the
    // run-time one interprets its tree (tests/tests/alt_order_select.rs
    // compares them over every combination of facts and features).
    let (rt, generated) = (load("aarch64"), &regalloc_targets::aarch64::TARGET);
    let f = regalloc::target::FunctionInfo::default();
    let mut seen = 0;
    for (a, b) in rt.classes.iter().zip(generated.classes.iter()) {
        if let (Some(x), Some(y)) = (&a.order_select, &b.order_select) {
            assert_eq!(x.select(&f), y.select(&f), "class {}", b.name);
            seen += 1;
        }
    }
    assert!(seen > 0, "aarch64 has classes with AltOrderSelect");
}
