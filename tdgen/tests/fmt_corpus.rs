//! `tdgen fmt` on every `.td` file of LLVM 19's targets: records unchanged (llvm-tblgen-19's `-dump-json` before and after), and a second run changing nothing.
//!
//! Opt-in (it runs llvm-tblgen twice on 26 whole targets, most of an hour
//! on a loaded two-core machine):
//!
//! ```text
//! bench/llvm_targets/fetch.sh     # once: Debian's llvm-toolchain-19 source under bench/out/llvm-src
//! cargo test --release -p tdgen --test fmt_corpus -- --ignored --nocapture
//! TDGEN_FMT_TARGETS=BPF,X86 cargo test ...   # only these targets' records
//! ```
//!
//! Every `.td` file under the source's `llvm/include` and `llvm/lib/Target`
//! is copied into a temporary tree and formatted there; each file must
//! format again to itself. Then each target's top file (as
//! `bench/llvm_targets/run` picks them: `T/T.td`, PowerPC's `PPC.td`,
//! AMDGPU's `R600.td` too) is evaluated from both trees with the same
//! `-I include -I <target dir>`, and the two outputs must be equal byte for
//! byte but for their `"!locs"` entries (the `file:line` of each record,
//! which moves wherever the formatter breaks a long line). Where llvm-tblgen-19 cannot evaluate a target within 8 GB (AMDGPU's
//! `-dump-json` needs more), tdgen's own records (`records --json
//! --canonical`) are compared instead. Skips (passes, saying so) when the
//! source tree or llvm-tblgen-19 is absent.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const MEMORY_LIMIT_KB: u64 = 8 * 1024 * 1024;

fn llvm_source() -> Option<PathBuf> {
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("../bench/out/llvm-src");
    let mut trees: Vec<PathBuf> = std::fs::read_dir(&base)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("llvm/include/llvm/Target/Target.td").is_file())
        .collect();
    trees.sort();
    trees.pop().map(|t| t.join("llvm"))
}

fn td_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            td_files(&path, found);
        } else if path.extension().is_some_and(|e| e == "td") {
            found.push(path);
        }
    }
}

/// Copies the `.td` files of `from` (relative paths kept) into `to`.
fn copy_td_tree(from: &Path, to: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    td_files(from, &mut files);
    files.sort();
    for f in &files {
        let target = to.join(f.strip_prefix(from).unwrap());
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::copy(f, &target).unwrap();
    }
    files
        .iter()
        .map(|f| to.join(f.strip_prefix(from).unwrap()))
        .collect()
}

/// Formats each file in place; returns the time taken. Each file must
/// format again to itself.
fn format_files(files: &[PathBuf]) -> (Duration, usize) {
    let mut spent = Duration::ZERO;
    let mut changed = 0;
    for f in files {
        let text = std::fs::read_to_string(f).unwrap();
        let start = Instant::now();
        let once = tdgen::fmt::format(&text).unwrap_or_else(|e| panic!("{}:{e}", f.display()));
        spent += start.elapsed();
        let twice = tdgen::fmt::format(&once).unwrap();
        assert!(once == twice, "{}: a second run changes it", f.display());
        if once != text {
            changed += 1;
            std::fs::write(f, &once).unwrap();
        }
    }
    (spent, changed)
}

/// The top files to evaluate: (name, target directory, top file), as bench/llvm_targets/run picks them.
fn top_files(targets: &Path) -> Vec<(String, PathBuf, PathBuf)> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(targets)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    let mut tops = Vec::new();
    for dir in dirs {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let mut files = vec![if name == "PowerPC" {
            "PPC.td".to_string()
        } else {
            format!("{name}.td")
        }];
        if name == "AMDGPU" {
            files.push("R600.td".into());
        }
        for file in files {
            let top = dir.join(&file);
            if top.is_file() {
                let label = if file == "R600.td" {
                    "R600".into()
                } else {
                    name.clone()
                };
                tops.push((label, dir.clone(), top));
            }
        }
    }
    // Smallest first (by the size of the target's .td files), so that a
    // run cut short has checked the most targets.
    tops.sort_by_key(|(_, dir, _)| {
        let mut files = Vec::new();
        td_files(dir, &mut files);
        files
            .iter()
            .map(|f| f.metadata().unwrap().len())
            .sum::<u64>()
    });
    tops
}

/// Runs a command with its address space capped, standard output to `out`;
/// whether it succeeded, and how long it took.
fn run_capped(program: &str, args: &[String], out: &Path) -> (bool, Duration) {
    let start = Instant::now();
    let mut script = format!("ulimit -v {MEMORY_LIMIT_KB}; exec \"$0\"");
    for i in 1..=args.len() {
        script.push_str(&format!(" \"${i}\""));
    }
    let status = Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(program)
        .args(args)
        .stdout(std::fs::File::create(out).unwrap())
        .stderr(std::fs::File::create(out.with_extension("err")).unwrap())
        .status()
        .unwrap();
    (status.success(), start.elapsed())
}

