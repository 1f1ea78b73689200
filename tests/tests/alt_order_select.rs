//! `AltOrderSelect` from description to allocation: the compiled (`regalloc!`) and the interpreted (`regalloc_td`) selectors agree on every fragment of the test suite and of the four targets, for every combination of the features each names and of the function facts; and through `regalloc!`, the tutorial's RISC-V-like description allocates llc-made MIR in its compressed order with "c" and in its full order without.

use regalloc::target::{FeatureSet, FunctionInfo, OrderSelector, TargetInfo};
use regalloc::{Allocator, Options};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

mod rvc {
    regalloc::regalloc!("../docs/toy/rvc.td");
}
mod lang {
    regalloc::regalloc!("data/select_lang.td");
}
mod tiny {
    regalloc::regalloc!("ui/pass/tiny.td");
}

fn tests_dir() -> PathBuf {
    regalloc_tests::tests_dir()
}

/// Checks that the selectors of `compiled` and of the tables built at
/// run time from `td` pick the same order for every function, and that
/// the order exists; returns how many selectors were compared.
fn agree(td: &Path, compiled: &TargetInfo<'static>) -> usize {
    let name = td.display();
    let tables = match tdgen::emit::compile(td, &[], None) {
        Ok(c) => c.tables,
        Err(f) => panic!("{name}: {}", f.rendered),
    };
    let rt = regalloc_td::load(td, &[]).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut compared = 0;
    for (k, row) in tables.classes.iter().enumerate() {
        let Some(fragment) = &row.order_select else {
            continue;
        };
        let (interpreted, generated) = (&rt.classes[k], &compiled.classes[k]);
        let (Some(a), Some(b)) = (&interpreted.order_select, &generated.order_select) else {
            panic!("{name}: class {} has a selector on both paths", row.name);
        };
        assert!(
            matches!(a, OrderSelector::Interpreted(_)),
            "{name}: run time interprets"
        );
        assert!(
            matches!(b, OrderSelector::Compiled(_)),
            "{name}: regalloc! compiles"
        );
        let bits: Vec<usize> = fragment
            .tree
            .features()
            .iter()
            .map(|n| compiled.find_feature(n).expect("a declared feature"))
            .collect();
        for chosen in 0u32..1 << bits.len() {
            let features = bits
                .iter()
                .enumerate()
                .filter(|(j, _)| chosen >> j & 1 == 1)
                .fold(0u64, |m, (_, &b)| m | 1 << b);
            for facts in 0u32..8 {
                let f = FunctionInfo {
                    has_calls: facts & 1 != 0,
                    has_frame_pointer: facts & 2 != 0,
                    has_base_pointer: facts & 4 != 0,
                    features: FeatureSet(features),
                    ..FunctionInfo::default()
                };
                let (x, y) = (a.select(&f), b.select(&f));
                assert_eq!(x, y, "{name}: class {} for {f:?}", row.name);
                assert!(
                    x < generated.orders.len(),
                    "{name}: class {} order {x}",
                    row.name
                );
            }
        }
        compared += 1;
    }
    compared
}

