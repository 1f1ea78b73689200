//! Property tests for tdgen: random TableGen programs never make it panic, and agree with llvm-tblgen-19.
//!
//! Programs come from a choice sequence (a `Vec<u32>` that proptest generates
//! and shrinks toward zeros; choice 0 is always the simplest option), decoded
//! by [`Gen`] into a mostly well-formed program: classes with defaulted
//! template arguments and inheritance, defs with bodies and `let`s, top-level
//! `let ... in`, `foreach` over ranges, `multiclass`/`defm`, the bang operators
//! `!add !sub !mul !if !eq !lt !size !foreach !listconcat !strconcat !cast`,
//! bits literals and slices, and anonymous `Class<args>` instances. A second
//! kind of input is token soup, and a third a well-formed program with some
//! tokens deleted or inserted.
//!
//! Properties:
//! * `tdgen_never_panics` (256 cases): `records_from_str` and `render` return
//!   without panicking, in bounded time, on every input.
//! * `tdgen_agrees_with_llvm_tblgen` (64 well-formed cases): tdgen accepts
//!   exactly when `llvm-tblgen-19` accepts, and then the JSON documents are
//!   equal. Skipped without LLVM 19 (a failure under `CI`).
//!
//! A failure prints the shrunk program; minimized divergences are kept as
//! `tablegen/ok/prop_*.td` cases of the differential test.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use regalloc_tests::{catch_quietly, first_lines, json_diffs, llvm_tblgen_json, require_llvm_tool};

/// The time one tdgen run may take before the case counts as a hang.
const TIME_LIMIT: Duration = Duration::from_secs(10);

/// Decodes a choice sequence into a TableGen program.
struct Gen<'a> {
    choices: &'a [u32],
    pos: usize,
    out: String,
    /// Classes so far: (index, ancestor class indices including itself).
    classes: Vec<Vec<usize>>,
    /// Multiclasses so far (their index = their number).
    multiclasses: usize,
    defs: usize,
    fresh: usize,
    /// The class the last [`Gen::def_of`] instantiated.
    last_class: usize,
}

/// A scope of typed variables usable in expressions.
#[derive(Clone, Default)]
struct Env {
    ints: Vec<String>,
    strings: Vec<String>,
}

impl<'a> Gen<'a> {
    fn new(choices: &'a [u32]) -> Self {
        Gen {
            choices,
            pos: 0,
            out: String::new(),
            classes: Vec::new(),
            multiclasses: 0,
            defs: 0,
            fresh: 0,
            last_class: 0,
        }
    }

    /// A number below `n`; 0 once the choices run out.
    fn pick(&mut self, n: u32) -> u32 {
        let c = self.choices.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        c % n.max(1)
    }

    fn flag(&mut self) -> bool {
        self.pick(2) == 1
    }

    fn fresh(&mut self, prefix: &str) -> String {
        self.fresh += 1;
        format!("{prefix}{}", self.fresh)
    }

    fn cond(&mut self, env: &Env, depth: u32) -> String {
        match self.pick(4) {
            0 => format!("{}", self.pick(2)),
            1 => format!("!eq({}, {})", self.int(env, depth), self.int(env, depth)),
            2 => format!("!lt({}, {})", self.int(env, depth), self.int(env, depth)),
            _ => format!(
                "!eq({}, {})",
                self.string(env, depth),
                self.string(env, depth)
            ),
        }
    }

    fn int(&mut self, env: &Env, depth: u32) -> String {
        let leaf = depth == 0 || self.pick(3) == 0;
        if leaf {
            if !env.ints.is_empty() && self.flag() {
                let i = self.pick(env.ints.len() as u32) as usize;
                return env.ints[i].clone();
            }
            return format!("{}", self.pick(20));
        }
        let d = depth - 1;
        match self.pick(7) {
            0 => format!("!add({}, {})", self.int(env, d), self.int(env, d)),
            1 => format!("!sub({}, {})", self.int(env, d), self.int(env, d)),
            2 => format!("!mul({}, {})", self.int(env, d), self.pick(4)),
            3 => format!(
                "!if({}, {}, {})",
                self.cond(env, d),
                self.int(env, d),
                self.int(env, d)
            ),
            4 => format!("!size({})", self.list(env, d)),
            5 if !self.classes.is_empty() => {
                // A field of an anonymous instance: `C0<...>.f0`.
                let c = self.pick(self.classes.len() as u32) as usize;
                format!("{}.f{c}", self.instance(c, env, d))
            }
            _ => format!("!add({}, 1)", self.int(env, d)),
        }
    }

