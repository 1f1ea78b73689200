//! Stages one way: the `regalloc` crate's top-level modules depend on each other without a cycle, and the checker on nothing it checks.
//!
//! Read from the source text: a module depends on another when a line of
//! its code (comments and `#[cfg(test)]` code left out) names
//! `crate::other`. The rules are the ones `docs/DESIGN.md` ("Module
//! dependencies") states.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

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

/// The top-level module a file belongs to (`alloc/greedy/mod.rs` -> `alloc`).
fn top_module(root: &Path, file: &Path) -> String {
    let relative = file.strip_prefix(root).expect("a file under the root");
    let first = relative
        .components()
        .next()
        .expect("a path")
        .as_os_str()
        .to_string_lossy()
        .into_owned();
    first.trim_end_matches(".rs").to_string()
}

/// The modules named as `crate::NAME` in the code of `text`, test code and
/// comments left out.
fn named_modules(text: &str) -> BTreeSet<String> {
    let code = text.split("#[cfg(test)]").next().unwrap_or("");
    let mut found = BTreeSet::new();
    for line in code.lines() {
        let line = line.trim_start();
        if line.starts_with("//") {
            continue;
        }
        let mut rest = line;
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                .collect();
            if !name.is_empty() {
                found.insert(name);
            }
        }
    }
    found
}

fn dependencies() -> BTreeMap<String, BTreeSet<String>> {
    let root = source_root();
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    let modules: BTreeSet<String> = files
        .iter()
        .map(|f| top_module(&root, f))
        .filter(|m| m != "lib")
        .collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let from = top_module(&root, file);
        if from == "lib" {
            continue;
        }
        let text = std::fs::read_to_string(file).expect("a readable source file");
        let entry = graph.entry(from.clone()).or_default();
        for to in named_modules(&text) {
            if to != from && modules.contains(&to) {
                entry.insert(to);
            }
        }
    }
    graph
}

/// A path from `from` back to itself, if there is one.
fn cycle_through(graph: &BTreeMap<String, BTreeSet<String>>, from: &str) -> Option<Vec<String>> {
    let mut stack = vec![(from.to_string(), vec![from.to_string()])];
    let mut seen = BTreeSet::new();
    while let Some((at, path)) = stack.pop() {
        for next in graph.get(&at).into_iter().flatten() {
            if next == from {
                let mut cycle = path.clone();
                cycle.push(next.clone());
                return Some(cycle);
            }
            if seen.insert(next.clone()) {
                let mut longer = path.clone();
                longer.push(next.clone());
                stack.push((next.clone(), longer));
            }
        }
    }
    None
}

#[test]
fn the_modules_depend_on_each_other_without_a_cycle() {
    let graph = dependencies();
    assert!(graph.contains_key("pipeline") && graph.contains_key("alloc"));
    for module in graph.keys() {
        if let Some(cycle) = cycle_through(&graph, module) {
            panic!("a cycle: {}", cycle.join(" -> "));
        }
    }
}

#[test]
fn the_checker_depends_on_nothing_it_checks() {
    let graph = dependencies();
    let allowed: BTreeSet<&str> = ["ir", "target", "record", "mir"].into();
    let check = &graph["check"];
    let extra: Vec<&String> = check
        .iter()
        .filter(|m| !allowed.contains(m.as_str()))
        .collect();
    assert!(
        extra.is_empty(),
        "the checker names {extra:?}; it may read only the IR, the target, the record and the MIR printer"
    );
}

#[test]
fn no_allocator_machinery_calls_a_later_stage() {
    let graph = dependencies();
    for later in ["pipeline", "post", "check", "stats"] {
        assert!(
            !graph["alloc"].contains(later),
            "alloc names {later}: allocators return decisions and the pipeline applies them"
        );
    }
}
