//! `regalloc alloc` on input that is not what it seems: huge virtual register numbers, a function without a body, files that are not MIR or not for the target, bytes that are not UTF-8, and allocation errors placed at their `.mir` line.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A scratch directory of its own for one test.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cli_mir_input_{}_{test}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

fn alloc(args: &[&str], input: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_regalloc"))
        .arg("alloc")
        .args(args)
        .arg(input)
        .output()
        .expect("regalloc runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A BPF function whose registers are written `%A`, `%B`.
fn function(a: &str, b: &str) -> String {
    format!(
        "---
name:            f
tracksRegLiveness: true
registers:
  - {{ id: {a}, class: gpr, preferred-register: '' }}
  - {{ id: {b}, class: gpr, preferred-register: '' }}
liveins:
  - {{ reg: '$r1', virtual-reg: '%{a}' }}
body:             |
  bb.0:
    liveins: $r1
  
    %{a}:gpr = COPY $r1
    %{b}:gpr = COPY %{a}
    %{b}:gpr = ADD_ri %{b}, 1
    $r0 = COPY %{b}
    RET implicit $r0
...
"
    )
}

/// Whether llc-19 reads `path` back (`-run-pass=none`, verifier on);
/// `None` when llc-19 is not installed.
fn llc_reads(path: &Path) -> Option<bool> {
    let o = Command::new("llc-19")
        .args([
            "-mtriple=bpf",
            "-mcpu=v3",
            "-run-pass=none",
            "-verify-machineinstrs",
            "-o",
        ])
        .arg("/dev/null")
        .arg(path)
        .output()
        .ok()?;
    Some(o.status.success())
}

#[test]
fn huge_register_numbers_allocate_as_small_ones() {
    let dir = scratch("huge");
    let small = dir.join("small.mir");
    let huge = dir.join("huge.mir");
    std::fs::write(&small, function("0", "1")).unwrap();
    std::fs::write(&huge, function("7", "2147483648")).unwrap();
    let mut outs = Vec::new();
    for input in [&small, &huge] {
        let out = input.with_extension("out.mir");
        let o = alloc(
            &["--target", "bpf", "--check", "-o", out.to_str().unwrap()],
            input,
        );
        assert!(o.status.success(), "{}", text(&o.stderr));
        outs.push(std::fs::read_to_string(&out).unwrap());
    }
    assert_eq!(
        outs[1],
        outs[0]
            .replace("id: 0,", "id: 7,")
            .replace("id: 1,", "id: 2147483648,")
            .replace("'%0'", "'%7'")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_register_number_llc_cannot_read_is_located() {
    let dir = scratch("too_large");
    let input = dir.join("t.mir");
    std::fs::write(&input, function("0", "4294967296")).unwrap();
    let o = alloc(&["--target", "bpf"], &input);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).starts_with(&format!(
            "{}:6:11: error: in function 'f': virtual register number '%4294967296' is too large (the largest is 4294967294)\n",
            input.display()
        )),
        "{}",
        text(&o.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_function_without_body_or_final_newline_is_written_as_llc_reads_it() {
    let dir = scratch("no_body");
    let input = dir.join("t.mir");
    let out = dir.join("out.mir");
    std::fs::write(&input, "---\nname:            f\ntracksRegLiveness: true").unwrap();
    let o = alloc(&["--target", "bpf", "-o", out.to_str().unwrap()], &input);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        "---\nname:            f\ntracksRegLiveness: true\nbody:             |\n...\n"
    );
    assert_ne!(llc_reads(&out), Some(false), "llc-19 rejects the output");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs `alloc --target TARGET` on `bytes`; returns the exit code and
/// standard error, with the input's path written `IN`.
fn rejected(test: &str, target: &str, bytes: &[u8]) -> (Option<i32>, String) {
    let dir = scratch(test);
    let input = dir.join("in.mir");
    let out = dir.join("out.mir");
    std::fs::write(&input, bytes).unwrap();
    let o = alloc(&["--target", target, "-o", out.to_str().unwrap()], &input);
    let stderr = text(&o.stderr).replace(&input.display().to_string(), "IN");
    let _ = std::fs::remove_dir_all(&dir);
    (o.status.code(), stderr)
}

#[test]
fn llvm_ir_is_refused() {
    assert_eq!(
        rejected("ir", "bpf", b"define void @f() {\n  ret void\n}\n"),
        (
            Some(1),
            "IN:1:1: error: expected a MIR document ('--- |' and an LLVM IR module, or '---' and a machine function); found LLVM IR 'define void @f() {' (llc -stop-before=<pass> writes MIR)\n".into()
        )
    );
}

#[test]
fn plain_text_is_refused() {
    assert_eq!(
        rejected("text", "bpf", b"hello\n"),
        (
            Some(1),
            "IN:1:1: error: expected a MIR document ('--- |' and an LLVM IR module, or '---' and a machine function); found 'hello'\n".into()
        )
    );
}

/// As llc-19 does, an empty file is read as a module without functions.
#[test]
fn an_empty_file_is_a_module_without_functions() {
    let dir = scratch("empty");
    let out = dir.join("out.mir");
    let o = alloc(
        &["--target", "bpf", "-o", out.to_str().unwrap()],
        Path::new("/dev/null"),
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_file_for_another_target_is_refused_naming_both() {
    let file = "--- |\n  target triple = \"bpf\"\n\n  define void @f() {\n    ret void\n  }\n...\n"
        .to_string()
        + &function("0", "1");
    assert_eq!(
        rejected("triple", "x86", file.as_bytes()),
        (
            Some(1),
            "IN:2:3: error: the file is for target 'bpf' (target triple \"bpf\"), but target 'x86' was asked for\n".into()
        )
    );
}

#[test]
fn bytes_that_are_not_utf8_are_located() {
    let mut bytes = function("0", "1").into_bytes();
    let at = bytes.windows(3).position(|w| w == b"RET").unwrap();
    bytes[at + 1] = 0xff;
    assert_eq!(
        rejected("utf8", "bpf", &bytes),
        (
            Some(1),
            format!(
                "IN:17:6: error: invalid UTF-8 at byte offset {} (byte 0xff): a MIR file is UTF-8 text\n",
                at + 1
            )
        )
    );
}

#[test]
fn an_allocation_error_names_the_instruction_line() {
    // ADD_ri ties its source to its result: two registers there are not
    // in two-address form. `%1` is defined twice, so the function is not
    // SSA and no pre-allocation pass lowers the tie: it reaches the
    // allocator's input checks as written.
    let file = function("0", "1").replace(
        "    %1:gpr = COPY %0\n    %1:gpr = ADD_ri %1, 1\n",
        "    %1:gpr = ADD_ri %0, 1\n    %1:gpr = ADD_ri %1, 1\n",
    );
    let (code, stderr) = rejected("alloc_error", "bpf", file.as_bytes());
    assert_eq!(code, Some(1));
    assert_eq!(
        stderr,
        "IN:14:5: error: unsupported: f, bb.0, instruction 1: ADD_ri: operand 1 (%0) is tied to operand 0 (%1) but names another register; allocators take two-address form, as after LLVM's two-address pass: copy first (`%1 = COPY %0`) and use %1 in both operands\n"
    );
}