    fn string(&mut self, env: &Env, depth: u32) -> String {
        let leaf = depth == 0 || self.pick(3) == 0;
        if leaf {
            if !env.strings.is_empty() && self.flag() {
                let i = self.pick(env.strings.len() as u32) as usize;
                return env.strings[i].clone();
            }
            return ["\"\"", "\"a\"", "\"bc\"", "\"x_y\""][self.pick(4) as usize].to_string();
        }
        let d = depth - 1;
        match self.pick(3) {
            0 => format!(
                "!strconcat({}, {})",
                self.string(env, d),
                self.string(env, d)
            ),
            1 => format!("!cast<string>({})", self.int(env, d)),
            _ => format!(
                "!if({}, {}, {})",
                self.cond(env, d),
                self.string(env, d),
                self.string(env, d)
            ),
        }
    }

    fn list(&mut self, env: &Env, depth: u32) -> String {
        let d = depth.saturating_sub(1);
        match if depth == 0 { 0 } else { self.pick(4) } {
            0 => {
                let n = self.pick(4);
                let items: Vec<String> = (0..n).map(|_| self.int(env, d)).collect();
                if items.is_empty() {
                    "[]<int>".to_string()
                } else {
                    format!("[{}]", items.join(", "))
                }
            }
            1 => format!("!listconcat({}, {})", self.list(env, d), self.list(env, d)),
            2 => {
                let x = self.fresh("x");
                let mut inner = env.clone();
                inner.ints.push(x.clone());
                let l = self.list(env, d);
                let body = self.int(&inner, d);
                format!("!foreach({x}, {l}, {body})")
            }
            _ => format!("!listconcat({}, [{}])", self.list(env, d), self.int(env, d)),
        }
    }

    fn bits8(&mut self) -> String {
        match self.pick(3) {
            0 => format!("0x{:02x}", self.pick(256)),
            1 => {
                let bits: Vec<String> = (0..8).map(|_| self.pick(2).to_string()).collect();
                format!("{{ {} }}", bits.join(", "))
            }
            _ => format!("0b{:08b}", self.pick(256)),
        }
    }

    /// Template arguments for class `c`: none, one or both (all are defaulted).
    fn args(&mut self, env: &Env, depth: u32) -> String {
        match self.pick(3) {
            0 => String::new(),
            1 => format!("<{}>", self.int(env, depth)),
            _ => format!("<{}, {}>", self.int(env, depth), self.string(env, depth)),
        }
    }

    fn instance(&mut self, c: usize, env: &Env, depth: u32) -> String {
        match self.pick(2) {
            0 => format!("C{c}<{}>", self.int(env, depth)),
            _ => format!(
                "C{c}<{}, {}>",
                self.int(env, depth),
                self.string(env, depth)
            ),
        }
    }

    fn class(&mut self) {
        let k = self.classes.len();
        let mut ancestors = vec![k];
        let env = Env {
            ints: vec!["a".into()],
            strings: vec!["s".into()],
        };
        let default_a = self.pick(10);
        let default_s = self.string(&Env::default(), 0);
        self.out.push_str(&format!(
            "class C{k}<int a = {default_a}, string s = {default_s}>"
        ));
        let mut body_env = env.clone();
        if k > 0 && self.flag() {
            let parent = self.pick(k as u32) as usize;
            let args = self.args(&env, 2);
            self.out.push_str(&format!(" : C{parent}{args}"));
            for &p in &self.classes[parent] {
                ancestors.push(p);
                body_env.ints.push(format!("f{p}"));
                body_env.strings.push(format!("g{p}"));
            }
        }
        self.out.push_str(" {\n");
        let f = self.int(&body_env, 3);
        self.out.push_str(&format!("  int f{k} = {f};\n"));
        let g = self.string(&body_env, 2);
        self.out.push_str(&format!("  string g{k} = {g};\n"));
        let b = self.bits8();
        self.out.push_str(&format!("  bits<8> b{k} = {b};\n"));
        match self.pick(3) {
            0 => self
                .out
                .push_str(&format!("  bits<4> lo{k} = b{k}{{3-0}};\n")),
            1 => self
                .out
                .push_str(&format!("  bits<2> ends{k} = b{k}{{7, 0}};\n")),
            _ => self.out.push_str(&format!("  bits<3> ab{k} = a{{2-0}};\n")),
        }
        let l = self.list(&body_env, 2);
        self.out.push_str(&format!("  list<int> l{k} = {l};\n"));
        if ancestors.len() > 1 && self.flag() {
            let p = ancestors[1 + self.pick(ancestors.len() as u32 - 1) as usize];
            let v = self.int(&body_env, 2);
            self.out.push_str(&format!("  let f{p} = {v};\n"));
        }
        self.out.push_str("}\n");
        self.classes.push(ancestors);
    }

