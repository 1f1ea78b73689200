//! RDF liveness against the live-ins we write: on our greedy and fast allocations of the corpus of all four targets, the block live-ins RDF computes from the data-flow graph equal the `liveins:` lists the allocator leaves (restricted to the registers the graph tracks); and small functions whose live-ins and kill flags are known.

use regalloc::ir::MachineFunction;
use regalloc::rdf::{DataFlowGraph, Liveness, reserved_regs};
use regalloc::target::TargetInfo;
use regalloc::{Allocator, Options, allocate_without_stats, mir};
use regalloc_tests::corpus_alloc::{corpus, flat_name, mir_files, targets};

fn hexagon() -> &'static TargetInfo<'static> {
    &regalloc_targets::hexagon::TARGET
}

/// The one function of `body` (a Hexagon MIR body), read.
fn function(t: &TargetInfo<'_>, body: &str) -> MachineFunction {
    let text = format!("---\nname: f\ntracksRegLiveness: true\nbody: |\n{body}...\n");
    let m = mir::read(t, "rdf_liveness.mir", &text);
    let errors: Vec<String> = m.errors().map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}");
    m.read_functions().next().expect("one function").clone()
}

/// Each block's computed live-ins, as lower-case names.
fn computed(t: &TargetInfo<'_>, f: &MachineFunction) -> Vec<Vec<String>> {
    let g = DataFlowGraph::build(t, f, &reserved_regs(t, f));
    let l = Liveness::compute(&g);
    (0..f.blocks.len())
        .map(|b| {
            l.live_ins(&g, b)
                .iter()
                .map(|r| match r.id {
                    regalloc::rdf::RegId::Phys(p) => t.reg(p).name.to_ascii_lowercase(),
                    regalloc::rdf::RegId::Mask(_) => "mask".to_string(),
                })
                .collect()
        })
        .collect()
}

#[test]
fn a_value_used_past_a_loop_is_live_through_it_and_a_redefined_one_is_not() {
    let t = hexagon();
    // r2 is defined before the loop and read after it: live into the loop
    // and the exit. r1 is the loop's counter (a phi at the loop head). r3
    // is redefined in the loop before its use there: not live in.
    let f = function(
        t,
        "  bb.0:
    successors: %bb.1
    liveins: $r0, $r1
    $r2 = A2_tfrsi 7
  bb.1:
    successors: %bb.1, %bb.2
    liveins: $r0, $r1, $r2
    $r3 = A2_tfrsi 1
    $r1 = A2_add $r1, $r3
    $p0 = C2_cmpeqi $r1, 0
    J2_jumpf $p0, %bb.1, implicit-def dead $pc
  bb.2:
    liveins: $r0, $r2
    $r0 = A2_add $r0, $r2
    PS_jmpret $r31, implicit-def dead $pc, implicit $r0
",
    );
    let live = computed(t, &f);
    assert_eq!(live[0], ["r0", "r1"], "the entry: the function's live-ins");
    assert_eq!(live[1], ["r0", "r1", "r2"]);
    assert_eq!(live[2], ["r0", "r2"]);
    let g = DataFlowGraph::build(t, &f, &reserved_regs(t, &f));
    assert!(Liveness::compute(&g).differences(&g).is_empty());
}

#[test]
fn a_pair_is_live_in_only_for_the_half_a_use_reads_from_outside() {
    let t = hexagon();
    // The use of d0 in bb.1 reads r1 from bb.0 but r0 from its own block.
    let f = function(
        t,
        "  bb.0:
    successors: %bb.1
    liveins: $r1
    J2_jump %bb.1, implicit-def dead $pc
  bb.1:
    liveins: $r1
    $r0 = A2_tfrsi 0
    $d0 = A2_addp $d0, $d0
    PS_jmpret $r31, implicit-def dead $pc, implicit $d0
",
    );
    let live = computed(t, &f);
    assert_eq!(live[1], ["r1"]);
}

#[test]
fn a_recorded_live_in_nothing_reads_is_a_difference() {
    let t = hexagon();
    let f = function(
        t,
        "  bb.0:
    successors: %bb.1
    liveins: $r0
    J2_jump %bb.1, implicit-def dead $pc
  bb.1:
    liveins: $r0, $r5
    PS_jmpret $r31, implicit-def dead $pc, implicit $r0
",
    );
    let g = DataFlowGraph::build(t, &f, &reserved_regs(t, &f));
    let d = Liveness::compute(&g).differences(&g);
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].block, 1);
    assert_eq!(d[0].recorded.len(), 2);
    assert_eq!(d[0].computed.len(), 1);
}

