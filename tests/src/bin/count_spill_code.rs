//! `count-spill-code`: the spill code of every function of allocated MIR files, counted as LLVM's output is counted (`corpus_alloc::count_llvm`), so that two allocators' outputs are measured by one rule.
//!
//! ```text
//! count-spill-code --target T A.mir [B.mir]
//! ```
//!
//! Prints one line per function: spills, reloads, folded reloads and
//! folded spills with their block-frequency weights; with two files, the
//! functions of both side by side and the weighted spill + reload +
//! folded reload of each, most different first.

use std::collections::BTreeMap;

use regalloc::mir;
use regalloc_tests::corpus_alloc::{LlvmCounts, count_llvm};

fn usage() -> ! {
    eprintln!("usage: count-spill-code --target T A.mir [B.mir]");
    std::process::exit(2)
}

/// The weighted traffic a function's spill code costs: spills, reloads
/// and folded reloads, each at its block's frequency.
fn traffic(c: &LlvmCounts) -> f64 {
    c.spill_cost + c.reload_cost + c.folded_reload_cost
}

fn counts(t: &regalloc::target::TargetInfo<'_>, path: &str) -> BTreeMap<String, LlvmCounts> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        eprintln!("count-spill-code: {path}: {e}");
        std::process::exit(2)
    });
    let file = mir::read(t, path, &text);
    file.read_functions()
        .map(|f| (f.name.clone(), count_llvm(t, f)))
        .collect()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (target, files) = match args.as_slice() {
        [flag, t, rest @ ..] if flag == "--target" && !rest.is_empty() && rest.len() <= 2 => {
            (t.as_str(), rest)
        }
        _ => usage(),
    };
    let t: &regalloc::target::TargetInfo<'static> = match target {
        "bpf" => &regalloc_targets::bpf::TARGET,
        "x86" | "x86_64" | "x86-64" => &regalloc_targets::x86::TARGET,
        "aarch64" => &regalloc_targets::aarch64::TARGET,
        "hexagon" => &regalloc_targets::hexagon::TARGET,
        _ => {
            eprintln!("count-spill-code: unknown target `{target}`");
            std::process::exit(2)
        }
    };
    let a = counts(t, &files[0]);
    let Some(b) = files.get(1).map(|p| counts(t, p)) else {
        for (name, c) in &a {
            println!(
                "{name}\tspills {} reloads {} folded reloads {} folded spills {}\tweighted {:.1}",
                c.spills,
                c.reloads,
                c.folded_reloads,
                c.folded_spills,
                traffic(c)
            );
        }
        return;
    };
    let mut rows: Vec<_> = a
        .iter()
        .filter_map(|(name, x)| b.get(name).map(|y| (name, x, y)))
        .collect();
    rows.sort_by(|p, q| {
        (traffic(q.1) - traffic(q.2))
            .abs()
            .total_cmp(&(traffic(p.1) - traffic(p.2)).abs())
    });
    let (mut ta, mut tb) = (0.0, 0.0);
    for (name, x, y) in rows {
        ta += traffic(x);
        tb += traffic(y);
        println!(
            "{name}\t{}/{}/{}/{} {:.1}\t{}/{}/{}/{} {:.1}",
            x.spills,
            x.reloads,
            x.folded_reloads,
            x.folded_spills,
            traffic(x),
            y.spills,
            y.reloads,
            y.folded_reloads,
            y.folded_spills,
            traffic(y)
        );
    }
    println!("total\t{ta:.1}\t{tb:.1}\t{:.3}", ta / tb.max(1e-9));
}