    /// `def NAME : Ck<args> [{ body }]` with `env` for the arguments.
    fn def_of(&mut self, name: &str, env: &Env) -> String {
        let c = self.pick(self.classes.len() as u32) as usize;
        self.last_class = c;
        let args = self.args(env, 2);
        let mut s = format!("def {name} : C{c}{args}");
        if self.flag() {
            s.push_str(" {");
            let fields = self.classes[c].clone();
            let p = fields[self.pick(fields.len() as u32) as usize];
            match self.pick(4) {
                0 => s.push_str(&format!(" let f{p} = {};", self.int(env, 2))),
                1 => s.push_str(&format!(" let g{p} = {};", self.string(env, 2))),
                2 => {
                    let anon = self.pick(self.classes.len() as u32) as usize;
                    let inst = self.instance(anon, env, 1);
                    s.push_str(&format!(" C{anon} r = {inst};"));
                }
                _ => {
                    let anon = self.pick(self.classes.len() as u32) as usize;
                    let a = self.instance(anon, env, 1);
                    let b = self.instance(anon, env, 1);
                    s.push_str(&format!(" list<C{anon}> rs = [{a}, {b}];"));
                }
            }
            s.push_str(" }");
        } else {
            s.push(';');
        }
        s
    }

    fn item(&mut self) {
        let n = self.defs;
        self.defs += 1;
        let empty = Env::default();
        match self.pick(6) {
            0 | 1 => {
                let d = self.def_of(&format!("D{n}"), &empty);
                self.out.push_str(&d);
                self.out.push('\n');
            }
            2 => {
                // Top-level let of a field of the def's class.
                let v = self.int(&empty, 1);
                let d = self.def_of(&format!("L{n}"), &empty);
                let c = self.last_class;
                let d = if self.flag() {
                    format!("let f{c} = {v} in {{\n  {d}\n}}")
                } else {
                    format!("let f{c} = {v} in\n{d}")
                };
                self.out.push_str(&d);
                self.out.push('\n');
            }
            3 => {
                let hi = self.pick(4);
                let env = Env {
                    ints: vec!["i".into()],
                    strings: vec![],
                };
                let range = if self.flag() {
                    format!("0-{hi}")
                } else {
                    format!("{{0...{hi}}}").replace(['{', '}'], "")
                };
                let d = self.def_of(&format!("F{n}_#i"), &env);
                self.out
                    .push_str(&format!("foreach i = {range} in\n  {d}\n"));
            }
            _ => {
                let m = self.multiclasses;
                self.multiclasses += 1;
                let env = Env {
                    ints: vec!["n".into()],
                    strings: vec!["NAME".into()],
                };
                self.out.push_str(&format!("multiclass M{m}<int n> {{\n"));
                let a = self.def_of("_a", &env);
                self.out.push_str(&format!("  {a}\n"));
                if self.flag() {
                    let b = self.def_of("_b", &env);
                    self.out.push_str(&format!("  {b}\n"));
                }
                if self.flag() {
                    let mut fenv = env.clone();
                    fenv.ints.push("j".into());
                    let c = self.def_of("_f#j", &fenv);
                    self.out
                        .push_str(&format!("  foreach j = 0-1 in\n    {c}\n"));
                }
                self.out.push_str("}\n");
                let arg = self.int(&empty, 2);
                self.out.push_str(&format!("defm X{n} : M{m}<{arg}>;\n"));
            }
        }
    }

    fn program(mut self) -> String {
        self.out
            .push_str("// generated by tablegen_properties.rs\n");
        let nclasses = 1 + self.pick(3);
        for _ in 0..nclasses {
            self.class();
        }
        let nitems = 1 + self.pick(5);
        for _ in 0..nitems {
            self.item();
            if self.classes.len() < 4 && self.pick(4) == 0 {
                self.class();
            }
        }
        self.out
    }
}

fn well_formed(choices: &[u32]) -> String {
    Gen::new(choices).program()
}

const TOKENS: &[&str] = &[
    "class",
    "def",
    "defm",
    "multiclass",
    "let",
    "in",
    "foreach",
    "defvar",
    "defset",
    "if",
    "then",
    "else",
    "field",
    "int",
    "string",
    "bit",
    "bits<8>",
    "list<int>",
    "dag",
    "code",
    "{",
    "}",
    "[",
    "]",
    "(",
    ")",
    "<",
    ">",
    ",",
    ";",
    ":",
    "=",
    "#",
    ".",
    "...",
    "-",
    "?",
    "$x",
    "!add",
    "!if",
    "!foreach",
    "!listconcat",
    "!strconcat",
    "!cast<string>",
    "!foldl",
    "!con",
    "!subst",
    "!size",
    "NAME",
    "A",
    "B",
    "C0",
    "x",
    "0",
    "1",
    "65535",
    "0x1f",
    "0b101",
    "\"s\"",
    "[{ code }]",
    "//",
    "/*",
    "*/",
    "#ifdef X",
    "#endif",
    "\n",
    "include \"x.td\"",
    "assert",
    "dump",
];

