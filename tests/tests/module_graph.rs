//! Stages one way: the `regalloc` crate's modules depend on each other without a cycle between the allocators, the post passes and the checker, and the checker on nothing it checks.
//!
//! Read from the source text of `regalloc/src`: a module depends on another
//! when its code (comments, string literals and `#[cfg(test)]` items left
//! out) names it, by a `use` tree or by a path (`crate::`, `super::`,
//! `self::`, a child module's name in a `use`, or a name the crate root
//! re-exports). The nodes are the top-level modules, with the allocators
//! (`alloc::fast`, `basic`, `greedy`, `pbqp`, `linear_scan`), the split kit
//! (`alloc::split`) and the caller-owned state (`alloc::context`) apart
//! from the rest of `alloc` (the machinery the allocators share).
//!
//! A second view splits `alloc` into each of its submodules (`alloc`
//! itself is then `alloc/mod.rs` alone), so that a cycle between two
//! pieces of the shared machinery shows too.
//!
//! `cargo test -p regalloc-tests --test module_graph -- --nocapture`
//! prints both; `docs/DESIGN.md` ("Module graph") shows them. The
//! rules are the ones that section and "Module dependencies" state.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The `alloc` submodules that are nodes of their own.
const ALLOC_NODES: [&str; 7] = [
    "fast",
    "basic",
    "greedy",
    "pbqp",
    "linear_scan",
    "split",
    "context",
];

/// The `alloc` directories that are the shared machinery's own parts,
/// not allocators (every other directory under `alloc/` must be a node).
const ALLOC_MACHINERY_DIRS: [&str; 1] = ["matrix"];

/// The allocators.
const ALLOCATORS: [&str; 5] = [
    "alloc::fast",
    "alloc::basic",
    "alloc::greedy",
    "alloc::pbqp",
    "alloc::linear_scan",
];

/// Module name -> the modules its code names.
type Graph = BTreeMap<String, BTreeSet<String>>;

fn source_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../regalloc/src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a source directory") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "tests") {
                rust_files(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "rs")
            && path.file_name().is_some_and(|n| n != "tests.rs")
        {
            out.push(path);
        }
    }
}

/// The module path of a file: `lib.rs` -> `[]`, `alloc/mod.rs` ->
/// `[alloc]`, `alloc/greedy/region.rs` -> `[alloc, greedy, region]`.
fn module_path(root: &Path, file: &Path) -> Vec<String> {
    let relative = file.strip_prefix(root).expect("a file under the root");
    let mut path: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let last = path.pop().expect("a file name");
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" && stem != "lib" {
        path.push(stem.to_string());
    }
    path
}

/// `text` with comments, string and character literals blanked (same
/// length, so positions still match), and `pub(in ...)` visibilities,
/// which name modules without depending on them.
fn code_only(text: &str) -> Vec<u8> {
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let mut i = 0;
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for c in &mut out[from..to] {
            if *c != b'\n' {
                *c = b' ';
            }
        }
    };
    while i < b.len() {
        let rest = &b[i..];
        if rest.starts_with(b"//") {
            let end = rest
                .iter()
                .position(|&c| c == b'\n')
                .map_or(b.len(), |n| i + n);
            blank(&mut out, i, end);
            i = end;
        } else if rest.starts_with(b"/*") {
            let end = find(b, i + 2, b"*/").map_or(b.len(), |n| n + 2);
            blank(&mut out, i, end);
            i = end;
        } else if rest.starts_with(b"r#\"") || rest.starts_with(b"r\"") {
            let hashes = rest[1..].iter().take_while(|&&c| c == b'#').count();
            let mut close = vec![b'"'];
            close.extend(std::iter::repeat_n(b'#', hashes));
            let end = find(b, i + 2 + hashes, &close).map_or(b.len(), |n| n + close.len());
            blank(&mut out, i, end);
            i = end;
        } else if rest[0] == b'"' && (i == 0 || !b[i - 1].is_ascii_alphanumeric()) {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            blank(&mut out, i, (j + 1).min(b.len()));
            i = j + 1;
        } else if rest[0] == b'\'' {
            // A character literal ('x', '\n', '\u{..}'); a lifetime has no
            // closing quote.
            let len = if rest.get(1) == Some(&b'\\') {
                rest.iter().skip(2).position(|&c| c == b'\'').map(|n| n + 3)
            } else {
                let ch = text[i + 1..].chars().next().map_or(1, char::len_utf8);
                (rest.get(1 + ch) == Some(&b'\'')).then_some(ch + 2)
            };
            let len = len.unwrap_or(1);
            if len > 1 {
                blank(&mut out, i, i + len);
            }
            i += len;
        } else if rest.starts_with(b"pub(in ") {
            let end = rest
                .iter()
                .position(|&c| c == b')')
                .map_or(b.len(), |n| i + n + 1);
            blank(&mut out, i, end);
            i = end;
        } else {
            i += 1;
        }
    }
    out
}

