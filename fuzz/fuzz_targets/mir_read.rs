//! Fuzz target: arbitrary bytes, if UTF-8, through the MIR reader for one of the four targets, then the writer, the reader again, the analyses, and the Fast, Basic and Greedy allocators with the checker on every function read.
//!
//! Nothing may panic, hang or overflow the stack: malformed MIR is an error
//! with a location (the function is kept as text), a function the
//! allocators cannot handle is an `AllocError`, and a function the checker
//! rejects is an `AllocError` too; only a panic is a finding. The first
//! byte picks the target (BPF, x86-64, AArch64, Hexagon); their tables are
//! built once from `targets/<t>/<t>.td` at run time.

#![no_main]

use std::path::PathBuf;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use regalloc::{Allocator, Options, allocate};
use regalloc::mir::{self, FunctionDoc};
use regalloc::target::TargetInfo;

fn targets() -> &'static [TargetInfo<'static>] {
    static TARGETS: OnceLock<Vec<TargetInfo<'static>>> = OnceLock::new();
    TARGETS.get_or_init(|| {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../targets");
        ["bpf", "x86", "aarch64", "hexagon"]
            .iter()
            .map(|t| {
                let dir = root.join(t);
                regalloc_td::load(dir.join(format!("{t}.td")), &[dir])
                    .unwrap_or_else(|e| panic!("the {t} description builds: {e}"))
            })
            .collect()
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let ts = targets();
    let t = &ts[usize::from(pick) % ts.len()];
    let file = mir::read(t, "fuzz.mir", text);
    for e in file.errors() {
        std::hint::black_box(e.to_string());
    }
    let written = mir::write(t, &file);
    let again = mir::read(t, "fuzz.mir", &written);
    std::hint::black_box(again.errors().count());
    for doc in &file.functions {
        let FunctionDoc::Read(f) = doc else { continue };
        std::hint::black_box(regalloc::inspect::Analyses::new(t, f));
        for allocator in [Allocator::Fast, Allocator::Basic, Allocator::Greedy] {
            let mut g = f.clone();
            let options = Options {
                allocator,
                check: true,
            };
            if let Err(e) = allocate(t, &mut g, &options) {
                std::hint::black_box(e.to_string());
            }
        }
    }
});