/// The length and a hash of a `-dump-json` output without its `"!locs"`
/// entries: records' source lines, which a formatter that breaks lines
/// moves by design; everything else must stay. (The file is read whole:
/// AMDGPU's records are 400 MB.)
fn records_digest(path: &Path) -> (usize, u64) {
    use std::hash::Hasher;
    let bytes = std::fs::read(path).unwrap();
    let key = b"\"!locs\":[";
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    let mut kept = 0;
    let mut at = 0;
    while let Some(found) = find(&bytes[at..], key) {
        hasher.write(&bytes[at..at + found]);
        kept += found;
        let array = at + found + key.len();
        let close = find(&bytes[array..], b"]").expect("a closed !locs array");
        at = array + close + 1;
    }
    hasher.write(&bytes[at..]);
    kept += bytes.len() - at;
    (kept, hasher.finish())
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// Evaluates `top` (relative to the tree root) in both trees with `tool`
/// (`concurrently`, or one after the other where each takes gigabytes);
/// says whether both succeeded and how long each took.
fn evaluate_both(
    tool: &str,
    tool_args: &[&str],
    trees: [&Path; 2],
    top: &Path,
    target_dir: &Path,
    out: [&Path; 2],
    concurrently: bool,
) -> ([bool; 2], [Duration; 2]) {
    let args = |tree: &Path| -> Vec<String> {
        let mut a: Vec<String> = tool_args.iter().map(|s| s.to_string()).collect();
        a.extend([
            "-I".into(),
            tree.join("include").display().to_string(),
            "-I".into(),
            tree.join(target_dir).display().to_string(),
            tree.join(top).display().to_string(),
        ]);
        a
    };
    if !concurrently {
        let before = run_capped(tool, &args(trees[0]), out[0]);
        let after = run_capped(tool, &args(trees[1]), out[1]);
        return ([before.0, after.0], [before.1, after.1]);
    }
    let (before, after) = std::thread::scope(|s| {
        let b = s.spawn(|| run_capped(tool, &args(trees[0]), out[0]));
        let a = s.spawn(|| run_capped(tool, &args(trees[1]), out[1]));
        (b.join().unwrap(), a.join().unwrap())
    });
    ([before.0, after.0], [before.1, after.1])
}

#[test]
#[ignore = "opt-in: most of an hour; see the file's docs"]
fn llvm_targets_keep_their_records() {
    let Some(src) = llvm_source() else {
        eprintln!(
            "skipped: no LLVM 19 source under bench/out/llvm-src (bench/llvm_targets/fetch.sh)"
        );
        return;
    };
    if Command::new("llvm-tblgen-19")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("skipped: llvm-tblgen-19 is not installed");
        return;
    }
    let work = std::env::temp_dir().join(format!("tdgen-fmt-corpus-{}", std::process::id()));
    let original = work.join("original");
    let formatted = work.join("formatted");
    let outputs = work.join("out");
    std::fs::create_dir_all(&outputs).unwrap();
    copy_td_tree(&src.join("include"), &original.join("include"));
    copy_td_tree(&src.join("lib/Target"), &original.join("Target"));

    // Format: the shared include tree, then each target's directory, timed.
    let include_files = copy_td_tree(&src.join("include"), &formatted.join("include"));
    let (spent, changed) = format_files(&include_files);
    let mut files_total = include_files.len();
    println!(
        "fmt include/: {} files, {changed} changed, {:.0} ms",
        include_files.len(),
        spent.as_secs_f64() * 1000.0
    );
    let mut target_dirs: Vec<PathBuf> = std::fs::read_dir(src.join("lib/Target"))
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    target_dirs.sort();
    for dir in &target_dirs {
        let name = dir.file_name().unwrap();
        let files = copy_td_tree(dir, &formatted.join("Target").join(name));
        let bytes: u64 = files.iter().map(|f| f.metadata().unwrap().len()).sum();
        let (spent, changed) = format_files(&files);
        files_total += files.len();
        println!(
            "fmt {}: {} files, {} KB, {changed} changed, {:.0} ms",
            name.to_string_lossy(),
            files.len(),
            bytes / 1024,
            spent.as_secs_f64() * 1000.0
        );
    }
    println!("formatted {files_total} files; each formats again to itself");

    let only: Option<Vec<String>> = std::env::var("TDGEN_FMT_TARGETS")
        .ok()
        .map(|s| s.split(',').map(|t| t.trim().to_string()).collect());
    let tdgen = env!("CARGO_BIN_EXE_tdgen");
    let mut differing = Vec::new();
    for (name, dir, top) in top_files(&original.join("Target")) {
        if only.as_ref().is_some_and(|o| !o.contains(&name)) {
            continue;
        }
        let top = top.strip_prefix(&original).unwrap().to_path_buf();
        let dir = dir.strip_prefix(&original).unwrap().to_path_buf();
        let outs = [
            outputs.join(format!("{name}.before.json")),
            outputs.join(format!("{name}.after.json")),
        ];
        let trees = [original.as_path(), formatted.as_path()];
        // AMDGPU's -dump-json needs more than the cap; go straight to tdgen.
        let mut used = "llvm-tblgen-19";
        let (mut ok, mut times) = if name == "AMDGPU" {
            ([false, false], [Duration::ZERO; 2])
        } else {
            evaluate_both(
                "llvm-tblgen-19",
                &["-dump-json"],
                trees,
                &top,
                &dir,
                [&outs[0], &outs[1]],
                true,
            )
        };
        if !ok[0] {
            used = "tdgen";
            (ok, times) = evaluate_both(
                tdgen,
                &["records", "--json", "--canonical"],
                trees,
                &top,
                &dir,
                [&outs[0], &outs[1]],
                false,
            );
        }
        let verdict = match ok {
            [true, true] if records_digest(&outs[0]) == records_digest(&outs[1]) => "equal",
            [true, true] => "DIFFERENT",
            [true, false] => "FAILED after formatting",
            _ => "not evaluated (fails before formatting)",
        };
        println!(
            "records {name} ({used}): {verdict}; {:.1} s before, {:.1} s after",
            times[0].as_secs_f64(),
            times[1].as_secs_f64()
        );
        if verdict == "equal" {
            for o in &outs {
                let _ = std::fs::remove_file(o);
            }
        } else {
            differing.push(format!(
                "{name}: {verdict} (outputs kept in {})",
                outputs.display()
            ));
        }
    }
    assert!(differing.is_empty(), "records changed: {differing:?}");
    let _ = std::fs::remove_dir_all(&work);
}