fn find(b: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    (from..b.len().saturating_sub(needle.len() - 1)).find(|&k| b[k..].starts_with(needle))
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// Whether `word` stands at `i` as a whole word.
fn word_at(code: &[u8], i: usize, word: &[u8]) -> bool {
    code[i..].starts_with(word)
        && (i == 0 || !is_ident(code[i - 1]))
        && code.get(i + word.len()).is_none_or(|&c| !is_ident(c))
}

/// Whether the word at `at` begins an item: only whitespace, a
/// visibility (`pub`, `pub(crate)`) or an attribute stands between it and
/// the end of the previous item or the start of a block.
fn starts_item(code: &[u8], at: usize) -> bool {
    let mut k = at;
    loop {
        while k > 0 && code[k - 1].is_ascii_whitespace() {
            k -= 1;
        }
        if k >= 3 && &code[k - 3..k] == b"pub" && (k == 3 || !is_ident(code[k - 4])) {
            k -= 3;
        } else if k > 0 && code[k - 1] == b')' {
            let Some(open) = code[..k].iter().rposition(|&c| c == b'(') else {
                return false;
            };
            if !code[..open].ends_with(b"pub") {
                return false;
            }
            k = open;
        } else {
            return k == 0 || matches!(code[k - 1], b';' | b'{' | b'}' | b']');
        }
    }
}

/// The position just past the bracket matching the one at `open`.
fn matching(code: &[u8], open: usize) -> usize {
    let mut depth = 0i32;
    for (k, &c) in code.iter().enumerate().skip(open) {
        match c {
            b'{' | b'(' | b'[' => depth += 1,
            b'}' | b')' | b']' => {
                depth -= 1;
                if depth == 0 {
                    return k + 1;
                }
            }
            _ => {}
        }
    }
    code.len()
}

/// The end of the item starting at `start`: its `;` (outside brackets)
/// or its closing brace, after any attributes.
fn item_end(code: &[u8], mut start: usize) -> usize {
    loop {
        while start < code.len() && code[start].is_ascii_whitespace() {
            start += 1;
        }
        if code[start..].starts_with(b"#[") {
            start = matching(code, start + 1);
        } else {
            break;
        }
    }
    let mut k = start;
    while k < code.len() {
        match code[k] {
            b';' => return k + 1,
            b'{' => return matching(code, k),
            b'(' | b'[' => k = matching(code, k),
            _ => k += 1,
        }
    }
    code.len()
}

/// One file's code: the ranges left out (`#[cfg(test)]` items) and the
/// inline modules (`mod name { ... }`) with their ranges.
struct FileCode {
    module: Vec<String>,
    code: Vec<u8>,
    test_items: Vec<(usize, usize)>,
    inline_modules: Vec<(usize, usize, String)>,
}

impl FileCode {
    fn new(module: Vec<String>, text: &str) -> FileCode {
        let code = code_only(text);
        let mut test_items = Vec::new();
        let mut inline_modules = Vec::new();
        let mut i = 0;
        while i < code.len() {
            if code[i..].starts_with(b"#[cfg(test)]") {
                let end = item_end(&code, i + b"#[cfg(test)]".len());
                test_items.push((i, end));
                i = end;
            } else if word_at(&code, i, b"mod") {
                let name: String = code[i + 3..]
                    .iter()
                    .skip_while(|c| c.is_ascii_whitespace())
                    .take_while(|&&c| is_ident(c))
                    .map(|&c| c as char)
                    .collect();
                let after = i
                    + 3
                    + code[i + 3..]
                        .iter()
                        .position(|&c| c == b';' || c == b'{')
                        .unwrap_or(0);
                if code.get(after) == Some(&b'{') {
                    inline_modules.push((after, matching(&code, after), name));
                }
                i += 3;
            } else {
                i += 1;
            }
        }
        FileCode {
            module,
            code,
            test_items,
            inline_modules,
        }
    }

    fn in_test(&self, at: usize) -> bool {
        self.test_items.iter().any(|&(s, e)| s <= at && at < e)
    }

    /// The module path at `at`, inline modules included.
    fn module_at(&self, at: usize) -> Vec<String> {
        let mut path = self.module.clone();
        for (s, e, name) in &self.inline_modules {
            if *s <= at && at < *e {
                path.push(name.clone());
            }
        }
        path
    }

    /// Every path the code names, with where it stands: each `use` tree
    /// expanded, and each `crate::`, `super::` or `self::` path elsewhere.
    fn paths(&self) -> Vec<(usize, Vec<String>, bool)> {
        let code = &self.code;
        let mut out = Vec::new();
        let mut i = 0;
        while i < code.len() {
            if word_at(code, i, b"use") && starts_item(code, i) && !self.in_test(i) {
                let end = i + code[i..]
                    .iter()
                    .position(|&c| c == b';')
                    .unwrap_or(code.len() - i);
                let tree = String::from_utf8_lossy(&code[i + 3..end]).into_owned();
                for path in expand_use(&tree) {
                    out.push((i, path, true));
                }
                i = end;
                continue;
            }
            let starts_path = (i == 0 || !(is_ident(code[i - 1]) || code[i - 1] == b':'))
                && [&b"crate::"[..], b"super::", b"self::"]
                    .iter()
                    .any(|w| code[i..].starts_with(w));
            if starts_path && !self.in_test(i) {
                let len = code[i..]
                    .iter()
                    .position(|&c| !(is_ident(c) || c == b':'))
                    .unwrap_or(code.len() - i);
                let text = String::from_utf8_lossy(&code[i..i + len]).into_owned();
                let segments = text
                    .split("::")
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
                    .collect();
                out.push((i, segments, false));
                i += len;
                continue;
            }
            i += 1;
        }
        out
    }
}

/// The paths of a `use` tree (`a::{b, c::{d, e as f}}` -> `a::b`,
/// `a::c::d`, `a::c::e`).
fn expand_use(tree: &str) -> Vec<Vec<String>> {
    let tree: String = tree
        .chars()
        .filter(|c| !c.is_whitespace() || *c == ' ')
        .collect();
    let mut out = Vec::new();
    expand_into(&[], tree.trim(), &mut out);
    out
}

fn expand_into(prefix: &[String], tree: &str, out: &mut Vec<Vec<String>>) {
    let tree = tree.trim().trim_start_matches("::");
    if let Some(open) = tree.find('{')
        && tree.rfind('}').is_some_and(|close| close > open)
    {
        let mut base = prefix.to_vec();
        base.extend(
            tree[..open]
                .split("::")
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_string),
        );
        let inner = &tree[open + 1..tree.rfind('}').expect("a closing brace")];
        let mut depth = 0;
        let mut from = 0;
        for (k, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand_into(&base, &inner[from..k], out);
                    from = k + 1;
                }
                _ => {}
            }
        }
        expand_into(&base, &inner[from..], out);
    } else {
        let path = tree.split(" as ").next().unwrap_or("").trim();
        if path.is_empty() {
            return;
        }
        let mut full = prefix.to_vec();
        full.extend(
            path.split("::")
                .map(str::trim)
                .filter(|s| !s.is_empty() && *s != "*")
                .map(str::to_string),
        );
        if full.last().is_some_and(|s| s == "self") {
            full.pop();
        }
        out.push(full);
    }
}

