//! `regalloc view` on real corpus functions: the page's data held against the allocated code (each operand's register, each piece's register), its decisions against its pieces, the event log against allocation without it, its errors, and a headless Chromium screenshot that must not be blank.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use regalloc::events::Event;
use regalloc::inspect::Analyses;
use regalloc::ir::{MachineFunction, Operand, RegRef};
use regalloc::target::TargetInfo;
use serde_json::Value;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_regalloc"))
        .args(args)
        .output()
        .expect("regalloc runs")
}

/// A corpus file, or `None` (with a notice) when the corpus is not built.
fn corpus(rel: &str) -> Option<PathBuf> {
    let p = workspace().join("bench/out/corpus").join(rel);
    if p.exists() {
        Some(p)
    } else {
        println!("skipped: {} is absent (bench/corpus/build)", p.display());
        None
    }
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("cli_view_{}_{name}", std::process::id()))
}

/// Writes the page of `function` and returns its path and data. Each
/// call has a file of its own: tests running at once ask for the same
/// page, and one removes its file while another still reads its own.
fn page(target: &str, file: &Path, function: &str, allocator: &str) -> (PathBuf, Value) {
    static PAGES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = PAGES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let out = temp(&format!("{target}_{function}_{allocator}_{n}.html"));
    let o = run(&[
        "view",
        "--target",
        target,
        file.to_str().expect("utf-8 path"),
        "--function",
        function,
        "--allocator",
        allocator,
        "-o",
        out.to_str().expect("utf-8 path"),
    ]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{function} ({allocator}): {stderr}");
    assert!(stderr.contains(&format!("{function}: ")), "{stderr}");
    let html = std::fs::read_to_string(&out).expect("page written");
    (out, data_of(&html))
}

/// The JSON inside the page's data element.
fn data_of(html: &str) -> Value {
    let open = r#"<script id="data" type="application/json">"#;
    let start = html.find(open).expect("a data element") + open.len();
    let len = html[start..].find("</script>").expect("its end");
    serde_json::from_str(&html[start..start + len]).expect("the data is JSON")
}

fn target_of(name: &str) -> &'static TargetInfo<'static> {
    match name {
        "x86" => &regalloc_targets::x86::TARGET,
        "aarch64" => &regalloc_targets::aarch64::TARGET,
        "hexagon" => &regalloc_targets::hexagon::TARGET,
        _ => &regalloc_targets::bpf::TARGET,
    }
}

fn allocator_of(name: &str) -> regalloc::Allocator {
    match name {
        "fast" => regalloc::Allocator::Fast,
        "basic" => regalloc::Allocator::Basic,
        "pbqp" => regalloc::Allocator::Pbqp,
        "linearscan" => regalloc::Allocator::LinearScan,
        _ => regalloc::Allocator::Greedy,
    }
}

/// The function as read, and as allocated here, in this process, with the
/// record and the events: what the page must agree with.
struct Allocation {
    original: MachineFunction,
    allocated: MachineFunction,
    record: regalloc::AllocRecord,
    events: Vec<Event>,
}

fn allocate(
    t: &TargetInfo<'_>,
    file: &Path,
    function: &str,
    allocator: &str,
    events: bool,
) -> Allocation {
    let text = std::fs::read_to_string(file).expect("corpus file");
    let mir = regalloc::mir::read(t, &file.display().to_string(), &text);
    let original = mir
        .read_functions()
        .find(|f| f.name == function)
        .expect("the function is read")
        .clone();
    let mut allocated = original.clone();
    let contexts = regalloc::TargetContext::new(t);
    let mut ctx = regalloc::AllocContext::new();
    ctx.record_events(events);
    let options = regalloc::Options {
        allocator: allocator_of(allocator),
        check: true,
    };
    let (_, record) =
        regalloc::allocate_recorded_with_context(&contexts, &mut ctx, &mut allocated, &options)
            .expect("allocated and checked");
    Allocation {
        original,
        allocated,
        record,
        events: ctx.take_events(),
    }
}

fn reg_name(t: &TargetInfo<'_>, r: regalloc::target::Reg) -> String {
    format!("${}", t.reg(r).name.to_ascii_lowercase())
}

/// Every virtual-register operand of every original instruction still in
/// the allocated code (not removed, not folded into a memory access), as
/// (input register, raw position of the operand, operand index, the
/// allocated register's name, the sub-register index of the operand).
fn operands(
    t: &TargetInfo<'_>,
    a: &Allocation,
) -> Vec<(
    usize,
    u32,
    regalloc::ir::Inst,
    String,
    Option<regalloc::target::SubRegIndex>,
)> {
    let an = Analyses::new(t, &a.original);
    let removed: Vec<_> = a.record.removed.iter().map(|r| r.inst).collect();
    let mut out = Vec::new();
    for i in a.original.inst_ids() {
        let Some(base) = an.intervals.slots.inst(i) else {
            continue;
        };
        // Instructions rewritten into another form (folded accesses,
        // COPYs turned into spill code) have other operands.
        if removed.contains(&i)
            || a.record.memory_folds.contains_key(&i)
            || a.record.edits.contains_key(&i)
        {
            continue;
        }
        for (k, o) in a.original.inst(i).operands.iter().enumerate() {
            let Operand::Reg(r) = o else { continue };
            let RegRef::Virt(v) = r.reg else { continue };
            let Some(Operand::Reg(after)) = a.allocated.inst(i).operands.get(k) else {
                panic!(
                    "{}: operand {k} of {i:?} is no register after allocation",
                    a.original.name
                )
            };
            let RegRef::Phys(p) = after.reg else {
                panic!("{}: operand {k} of {i:?} is not physical", a.original.name)
            };
            let at = if r.is_def() { base.0 | 2 } else { base.0 | 1 };
            out.push((v.index(), at, i, reg_name(t, p), r.sub));
        }
    }
    out
}

/// The page's data against the allocation made here: every operand the
/// page lists has the register the allocated code has there, and (for the
/// allocators that keep live ranges) the one piece of the operand's
/// register live there is in that register or the register whose
/// sub-register the operand names. Returns how many operands were
/// compared with a piece.
fn check_page(target: &str, file: &Path, function: &str, allocator: &str) -> usize {
    let t = target_of(target);
    let (path, data) = page(target, file, function, allocator);
    let _ = std::fs::remove_file(path);
    let a = allocate(t, file, function, allocator, true);
    let ops = operands(t, &a);
    let vregs: std::collections::HashMap<u64, &Value> = data["vregs"]
        .as_array()
        .expect("vregs")
        .iter()
        .map(|v| (v["v"].as_u64().expect("index"), v))
        .collect();
    let pieces = data["pieces"].as_array().expect("pieces");
    assert_eq!(
        data["insts"].as_array().expect("insts").len(),
        {
            let an = Analyses::new(t, &a.original);
            a.original
                .inst_ids()
                .filter(|&i| an.intervals.slots.inst(i).is_some())
                .count()
        },
        "{function}: one entry per original instruction"
    );
    let mut compared = 0;
    for (v, at, i, reg, sub) in &ops {
        let row = vregs
            .get(&(*v as u64))
            .unwrap_or_else(|| panic!("{function}: no row for vreg index {v}"));
        let listed = row["ops"]
            .as_array()
            .expect("ops")
            .iter()
            .find(|o| o[0].as_u64() == Some(u64::from(*at)) && o[1].as_str() == Some(reg));
        assert!(
            listed.is_some(),
            "{function} ({allocator}): {} at {at} is {reg} in the code, the page lists {}",
            row["name"],
            row["ops"]
        );
        if allocator == "fast" {
            continue;
        }
        let live: Vec<&Value> = row["pieces"]
            .as_array()
            .expect("piece list")
            .iter()
            .map(|k| &pieces[k.as_u64().expect("index") as usize])
            // A range without a register is a spilled one (Basic keeps
            // it): its value is in the stack slot, and the use reads a
            // reload's piece.
            .filter(|p| !p["reg"].is_null())
            .filter(|p| {
                p["segs"].as_array().expect("segs").iter().any(|s| {
                    s[0].as_u64().expect("start") <= u64::from(*at)
                        && u64::from(*at) < s[1].as_u64().expect("end")
                })
            })
            .collect();
        assert_eq!(
            live.len(),
            1,
            "{function} ({allocator}): {} at {at} ({i:?}) should be in one piece with a register: {live:?}",
            row["name"]
        );
        let piece_reg = live[0]["reg"].as_str().expect("a register");
        let expected = match sub {
            None => piece_reg.to_string(),
            Some(s) => {
                let whole = t
                    .find_reg(&piece_reg[1..].to_ascii_uppercase())
                    .or_else(|| {
                        (0..t.regs.len())
                            .map(regalloc::target::Reg::new)
                            .find(|&r| reg_name(t, r) == piece_reg)
                    })
                    .expect("a register of the target");
                reg_name(t, t.sub_reg(whole, *s).expect("the sub-register exists"))
            }
        };
        assert_eq!(
            &expected, reg,
            "{function} ({allocator}): {} at {at} ({i:?})",
            row["name"]
        );
        compared += 1;
    }
    compared
}

#[test]
fn page_registers_are_the_allocated_codes_on_corpus_functions() {
    let cases = [
        (
            "x86",
            "x86_64/O2/lz4/lz4.mir",
            "LZ4_compress_fast_extState_fastReset",
        ),
        ("aarch64", "aarch64/O2/zlib/deflate.mir", "deflate_slow"),
        ("bpf", "bpf/O2/lz4/xxhash.mir", "XXH64_finalize"),
        ("hexagon", "hexagon/O2/zlib/inflate.mir", "inflate"),
    ];
    for (target, rel, function) in cases {
        let Some(file) = corpus(rel) else { return };
        for allocator in ["greedy", "basic", "pbqp", "linearscan", "fast"] {
            let compared = check_page(target, &file, function, allocator);
            println!("{target} {function} {allocator}: {compared} operands held against pieces");
            if allocator != "fast" {
                assert!(
                    compared > 100,
                    "{function} ({allocator}): only {compared} operands compared"
                );
            }
        }
    }
}

/// Each allocator's decisions replayed give each final piece its
/// register: the last assignment of a piece is the register the page
/// shows for it. Greedy says every kind of decision on this function.
#[test]
fn decisions_end_in_the_pieces_registers() {
    let Some(file) = corpus("x86_64/O2/lua/lvm.mir") else {
        return;
    };
    for allocator in ["greedy", "basic", "pbqp", "linearscan"] {
        let (path, data) = page("x86", &file, "luaV_execute", allocator);
        let _ = std::fs::remove_file(path);
        let mut last = std::collections::HashMap::new();
        let decisions = data["decisions"].as_array().expect("decisions");
        let kinds = |k: &str| decisions.iter().filter(|d| d["k"] == k).count();
        assert!(
            kinds("assign") > 500 && kinds("spill") > 0,
            "{allocator}: assign {}, spill {}",
            kinds("assign"),
            kinds("spill")
        );
        if allocator == "greedy" {
            assert!(
                kinds("split") > 0 && kinds("evict") > 0 && kinds("candidate") > 0,
                "split {}, evict {}, candidate {}",
                kinds("split"),
                kinds("evict"),
                kinds("candidate")
            );
        }
        for d in decisions {
            match d["k"].as_str() {
                Some("assign") => {
                    last.insert(d["v"].as_u64(), d["r"].as_str());
                }
                Some("unassign") | Some("spill") => {
                    last.insert(d["v"].as_u64(), None);
                }
                Some("evict") => {
                    for x in d["x"].as_array().expect("evicted") {
                        last.insert(x.as_u64(), None);
                    }
                }
                _ => {}
            }
        }
        for p in data["pieces"].as_array().expect("pieces") {
            assert_eq!(
                last.get(&p["v"].as_u64()).copied().flatten(),
                p["reg"].as_str(),
                "{allocator}: piece {p}"
            );
        }
    }
}

/// Region splits are preceded by the candidates Greedy weighed for the
/// range (none where only the compact region, which the uses alone want,
/// was split around), the cheapest of them with its spill placement
/// network: a bundle with a border that must spill is never in the
/// register, and some bundle is (a candidate no bundle wants is no
/// candidate).
#[test]
fn region_splits_show_their_candidates_networks() {
    let Some(file) = corpus("x86_64/O2/lua/lvm.mir") else {
        return;
    };
    let (path, data) = page("x86", &file, "luaV_execute", "greedy");
    let _ = std::fs::remove_file(path);
    let blocks = data["blocks"].as_array().expect("blocks").len() as u64;
    let mut bundles = std::collections::HashMap::new();
    for b in data["bundles"].as_array().expect("bundles") {
        let list = b[1].as_array().expect("blocks");
        assert!(!list.is_empty(), "{b}");
        for k in list {
            assert!(k.as_u64().expect("block") < blocks, "{b}");
        }
        bundles.insert(b[0].as_u64().expect("bundle"), list.len());
    }
    let decisions = data["decisions"].as_array().expect("decisions");
    let mut region_splits = 0;
    for (k, d) in decisions.iter().enumerate() {
        if d["k"] == "candidate" {
            for node in d["b"].as_array().expect("bundles") {
                let stack = node[2].as_f64().expect("stack bias");
                let value = node[3].as_i64().expect("value");
                assert!((-1..=1).contains(&value), "{node}");
                assert!(
                    stack >= 0.0 || value == -1,
                    "must spill yet {value}: {node}"
                );
                assert!(
                    bundles.contains_key(&node[0].as_u64().expect("bundle")),
                    "{node}"
                );
            }
        }
        if d["k"] != "split" || d["s"] != "region" {
            continue;
        }
        let mut candidates: Vec<&Value> = decisions[..k]
            .iter()
            .rev()
            .take_while(|e| e["k"] == "candidate" && e["v"] == d["v"])
            .collect();
        candidates.reverse();
        // The first of equally cheap candidates wins (a later one with the
        // same answer is often a reused one, without its network).
        let Some(cheapest) = candidates
            .iter()
            .min_by(|a, b| a["c"].as_f64().partial_cmp(&b["c"].as_f64()).unwrap())
        else {
            continue;
        };
        region_splits += 1;
        let nodes = cheapest["b"].as_array().expect("bundles");
        assert!(
            nodes.iter().any(|n| n[3].as_i64() == Some(1)),
            "cheapest candidate of #{k} has no bundle in the register: {cheapest}"
        );
    }
    assert!(
        region_splits > 0,
        "no region split with candidates in luaV_execute"
    );
}

/// The event log changes nothing: the same function allocated with and
/// without it is written byte for byte the same, with every allocator.
#[test]
fn events_leave_the_allocation_unchanged() {
    let Some(file) = corpus("x86_64/O2/lua/lvm.mir") else {
        return;
    };
    let t = target_of("x86");
    for allocator in ["greedy", "basic", "pbqp", "linearscan", "fast"] {
        let on = allocate(t, &file, "luaV_execute", allocator, true);
        let off = allocate(t, &file, "luaV_execute", allocator, false);
        assert!(off.events.is_empty());
        assert_eq!(on.events.is_empty(), allocator == "fast", "{allocator}");
        assert_eq!(
            regalloc::mir::write_function(t, &on.allocated),
            regalloc::mir::write_function(t, &off.allocated),
            "{allocator}"
        );
        assert_eq!(on.record, off.record, "{allocator}");
    }
}

#[test]
fn view_errors_are_exact() {
    let ex = workspace().join("examples/bpf/lz4_attach_dictionary.mir");
    let out = temp("none.html");
    let o = run(&[
        "view",
        "--target",
        "bpf",
        ex.to_str().expect("utf-8 path"),
        "--function",
        "nope",
        "-o",
        out.to_str().expect("utf-8 path"),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        "error: no function named 'nope' was read\n"
    );
    assert!(!out.exists());
}

/// The bundled example's page: every allocator writes one, and the data
/// cannot end its element early.
#[test]
fn example_page_for_every_allocator() {
    let ex = workspace().join("examples/bpf/lz4_attach_dictionary.mir");
    for allocator in ["greedy", "basic", "pbqp", "linearscan", "fast"] {
        let (path, data) = page("bpf", &ex, "LZ4_attach_dictionary", allocator);
        let html = std::fs::read_to_string(&path).expect("page");
        let _ = std::fs::remove_file(&path);
        assert_eq!(data["allocator"], allocator);
        assert_eq!(html.matches("</script>").count(), 2, "{allocator}");
        assert!(
            !html.contains("http://") && !html.contains("https://"),
            "nothing fetched"
        );
        assert!(data["vregs"].as_array().is_some_and(|v| !v.is_empty()));
    }
}

/// Headless Chromium draws a real function's page: the screenshot is not
/// one colour, and the page's script ran to its end (it sets
/// `data-load-ms` on the body last). Runs where Chromium is installed
/// (`.ci/run` installs Debian's `chromium`).
#[test]
fn chromium_renders_a_real_function() {
    let Some(chromium) = ["chromium", "chromium-browser"].iter().find(|c| {
        Command::new("which")
            .arg(c)
            .output()
            .is_ok_and(|o| o.status.success())
    }) else {
        println!("skipped: chromium is not installed");
        return;
    };
    let Some(file) = corpus("x86_64/O2/lua/lvm.mir") else {
        return;
    };
    let (path, _) = page("x86", &file, "luaV_execute", "greedy");
    let shot = temp("shot.png");
    let url = format!("file://{}", path.display());
    let common = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        "--window-size=1400,900",
    ];
    let o = Command::new(chromium)
        .args(common)
        .arg(format!("--screenshot={}", shot.display()))
        .arg(&url)
        .output()
        .expect("chromium runs");
    assert!(
        shot.exists(),
        "no screenshot: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let dom = Command::new(chromium)
        .args(common)
        .args(["--dump-dom", &url])
        .output()
        .expect("chromium runs");
    let dom = String::from_utf8_lossy(&dom.stdout);
    assert!(dom.contains("data-load-ms="), "the script did not finish");
    let colours = distinct_colours(&shot);
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_file(&shot);
    assert!(colours > 50, "the screenshot has {colours} colours");
}

/// The number of distinct pixel values of a PNG, decoded by Python's
/// standard library (zlib; the filters undone here), up to 1000.
fn distinct_colours(png: &Path) -> usize {
    let script = r#"
import sys, zlib, struct
data = open(sys.argv[1], 'rb').read()
assert data[:8] == b'\x89PNG\r\n\x1a\n'
pos, idat = 8, b''
while pos < len(data):
    n, kind = struct.unpack('>I4s', data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b'IHDR':
        w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
    elif kind == b'IDAT':
        idat += body
    pos += 12 + n
assert depth == 8 and ctype in (2, 6)
bpp = 3 if ctype == 2 else 4
raw = zlib.decompress(idat)
stride = w * bpp
prev = bytearray(stride)
seen = set()
for y in range(h):
    f = raw[y * (stride + 1)]
    line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b = prev[i]
        c = prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    if y % 8 == 0:
        for x in range(0, stride, bpp * 4):
            seen.add(bytes(line[x:x + bpp]))
    prev = line
    if len(seen) >= 1000:
        break
print(len(seen))
"#;
    let o = Command::new("python3")
        .args(["-c", script])
        .arg(png)
        .output()
        .expect("python3 runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout)
        .trim()
        .parse()
        .expect("a count")
}