#[test]
fn kills_are_the_last_reads_before_the_block_ends_or_a_redefinition() {
    let t = hexagon();
    let f = function(
        t,
        "  bb.0:
    successors: %bb.1
    liveins: $r0, $r1
    $r2 = A2_add $r0, $r1
    $r3 = A2_add $r2, $r1
    J2_jump %bb.1, implicit-def dead $pc
  bb.1:
    liveins: $r0, $r3
    $r0 = A2_add $r0, $r3
    PS_jmpret $r31, implicit-def dead $pc, implicit $r0
",
    );
    let g = DataFlowGraph::build(t, &f, &reserved_regs(t, &f));
    let kills = Liveness::compute(&g).kills(&g);
    let at = |b: usize, k: usize| f.blocks[b].insts[k];
    // bb.0: r1 dies at the second add, r2 too; r0 lives on into bb.1.
    // bb.1: both operands of the add die; r0 and r31 at the return.
    assert_eq!(
        kills,
        [
            (at(0, 1), 1),
            (at(0, 1), 2),
            (at(1, 0), 1),
            (at(1, 0), 2),
            (at(1, 1), 0),
            (at(1, 1), 2),
        ]
    );
}

/// Functions compared, equal, and equal but for function live-ins no
/// code reads (which LLVM adds to the entry block and we leave out).
#[derive(Default)]
struct Counts {
    total: usize,
    same: usize,
    unread_function_live_ins: usize,
    /// Functions where RDF finds more live-ins than we list, and none
    /// fewer: RDF, as LLVM's, lets no predicated definition end a value's
    /// liveness (on Hexagon, an `A2_tfrt`/`A2_tfrf` pair on one predicate
    /// defines a register fully, yet the value before it stays live).
    rdf_superset: usize,
    /// Time spent building graphs and computing liveness.
    time: std::time::Duration,
}

/// Our allocation of every corpus function by `allocator`: the counts and
/// the first differences.
fn compare_corpus(t: &TargetInfo<'_>, dir: &str, allocator: Allocator) -> (Counts, Vec<String>) {
    let root = corpus(dir);
    let (mut n, mut differences) = (Counts::default(), Vec::new());
    for path in mir_files(&root) {
        let name = flat_name(&root, &path);
        let text = std::fs::read_to_string(&path).unwrap();
        let file = mir::read(t, &name, &text);
        for f in file.read_functions() {
            let mut f = f.clone();
            let options = Options {
                allocator,
                check: false,
            };
            if allocate_without_stats(t, &mut f, &options).is_err() {
                continue;
            }
            n.total += 1;
            let start = std::time::Instant::now();
            let g = DataFlowGraph::build(t, &f, &reserved_regs(t, &f));
            let live = Liveness::compute(&g);
            n.time += start.elapsed();
            let d = live.differences(&g);
            if d.is_empty() {
                n.same += 1;
            } else if d.iter().all(|x| x.only_unread_function_live_ins) {
                n.unread_function_live_ins += 1;
            } else if d
                .iter()
                .all(|x| x.recorded.iter().all(|r| x.computed.contains(r)))
            {
                n.rdf_superset += 1;
            }
            if !d.is_empty() && differences.len() < 20 {
                let show = |v: &[regalloc::rdf::RegisterRef]| {
                    v.iter()
                        .map(|r| match r.id {
                            regalloc::rdf::RegId::Phys(p) => {
                                format!("{}:{:x}", t.reg(p).name, r.lanes.0)
                            }
                            regalloc::rdf::RegId::Mask(_) => "mask".into(),
                        })
                        .collect::<Vec<_>>()
                        .join(" ")
                };
                differences.push(format!(
                    "{name}:{} bb.{}: recorded {{{}}} computed {{{}}}",
                    f.name,
                    d[0].block,
                    show(&d[0].recorded),
                    show(&d[0].computed)
                ));
            }
        }
    }
    (n, differences)
}

#[test]
fn rdf_live_ins_equal_ours_on_the_corpus() {
    let mut failed = false;
    let mut any = false;
    for (name, dir, t, _, _) in targets() {
        if mir_files(&corpus(dir)).is_empty() {
            eprintln!("notice: no {name} corpus: skipped");
            continue;
        }
        any = true;
        for allocator in [Allocator::Greedy, Allocator::Fast] {
            let (n, differences) = compare_corpus(t, dir, allocator);
            for d in &differences {
                println!("differs: {d}");
            }
            println!(
                "{name} {}: rdf live-ins equal ours on {}/{} functions, {} more but for function live-ins no code reads, {} where RDF's are a superset ({} ms building graphs and liveness)",
                allocator.name(),
                n.same,
                n.total,
                n.unread_function_live_ins,
                n.rdf_superset,
                n.time.as_millis()
            );
            failed |= n.same + n.unread_function_live_ins + n.rdf_superset != n.total;
        }
    }
    if !any {
        eprintln!("notice: no corpus: skipped");
    }
    assert!(!failed, "live-ins differ (listed above)");
}