/// The crate's modules and the names its root re-exports.
struct Crate {
    files: Vec<FileCode>,
    modules: BTreeSet<Vec<String>>,
    root_names: BTreeMap<String, Vec<String>>,
}

impl Crate {
    fn read() -> Crate {
        let root = source_root();
        let mut paths = Vec::new();
        rust_files(&root, &mut paths);
        paths.sort();
        let files: Vec<FileCode> = paths
            .iter()
            .map(|p| {
                let text = std::fs::read_to_string(p).expect("a readable source file");
                FileCode::new(module_path(&root, p), &text)
            })
            .collect();
        let mut modules: BTreeSet<Vec<String>> = files.iter().map(|f| f.module.clone()).collect();
        for f in &files {
            for (s, _, name) in &f.inline_modules {
                let mut m = f.module_at(*s);
                m.push(name.clone());
                modules.insert(m);
            }
        }
        let mut krate = Crate {
            files,
            modules,
            root_names: BTreeMap::new(),
        };
        let lib = krate
            .files
            .iter()
            .position(|f| f.module.is_empty())
            .expect("lib.rs");
        let mut names = BTreeMap::new();
        for (at, path, is_use) in krate.files[lib].paths() {
            if is_use && let Some(target) = krate.resolve(&krate.files[lib], at, &path) {
                names.insert(path.last().expect("a name").clone(), target);
            }
        }
        krate.root_names = names;
        krate
    }