fn token_soup(choices: &[u32]) -> String {
    choices
        .iter()
        .map(|&c| TOKENS[c as usize % TOKENS.len()])
        .collect::<Vec<_>>()
        .join(" ")
}

/// A well-formed program with some whitespace-separated tokens deleted or replaced.
fn mutated(choices: &[u32], edits: &[(u32, u32)]) -> String {
    let text = well_formed(choices);
    let mut words: Vec<String> = text.split(' ').map(str::to_string).collect();
    for &(at, tok) in edits {
        if words.is_empty() {
            break;
        }
        let i = at as usize % words.len();
        match tok % 3 {
            0 => {
                words.remove(i);
            }
            _ => words[i] = TOKENS[tok as usize % TOKENS.len()].to_string(),
        }
    }
    words.join(" ")
}

fn choices() -> impl Strategy<Value = Vec<u32>> {
    prop::collection::vec(any::<u32>(), 0..160)
}

fn any_program() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => choices().prop_map(|c| well_formed(&c)),
        1 => prop::collection::vec(any::<u32>(), 0..80).prop_map(|c| token_soup(&c)),
        2 => (choices(), prop::collection::vec((any::<u32>(), any::<u32>()), 1..4))
            .prop_map(|(c, e)| mutated(&c, &e)),
    ]
}

/// Runs tdgen on `text`: `Ok(Some(json))` if accepted, `Ok(None)` if rejected
/// (after rendering the diagnostics), `Err` on a panic or when it took too long.
fn run_tdgen(name: &str, text: &str) -> Result<Option<serde_json::Value>, String> {
    let start = Instant::now();
    let outcome = catch_quietly(|| {
        let mut loader = tdgen::Loader::new();
        match loader.records_from_str(name, text) {
            Ok(rk) => Some(tdgen::records::to_json(&rk)),
            Err(diags) => {
                let rendered = loader.render(&diags);
                assert!(
                    !rendered.is_empty(),
                    "rejected without a rendered diagnostic"
                );
                None
            }
        }
    });
    let elapsed = start.elapsed();
    let result = outcome.map_err(|msg| format!("tdgen panicked: {msg}"))?;
    if elapsed > TIME_LIMIT {
        return Err(format!("tdgen took {elapsed:?}"));
    }
    Ok(result)
}

fn config(cases: u32) -> Config {
    Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    }
}

#[test]
fn tdgen_never_panics() {
    let mut runner = TestRunner::new(config(256));
    let result = runner.run(&any_program(), |text| {
        run_tdgen("prop.td", &text)
            .map(|_| ())
            .map_err(|e| TestCaseError::fail(format!("{e}\n--- program ---\n{text}")))
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}

/// A scratch directory for the files handed to llvm-tblgen.
fn scratch_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("tablegen_properties");
    std::fs::create_dir_all(&dir).expect("cannot create the scratch directory");
    dir
}

#[test]
fn tdgen_agrees_with_llvm_tblgen() {
    let Some(tblgen) = require_llvm_tool("llvm-tblgen") else {
        return;
    };
    let file = scratch_dir().join("prop.td");
    let file_str = file
        .to_str()
        .expect("scratch path is not UTF-8")
        .to_string();
    let mut runner = TestRunner::new(config(64));
    let result = runner.run(&choices().prop_map(|c| well_formed(&c)), |text| {
        std::fs::write(&file, &text).expect("cannot write the scratch file");
        let llvm = llvm_tblgen_json(&tblgen, &file_str, &[]);
        let ours = run_tdgen("prop.td", &text)
            .map_err(|e| TestCaseError::fail(format!("{e}\n--- program ---\n{text}")))?;
        match (llvm, ours) {
            (Err(_), None) => Ok(()),
            (Ok(expected), Some(actual)) => {
                let diffs = json_diffs(&expected, &actual, 3);
                if diffs.is_empty() {
                    Ok(())
                } else {
                    let described: Vec<String> = diffs
                        .iter()
                        .map(|d| d.describe("llvm-tblgen", "tdgen", 160))
                        .collect();
                    Err(TestCaseError::fail(format!(
                        "JSON differs:\n  {}\n--- program ---\n{text}",
                        described.join("\n  ")
                    )))
                }
            }
            (Ok(_), None) => {
                let mut loader = tdgen::Loader::new();
                let why = match loader.records_from_str("prop.td", &text) {
                    Err(diags) => first_lines(&loader.render(&diags), 12),
                    Ok(_) => String::new(),
                };
                Err(TestCaseError::fail(format!(
                    "llvm-tblgen accepts, tdgen rejects:\n{why}\n--- program ---\n{text}"
                )))
            }
            (Err(e), Some(_)) => Err(TestCaseError::fail(format!(
                "llvm-tblgen rejects, tdgen accepts:\n{e}\n--- program ---\n{text}"
            ))),
        }
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}