#[test]
fn compiled_and_interpreted_selectors_agree_on_the_test_suite_and_the_four_targets() {
    let dir = tests_dir();
    let cases: [(PathBuf, &TargetInfo<'static>, usize); 7] = [
        (dir.join("data/select_lang.td"), &lang::TARGET, 9),
        (dir.join("ui/pass/tiny.td"), &tiny::TARGET, 1),
        (dir.join("../docs/toy/rvc.td"), &rvc::TARGET, 1),
        (
            dir.join("../targets/bpf/bpf.td"),
            &regalloc_targets::bpf::TARGET,
            0,
        ),
        (
            dir.join("../targets/x86/x86.td"),
            &regalloc_targets::x86::TARGET,
            1,
        ),
        (
            dir.join("../targets/aarch64/aarch64.td"),
            &regalloc_targets::aarch64::TARGET,
            1,
        ),
        (
            dir.join("../targets/hexagon/hexagon.td"),
            &regalloc_targets::hexagon::TARGET,
            0,
        ),
    ];
    for (td, compiled, at_least) in cases {
        let n = agree(&td, compiled);
        assert!(n >= at_least, "{}: {n} selectors compared", td.display());
    }
}

#[test]
fn the_language_means_what_it_says() {
    let t = &lang::TARGET;
    let feature = |name: &str| t.find_feature(name).expect("declared");
    let with = |names: &[&str]| {
        names
            .iter()
            .fold(FeatureSet::NONE, |s, n| t.with_feature(s, feature(n), true))
    };
    let pick = |class: regalloc::target::RegClass, f: FunctionInfo| {
        let order = t.alloc_order(class, &f);
        t.class(class)
            .orders
            .iter()
            .position(|o| &o[..] == order)
            .expect("an order")
    };
    let plain = FunctionInfo::default();
    let calls = FunctionInfo {
        has_calls: true,
        ..plain
    };
    use lang::classes::*;
    assert_eq!(pick(Constant, plain), 2);
    assert_eq!(pick(Tail, plain), 3);
    assert_eq!(pick(Grouped, plain), 1);
    assert_eq!(
        pick(
            Feature,
            FunctionInfo {
                features: with(&["c"]),
                ..plain
            }
        ),
        1
    );
    // "c" implies "b".
    assert_eq!(
        pick(
            Implied,
            FunctionInfo {
                features: with(&["c"]),
                ..plain
            }
        ),
        2
    );
    assert_eq!(pick(Implied, plain), 0);
    assert_eq!(
        pick(
            Chain,
            FunctionInfo {
                features: with(&["a"]),
                ..plain
            }
        ),
        1
    );
    assert_eq!(
        pick(
            Chain,
            FunctionInfo {
                features: with(&["a", "d"]),
                ..plain
            }
        ),
        2
    );
    assert_eq!(pick(Chain, calls), 2);
    assert_eq!(pick(Early, plain), 1);
    assert_eq!(pick(Early, calls), 0);
    assert_eq!(
        pick(
            Early,
            FunctionInfo {
                has_base_pointer: true,
                ..calls
            }
        ),
        3
    );
    assert_eq!(pick(Compare, plain), 1);
    assert_eq!(pick(Compare, calls), 2);
    assert_eq!(pick(Nested, calls), 2);
    assert_eq!(
        pick(
            Nested,
            FunctionInfo {
                features: with(&["c"]),
                ..calls
            }
        ),
        3
    );
    assert_eq!(
        pick(
            Nested,
            FunctionInfo {
                features: with(&["a"]),
                ..plain
            }
        ),
        1
    );
}

/// The `$xN` registers of the functions' bodies in MIR text.
fn registers_named(mir: &str) -> BTreeSet<u32> {
    mir.split("\nbody:")
        .skip(1)
        .flat_map(|body| body.split("$x").skip(1))
        .filter_map(|rest| {
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            digits.parse().ok()
        })
        .collect()
}

/// Allocates docs/toy/rvc.mir with the `regalloc!` tables and `allocator`,
/// checked, after applying `mattr` to each function's features; returns
/// the registers the allocation added to the code.
fn allocate_rvc(allocator: Allocator, mattr: &str) -> BTreeSet<u32> {
    let path = tests_dir().join("../docs/toy/rvc.mir");
    let text = std::fs::read_to_string(&path).expect("rvc.mir");
    let t = &rvc::TARGET;
    let mut file = regalloc::mir::read(t, "rvc.mir", &text);
    assert!(file.errors().next().is_none(), "rvc.mir reads");
    let options = Options {
        allocator,
        check: true,
    };
    for doc in &mut file.functions {
        if let regalloc::mir::FunctionDoc::Read(f) = doc {
            assert!(
                f.features
                    .contains(FeatureSet(1 << t.find_feature("c").expect("c"))),
                "{}: the IR's target-features turn c on",
                f.name
            );
            f.features = t
                .apply_feature_string(f.features, mattr)
                .expect("a feature string");
            regalloc::allocate(t, f, &options).unwrap_or_else(|e| panic!("{}: {e}", f.name));
        }
    }
    let out = regalloc::mir::write(t, &file);
    registers_named(&out)
        .difference(&registers_named(&text))
        .copied()
        .collect()
}

#[test]
fn regalloc_macro_tables_allocate_in_the_compressed_order_with_c() {
    let compressed: BTreeSet<u32> = (8..=15).collect();
    for allocator in [Allocator::Greedy, Allocator::Basic, Allocator::Fast] {
        let with_c = allocate_rvc(allocator, "");
        assert!(
            with_c.is_subset(&compressed),
            "{allocator:?} +c: {with_c:?}"
        );
        let without_c = allocate_rvc(allocator, "-c");
        assert!(
            !without_c.is_subset(&compressed),
            "{allocator:?} -c: {without_c:?}"
        );
    }
}