    /// The absolute path `path` (written at `at` in `file`) names, if it
    /// is in this crate.
    fn resolve(&self, file: &FileCode, at: usize, path: &[String]) -> Option<Vec<String>> {
        let here = file.module_at(at);
        let first = path.first()?;
        let absolute = match first.as_str() {
            "crate" => path[1..].to_vec(),
            "self" => [here.as_slice(), &path[1..]].concat(),
            "super" => {
                let ups = path.iter().take_while(|s| *s == "super").count();
                let base = here.get(..here.len().checked_sub(ups)?)?;
                [base, &path[ups..]].concat()
            }
            _ => {
                let mut child = here.clone();
                child.push(first.clone());
                if !self.modules.contains(&child) {
                    return None;
                }
                [here.as_slice(), path].concat()
            }
        };
        match absolute.first() {
            Some(top) if self.modules.contains(&vec![top.clone()]) => Some(absolute),
            Some(name) => self.root_names.get(name).cloned(),
            None => None,
        }
    }

    /// The graph at the node granularity `node`.
    fn graph(&self, node: impl Fn(&[String]) -> Option<String>) -> Graph {
        let mut graph = Graph::new();
        for file in &self.files {
            if file.module.is_empty() {
                continue;
            }
            for (at, path, _) in file.paths() {
                let Some(from) = node(&file.module_at(at)) else {
                    continue;
                };
                let entry = graph.entry(from.clone()).or_default();
                if let Some(to) = self.resolve(file, at, &path).and_then(|p| node(&p))
                    && to != from
                {
                    entry.insert(to);
                }
            }
        }
        graph
    }
}

/// Top-level modules, with the allocators, the split kit and the contexts
/// apart from the rest of `alloc`.
fn fine_node(path: &[String]) -> Option<String> {
    let top = path.first()?;
    match path.get(1) {
        Some(sub) if top == "alloc" && ALLOC_NODES.contains(&sub.as_str()) => {
            Some(format!("alloc::{sub}"))
        }
        _ => Some(top.clone()),
    }
}

fn top_node(path: &[String]) -> Option<String> {
    path.first().cloned()
}

impl Crate {
    /// Top-level modules, with each submodule of `parent` a node of its
    /// own (`parent` itself stands for its `mod.rs` alone; a path to an
    /// item there, not to a submodule, stays with it).
    fn submodule_node(&self, parent: &str, path: &[String]) -> Option<String> {
        let top = path.first()?;
        match path.get(1) {
            Some(sub)
                if top == parent && self.modules.contains(&vec![top.clone(), sub.clone()]) =>
            {
                Some(format!("{top}::{sub}"))
            }
            _ => Some(top.clone()),
        }
    }

    /// The graph with each submodule of `alloc` a node.
    fn alloc_submodule_graph(&self) -> Graph {
        self.graph(|path| self.submodule_node("alloc", path))
    }
}

/// Every node `from` reaches, itself left out unless on a cycle.
fn reachable(graph: &Graph, from: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut stack: Vec<&String> = graph.get(from).into_iter().flatten().collect();
    while let Some(at) = stack.pop() {
        if seen.insert(at.clone()) {
            stack.extend(graph.get(at).into_iter().flatten());
        }
    }
    seen
}

/// The graph as text, one module a line.
fn render(graph: &Graph) -> String {
    let width = graph.keys().map(String::len).max().unwrap_or(0);
    graph
        .iter()
        .map(|(from, to)| {
            let to: Vec<&str> = to.iter().map(String::as_str).collect();
            format!("{from:width$} -> {}\n", to.join(", "))
        })
        .collect()
}

