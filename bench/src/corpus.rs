//! The MIR corpus as the benchmark binaries see it: targets, their tables and llc flags, and the files of one level.

use std::path::{Path, PathBuf};

use regalloc::target::TargetInfo;

/// One corpus target.
#[derive(Clone, Copy)]
pub struct CorpusTarget {
    /// The corpus directory name (`x86_64`, `aarch64`, `hexagon`, `bpf`).
    pub dir: &'static str,
    /// The tables `regalloc_targets` generates for it.
    pub info: &'static TargetInfo<'static>,
    /// llc's flags for it (MIR-NOTES.md).
    pub llc_flags: &'static [&'static str],
}

/// Every corpus target.
pub fn targets() -> [CorpusTarget; 4] {
    [
        CorpusTarget {
            dir: "bpf",
            info: &regalloc_targets::bpf::TARGET,
            llc_flags: &["-mtriple=bpf", "-mcpu=v3"],
        },
        CorpusTarget {
            dir: "x86_64",
            info: &regalloc_targets::x86::TARGET,
            llc_flags: &["-mtriple=x86_64-linux-gnu", "-relocation-model=pic"],
        },
        CorpusTarget {
            dir: "aarch64",
            info: &regalloc_targets::aarch64::TARGET,
            llc_flags: &["-mtriple=aarch64-linux-gnu", "-relocation-model=pic"],
        },
        CorpusTarget {
            dir: "hexagon",
            info: &regalloc_targets::hexagon::TARGET,
            llc_flags: &[
                "-mtriple=hexagon-unknown-linux-musl",
                "-relocation-model=pic",
                "-machine-sink-split=0",
            ],
        },
    ]
}

/// The target named `name` (`x86` is accepted for `x86_64`).
pub fn target(name: &str) -> Option<CorpusTarget> {
    let name = if name == "x86" { "x86_64" } else { name };
    targets().into_iter().find(|t| t.dir == name)
}

/// The `bench/out` directory (beside this crate's manifest).
pub fn out_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("out")
}

/// One corpus file: `<lib>/<module>.mir` under a level directory.
#[derive(Clone, Debug)]
pub struct CorpusFile {
    /// The library (`zlib`, ...).
    pub lib: String,
    /// The module (file stem).
    pub module: String,
    /// The path.
    pub path: PathBuf,
}

/// The files of `target` at `level` (`O0`, `O2`, `ssa`), sorted by library
/// and module; empty when the directory is missing.
pub fn files(target: &str, level: &str) -> Vec<CorpusFile> {
    let root = out_dir().join("corpus").join(target).join(level);
    let mut out = Vec::new();
    let Ok(libs) = std::fs::read_dir(&root) else {
        return out;
    };
    for lib in libs.flatten() {
        let Ok(mods) = std::fs::read_dir(lib.path()) else {
            continue;
        };
        for m in mods.flatten() {
            let p = m.path();
            if p.extension().is_some_and(|x| x == "mir") {
                out.push(CorpusFile {
                    lib: lib.file_name().to_string_lossy().into_owned(),
                    module: p
                        .file_stem()
                        .map(|s| s.to_string_lossy().into_owned())
                        .unwrap_or_default(),
                    path: p,
                });
            }
        }
    }
    out.sort_by(|a, b| (&a.lib, &a.module).cmp(&(&b.lib, &b.module)));
    out
}
