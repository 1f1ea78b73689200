//! Bad input to the `tdgen` command never crashes and never lies: runaway ranges, values and loops stop at a documented limit with a located error, integer overflow is an error, output that cannot be written ends the process with a stated status, and files that cannot be read are said plainly.
//!
//! Each case runs the binary on a file written to a fresh directory (so the
//! paths in the messages are short and stable) and compares standard error
//! and the exit status exactly. Cases that llvm-tblgen rejects cleanly live
//! in `tests/tablegen/err` instead; these are the ones it accepts (wrapping
//! arithmetic), crashes on (memory, stack) or cannot express (write errors).

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const TDGEN: &str = env!("CARGO_BIN_EXE_tdgen");

/// The help every limit error carries.
const LIMIT_HELP: &str = "  = help: tdgen's limits (tdgen::records::limits) are far above what real targets use: a value or loop this large is almost always a mistake (a wrong range bound, a value doubled in a loop)\n";

/// A directory of its own for one case, removed when dropped.
struct Case {
    dir: PathBuf,
}

impl Case {
    fn new(name: &str, text: &str) -> Case {
        let dir = std::env::temp_dir().join(format!("tdgen-bad-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        std::fs::write(dir.join("t.td"), text).expect("the case file is written");
        Case { dir }
    }

    /// `tdgen ARGS` in the case's directory.
    fn run(&self, args: &[&str]) -> Output {
        Command::new(TDGEN)
            .args(args)
            .current_dir(&self.dir)
            .output()
            .expect("tdgen runs")
    }

    /// `tdgen records t.td`: its standard error and exit status.
    fn records(&self) -> (String, Option<i32>) {
        let o = self.run(&["records", "t.td"]);
        (
            String::from_utf8_lossy(&o.stderr).into_owned(),
            o.status.code(),
        )
    }
}

impl Drop for Case {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn rejected(name: &str, text: &str, stderr: &str) {
    let (err, code) = Case::new(name, text).records();
    assert_eq!(err, stderr, "{name}: standard error");
    assert_eq!(code, Some(1), "{name}: exit status");
}

#[test]
fn a_foreach_range_to_the_largest_int_is_an_error_at_the_range() {
    rejected(
        "huge_range",
        "foreach i = 9223372036854775807-4 in def R#i;\n",
        &format!(
            "error: range 9223372036854775807-4 has 9223372036854775804 elements; the limit is 1048576 (records::limits::MAX_LIST)\n  \
             ┌─ t.td:1:13\n  │\n1 │ foreach i = 9223372036854775807-4 in def R#i;\n  │             ^^^^^^^^^^^^^^^^^^^^^\n  │\n{LIMIT_HELP}\n\
             error: t.td found 1 error\n"
        ),
    );
}

#[test]
fn a_range_of_2_to_the_32_elements_is_an_error_before_anything_is_allocated() {
    rejected(
        "range_2_32",
        "def X { list<int> l = !range(4294967296); }\n",
        &format!(
            "error: !range builds a list of 4294967296 elements; the limit is 1048576 (records::limits::MAX_LIST)\n  \
             ┌─ t.td:1:23\n  │\n1 │ def X {{ list<int> l = !range(4294967296); }}\n  │                       ^^^^^^^^^^^^^^^^^^\n  │\n{LIMIT_HELP}\n\
             error: t.td found 1 error; 1 more follows from it and is not shown\n"
        ),
    );
    rejected(
        "foreach_2_32",
        "foreach i = 0-4294967295 in def R#i;\n",
        &format!(
            "error: range 0-4294967295 has 4294967296 elements; the limit is 1048576 (records::limits::MAX_LIST)\n  \
             ┌─ t.td:1:13\n  │\n1 │ foreach i = 0-4294967295 in def R#i;\n  │             ^^^^^^^^^^^^\n  │\n{LIMIT_HELP}\n\
             error: t.td found 1 error\n"
        ),
    );
}

#[test]
fn a_range_whose_last_step_passes_the_largest_int_has_the_elements_it_names() {
    let c = Case::new(
        "range_last_step",
        "def X { list<int> l = !range(9223372036854775806, 9223372036854775807, 5); }\n",
    );
    let o = c.run(&["records", "t.td"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("list<int> l = [9223372036854775806];"),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
}

#[test]
fn a_string_doubled_forty_times_stops_at_64_mib() {
    let mut text = String::from("defvar s0 = \"ab\";\n");
    for i in 1..=40 {
        text.push_str(&format!(
            "defvar s{i} = !strconcat(s{}, s{});\n",
            i - 1,
            i - 1
        ));
    }
    text.push_str("def X { string s = s40; }\n");
    rejected(
        "string_doubled",
        &text,
        &format!(
            "error: !strconcat builds a string of 134217728 bytes; the limit is 64 MiB (records::limits::MAX_STRING)\n   \
             ┌─ t.td:27:14\n   │\n27 │ defvar s26 = !strconcat(s25, s25);\n   │              ^^^^^^^^^^^^^^^^^^^^\n   │\n {LIMIT_HELP}\n\
             error: t.td found 1 error\n"
        ),
    );
}

#[test]
fn a_list_of_a_million_references_to_a_million_elements_is_an_error() {
    rejected(
        "splat_of_lists",
        "defvar big = !listsplat(0, 1048576);\ndef X { list<list<int>> l = !listsplat(big, 1048576); }\n",
        &format!(
            "error: !listsplat builds a value of more than 16777216 elements when expanded (records::limits::MAX_EXPANDED_VALUE): a list of lists refers to one list many times\n  \
             ┌─ t.td:2:29\n  │\n2 │ def X {{ list<list<int>> l = !listsplat(big, 1048576); }}\n  │                             ^^^^^^^^^^^^^^^^^^^^^^^^\n  │\n{LIMIT_HELP}\n\
             error: t.td found 1 error; 1 more follows from it and is not shown\n"
        ),
    );
}

#[test]
fn a_limit_passed_in_a_loop_body_is_reported_once() {
    rejected(
        "limit_in_loop",
        "defvar big = !listsplat(\"x\", 1048576);\n\
         foreach i = 0-100 in def X#i { list<string> l = !listconcat(big, big); }\n",
        &format!(
            "error: !listconcat builds a list of 2097152 elements; the limit is 1048576 (records::limits::MAX_LIST)\n  \
             ┌─ t.td:2:49\n  │\n2 │ foreach i = 0-100 in def X#i {{ list<string> l = !listconcat(big, big); }}\n  │                                                 ^^^^^^^^^^^^^^^^^^^^^\n  │\n{LIMIT_HELP}\n\
             error: t.td found 1 error\n"
        ),
    );
}

#[test]
fn a_chain_of_two_thousand_classes_stops_at_the_superclass_limit() {
    let mut text = String::from("class C0;\n");
    for i in 1..2000 {
        text.push_str(&format!("class C{i} : C{};\n", i - 1));
    }
    rejected(
        "class_chain",
        &text,
        &format!(
            "error: 'C1025' would have 1025 superclasses; the limit is 1024 (records::limits::MAX_SUPERCLASSES)\n     \
             ┌─ t.td:1026:15\n     │\n1026 │ class C1025 : C1024;\n     │               ^^^^^\n     │\n   {LIMIT_HELP}\n\
             error: t.td found 1 error\n"
        ),
    );
}

#[test]
fn a_chain_of_defvars_nesting_lists_stops_at_the_value_depth_limit() {
    let mut text = String::from("defvar l0 = [1];\n");
    for i in 1..1500 {
        text.push_str(&format!("defvar l{i} = [l{}];\n", i - 1));
    }
    rejected(
        "deep_value",
        &text,
        &format!(
            "error: this value nests more than 1000 lists or dags deep (records::limits::MAX_VALUE_DEPTH)\n     \
             ┌─ t.td:1000:15\n     │\n1000 │ defvar l999 = [l998];\n     │               ^^^^^^\n     │\n   {LIMIT_HELP}\n\
             error: t.td found 1 error\n"
        ),
    );
}

#[test]
fn statements_nested_past_the_parser_limit_are_an_error_not_a_stack_overflow() {
    let text = format!("{}def X;\n", "let a = 1 in\n".repeat(100_000));
    rejected(
        "deep_lets",
        &text,
        "error: statements and values nest deeper than 1024 levels\n     \
         ┌─ t.td:1024:9\n     │\n1024 │ let a = 1 in\n     │         ^ the parser stops here\n     │\n     \
         = help: real descriptions nest a few levels deep; build a long `let ... in`, `foreach ... in` or `#` chain from `defvar`s or a loop instead\n\n\
         error: t.td found 1 error\n",
    );
}

#[test]
fn loops_that_iterate_more_than_the_limit_stop() {
    rejected(
        "iterations",
        "foreach i = 0-1048575 in foreach j = 0-16 in { }\n",
        &format!(
            "error: more than 16777216 loop iterations (records::limits::MAX_ITERATIONS)\n  \
             ┌─ t.td:1:26\n  │\n1 │ foreach i = 0-1048575 in foreach j = 0-16 in {{ }}\n  │                          ^^^^^^^^^^^^^^^^^^^^^^^\n  │\n{LIMIT_HELP}\n\
             error: t.td found 1 error\n"
        ),
    );
}

#[test]
fn integer_overflow_is_an_error_where_llvm_tblgen_has_undefined_behaviour() {
    rejected(
        "add_overflow",
        "def X { int a = !add(9223372036854775807, 1); }\n",
        "error: illegal operation: !add(9223372036854775807, 1) overflows a 64-bit int\n  \
         ┌─ t.td:1:17\n  │\n1 │ def X { int a = !add(9223372036854775807, 1); }\n  │                 ^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n\n\
         error: t.td found 1 error; 1 more follows from it and is not shown\n",
    );
    rejected(
        "mul_sub_overflow",
        "def X { int a = !mul(4294967296, 4294967296); int b = !sub(-9223372036854775807, 2); }\n",
        "error: illegal operation: !mul(4294967296, 4294967296) overflows a 64-bit int\n  \
         ┌─ t.td:1:17\n  │\n1 │ def X { int a = !mul(4294967296, 4294967296); int b = !sub(-9223372036854775807, 2); }\n  │                 ^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n\n\
         error: illegal operation: !sub(-9223372036854775807, 2) overflows a 64-bit int\n  \
         ┌─ t.td:1:55\n  │\n1 │ def X { int a = !mul(4294967296, 4294967296); int b = !sub(-9223372036854775807, 2); }\n  │                                                       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n\n\
         error: t.td found 2 errors; 2 more follow from them and are not shown\n",
    );
    rejected(
        "shift_64",
        "def X { int a = !shl(1, 64); }\n",
        "error: illegal operation: !shl(1, 64): the shift amount must be 0 to 63\n  \
         ┌─ t.td:1:17\n  │\n1 │ def X { int a = !shl(1, 64); }\n  │                 ^^^^^^^^^^^\n\n\
         error: t.td found 1 error; 1 more follows from it and is not shown\n",
    );
    rejected(
        "shift_negative",
        "def X { int a = !sra(-8, -1); }\n",
        "error: illegal operation: !sra(-8, -1): the shift amount must be 0 to 63\n  \
         ┌─ t.td:1:17\n  │\n1 │ def X { int a = !sra(-8, -1); }\n  │                 ^^^^^^^^^^^^\n\n\
         error: t.td found 1 error; 1 more follows from it and is not shown\n",
    );
}

#[test]
fn what_llvm_tblgen_defines_stays_as_it_computes_it() {
    // A left shift of the unsigned value loses its high bits; a range value
    // is taken modulo 2^32 (llvm-tblgen reads ranges into `unsigned`).
    let c = Case::new(
        "defined",
        "def X { int a = !shl(3, 63); int b = !sra(-8, 63); int c = !srl(-1, 63); }\n\
         foreach i = 9223372036854775806-9223372036854775807 in def R#i;\n",
    );
    let o = c.run(&["records", "t.td"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "------------- Classes -----------------\n------------- Defs -----------------\n\
         def R4294967294 {\n}\ndef R4294967295 {\n}\n\
         def X {\n  int a = -9223372036854775808;\n  int b = -1;\n  int c = 1;\n}\n"
    );
}

#[test]
fn a_missing_file_is_said_without_a_snippet() {
    let c = Case::new("missing", "");
    let o = c.run(&["records", "no_such.td"]);
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        "error: cannot read 'no_such.td': No such file or directory\n\nerror: no_such.td found 1 error\n"
    );
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn a_missing_include_is_said_at_the_include() {
    rejected(
        "missing_include",
        "include \"nothere.td\"\ndef X;\n",
        "error: cannot read 'nothere.td': No such file or directory\n  \
         ┌─ t.td:1:1\n  │\n1 │ include \"nothere.td\"\n  │ ^^^^^^^^^^^^^^^^^^^^ included here\n  │\n  \
         = help: add the directory that holds it with -I\n\n\
         error: t.td found 1 error\n",
    );
}

#[test]
fn no_message_says_error_twice() {
    for (name, text) in [
        ("twice_missing_include", "include \"nothere.td\"\n"),
        ("twice_syntax", "class C {\n"),
        ("twice_undefined", "def X { int a = y; }\n"),
    ] {
        let c = Case::new(name, text);
        for args in [
            &["records", "t.td"][..],
            &["check", "t.td"],
            &["regs", "t.td"],
            &["emit", "t.td"],
            &["records", "absent.td"],
            &["emit", "absent.td"],
        ] {
            let o = c.run(args);
            let err = String::from_utf8_lossy(&o.stderr);
            assert!(!err.contains("error: error"), "{name} {args:?}: {err}");
            assert_eq!(o.status.code(), Some(1), "{name} {args:?}: {err}");
        }
    }
}

/// A description with many errors: more diagnostics than a pipe buffer holds.
fn many_errors() -> String {
    (0..3000)
        .map(|i| format!("def R{i} : Missing{i};\n"))
        .collect()
}

/// Runs tdgen with one output stream a pipe whose reading end is closed
/// before tdgen writes: its status and what it said on the other stream.
fn with_closed_pipe(case: &Case, args: &[&str], stdout: bool) -> (Option<i32>, String) {
    let mut cmd = Command::new(TDGEN);
    cmd.args(args).current_dir(&case.dir).stdin(Stdio::null());
    if stdout {
        cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    } else {
        cmd.stdout(Stdio::null()).stderr(Stdio::piped());
    }
    let mut child = cmd.spawn().expect("tdgen runs");
    let mut other = String::new();
    if stdout {
        drop(child.stdout.take());
        child
            .stderr
            .take()
            .expect("stderr is piped")
            .read_to_string(&mut other)
            .expect("stderr reads");
    } else {
        drop(child.stderr.take());
    }
    (child.wait().expect("tdgen ends").code(), other)
}

#[test]
fn a_reader_that_closes_standard_output_early_ends_tdgen_with_141_and_no_panic() {
    let mut text = String::new();
    for i in 0..20_000 {
        text.push_str(&format!(
            "def R{i} {{ int value = {i}; string name = \"register {i}\"; }}\n"
        ));
    }
    let c = Case::new("closed_stdout", &text);
    let (code, stderr) = with_closed_pipe(&c, &["records", "t.td"], true);
    assert_eq!(code, Some(141));
    assert_eq!(stderr, "", "nothing is said, no panic");
}

#[test]
fn a_reader_that_closes_standard_error_early_ends_tdgen_with_141() {
    let c = Case::new("closed_stderr", &many_errors());
    let (code, _) = with_closed_pipe(&c, &["check", "t.td"], false);
    assert_eq!(code, Some(141));
}

#[test]
fn a_closed_standard_error_gives_status_1_and_no_panic() {
    let c = Case::new("no_stderr", &many_errors());
    let o = Command::new("sh")
        .arg("-c")
        .arg(format!("exec '{TDGEN}' check t.td 2>&-"))
        .current_dir(&c.dir)
        .output()
        .expect("sh runs");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&o.stdout), "");
}

#[test]
fn a_full_disk_is_an_error_with_status_1() {
    if !Path::new("/dev/full").exists() {
        eprintln!("skipped: no /dev/full");
        return;
    }
    let c = Case::new("full", "def X { int a = 1; }\n");
    for args in [&["records", "t.td"][..], &["emit", "t.td"], &["--help"]] {
        let o = Command::new(TDGEN)
            .args(args)
            .current_dir(&c.dir)
            .stdout(std::fs::File::create("/dev/full").expect("/dev/full opens"))
            .output()
            .expect("tdgen runs");
        let err = String::from_utf8_lossy(&o.stderr);
        if args[0] == "emit" {
            // The file describes no registers: emit fails before writing.
            assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
            continue;
        }
        assert_eq!(
            err, "error: cannot write to standard output: No space left on device (os error 28)\n",
            "{args:?}"
        );
        assert_eq!(o.status.code(), Some(1), "{args:?}");
    }
}

#[test]
fn errors_past_the_first_hundred_are_counted_and_said() {
    let text: String = (0..150)
        .map(|i| format!("def R{i} : Missing{i};\n"))
        .collect();
    let (err, code) = Case::new("past_hundred", &text).records();
    assert_eq!(code, Some(1));
    assert_eq!(
        err.matches("error: couldn't find class").count(),
        100,
        "the first 100 errors are rendered"
    );
    assert!(
        err.contains("error: couldn't find class 'Missing99'") && !err.contains("'Missing100'"),
        "the first in file order are the ones shown"
    );
    assert!(
        err.ends_with("error: t.td found 150 errors; only the first 100 are shown\n"),
        "the summary counts every error: {}",
        &err[err.len().saturating_sub(200)..]
    );
}