/// The modules that reach each other (strongly connected, two or more).
fn cycles(graph: &Graph) -> Vec<BTreeSet<String>> {
    let mut out: Vec<BTreeSet<String>> = Vec::new();
    for node in graph.keys() {
        let from_here = reachable(graph, node);
        if !from_here.contains(node) || out.iter().any(|c| c.contains(node)) {
            continue;
        }
        let component: BTreeSet<String> = from_here
            .iter()
            .filter(|m| reachable(graph, m).contains(node))
            .cloned()
            .collect();
        out.push(component);
    }
    out
}

fn print_cycles(graph: &Graph) {
    for component in cycles(graph) {
        let names: Vec<&str> = component.iter().map(String::as_str).collect();
        println!("cycle: {}", names.join(" <-> "));
    }
}

/// Whether `node` is `alloc` or one of its parts.
fn is_alloc(node: &str) -> bool {
    node == "alloc" || node.starts_with("alloc::")
}

#[test]
fn the_module_graph_is_printed() {
    let graph = Crate::read().graph(fine_node);
    print!("{}", render(&graph));
    print_cycles(&graph);
    println!("\nInside alloc:");
    let inside = Crate::read().alloc_submodule_graph();
    let alloc_only: Graph = inside
        .into_iter()
        .filter(|(from, _)| is_alloc(from))
        .collect();
    print!("{}", render(&alloc_only));
    print_cycles(&alloc_only);
    for node in ALLOCATORS
        .iter()
        .chain(&["post", "check", "pipeline", "alloc"])
    {
        assert!(graph.contains_key(*node), "no module {node} found");
    }
}

#[test]
fn the_checker_depends_on_nothing_it_checks() {
    let graph = Crate::read().graph(fine_node);
    let allowed: BTreeSet<&str> = ["ir", "target", "record", "mir"].into();
    let extra: Vec<&String> = graph["check"]
        .iter()
        .filter(|m| !allowed.contains(m.as_str()))
        .collect();
    assert!(
        extra.is_empty(),
        "the checker names {extra:?}; it may read only the IR, the target, the record and the MIR printer"
    );
    let later = |m: &String| {
        m.starts_with("alloc") || ["post", "pipeline", "passes", "stats"].contains(&m.as_str())
    };
    let checked: Vec<String> = reachable(&graph, "check")
        .into_iter()
        .filter(later)
        .collect();
    assert!(checked.is_empty(), "the checker reaches {checked:?}");
    assert!(
        !reachable(&graph, "check").contains("analysis"),
        "the checker reaches the analyses"
    );
}

/// The MIR reader and writer are the text edge: they turn text into the
/// IR's types and back, for the target, and ask no analysis (what the
/// reader needs to know of an opcode, such as whether it is a debug
/// instruction, the IR answers).
#[test]
fn the_mir_module_depends_only_on_the_ir_and_the_target() {
    let graph = Crate::read().graph(fine_node);
    let allowed: BTreeSet<&str> = ["ir", "target"].into();
    let reached: Vec<String> = reachable(&graph, "mir")
        .into_iter()
        .filter(|m| !allowed.contains(m.as_str()))
        .collect();
    assert!(
        reached.is_empty(),
        "mir reaches {reached:?}; it may depend only on the IR and the target"
    );
}

/// The pieces of `alloc` depend on each other one way: the allocators on
/// the machinery and the contexts, the contexts on the allocators whose
/// buffers they hold (never back), the machinery's parts on each other
/// without a cycle, and `alloc/mod.rs` on the parts it re-exports only.
#[test]
fn the_alloc_submodules_depend_on_each_other_without_a_cycle() {
    let graph = Crate::read().alloc_submodule_graph();
    assert!(
        graph.contains_key("alloc::spiller") && graph.contains_key("alloc::greedy"),
        "alloc's submodules are not nodes"
    );
    let found: Vec<BTreeSet<String>> = cycles(&graph)
        .into_iter()
        .filter(|c| c.iter().any(|m| is_alloc(m)))
        .collect();
    assert!(found.is_empty(), "cycles inside alloc: {found:?}");
}

#[test]
fn no_cycle_between_the_allocators_the_post_passes_and_the_checker() {
    let graph = Crate::read().graph(fine_node);
    let stages: Vec<&str> = ALLOCATORS
        .iter()
        .copied()
        .chain(["post", "check"])
        .collect();
    for a in &stages {
        let from_a = reachable(&graph, a);
        for b in &stages {
            assert!(
                a == b || !(from_a.contains(*b) && reachable(&graph, b).contains(*a)),
                "{a} and {b} depend on each other"
            );
        }
    }
}

/// `graph` without `node` (and the edges to it).
fn without(graph: &Graph, node: &str) -> Graph {
    graph
        .iter()
        .filter(|(from, _)| *from != node)
        .map(|(from, to)| {
            (
                from.clone(),
                to.iter().filter(|m| *m != node).cloned().collect(),
            )
        })
        .collect()
}

/// The allocators share `alloc`'s machinery, not each other's code; the
/// contexts they all take hold each one's buffers, so paths through
/// `alloc::context` do not count.
#[test]
fn the_allocators_do_not_depend_on_each_other() {
    let graph = without(&Crate::read().graph(fine_node), "alloc::context");
    for a in ALLOCATORS {
        let others: Vec<&str> = ALLOCATORS
            .iter()
            .copied()
            .filter(|b| *b != a && reachable(&graph, a).contains(*b))
            .collect();
        assert!(others.is_empty(), "{a} reaches {others:?}");
    }
}

#[test]
fn the_top_level_modules_depend_on_each_other_without_a_cycle() {
    let graph = Crate::read().graph(top_node);
    assert!(graph.contains_key("pipeline") && graph.contains_key("alloc"));
    let found = cycles(&graph);
    assert!(found.is_empty(), "cycles: {found:?}");
}

#[test]
fn no_allocator_machinery_calls_a_later_stage() {
    let graph = Crate::read().graph(top_node);
    for later in ["pipeline", "post", "check", "stats"] {
        assert!(
            !graph["alloc"].contains(later),
            "alloc names {later}: allocators return decisions and the pipeline applies them"
        );
    }
}

#[test]
fn the_reader_sees_paths_as_the_compiler_does() {
    // A fixture of the forms the graph is read from.
    let text = r#"
use crate::ir::{Block, inst::{Inst as I}};
use super::sibling::Thing;
use child::Item; // a comment naming crate::stats
mod child { use super::super::up::X; }
fn f() -> &'static str { let _ = crate::timing::Pass::Allocate; "crate::error" }
#[cfg(test)]
fn g() { crate::check::check(); }
pub(in crate::alloc) fn h() {}
"#;
    let file = FileCode::new(vec!["alloc".into(), "here".into()], text);
    let named: BTreeSet<(Vec<String>, Vec<String>)> = file
        .paths()
        .into_iter()
        .map(|(at, path, _)| (file.module_at(at), path))
        .collect();
    let strings = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let want: BTreeSet<(Vec<String>, Vec<String>)> = [
        (vec!["alloc", "here"], vec!["crate", "ir", "Block"]),
        (vec!["alloc", "here"], vec!["crate", "ir", "inst", "Inst"]),
        (vec!["alloc", "here"], vec!["super", "sibling", "Thing"]),
        (vec!["alloc", "here"], vec!["child", "Item"]),
        (
            vec!["alloc", "here", "child"],
            vec!["super", "super", "up", "X"],
        ),
        (
            vec!["alloc", "here"],
            vec!["crate", "timing", "Pass", "Allocate"],
        ),
    ]
    .iter()
    .map(|(m, p)| (strings(m), strings(p)))
    .collect();
    assert_eq!(named, want);
}

/// A new allocator directory under `alloc/` must be a node of its own, or
/// its dependencies would hide inside `alloc`'s and go unchecked.
#[test]
fn every_allocator_directory_is_a_node() {
    let alloc = source_root().join("alloc");
    for entry in std::fs::read_dir(&alloc).expect("regalloc/src/alloc") {
        let path = entry.expect("a directory entry").path();
        if !path.is_dir() {
            continue;
        }
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            ALLOC_NODES.contains(&name.as_str()) || ALLOC_MACHINERY_DIRS.contains(&name.as_str()),
            "alloc/{name}/ is neither a node of the module graph (ALLOC_NODES) nor listed as shared machinery"
        );
    }
}
