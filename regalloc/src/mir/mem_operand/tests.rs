//! Memory operands read and printed back: every form LLVM 19 prints (the corpus's distinct operands, when it is built), the older or unordered forms LLVM's printer normalizes, and the errors, as exact text at exact offsets.

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::{MemError, parse, write};
use crate::ir::{
    AtomicOrdering, FrameObject, FrameRef, LaneType, LowLevelType, MachineFunction, MemFlags,
    MemOperand, MemValue, MetadataId,
};

/// Reads `text` in a function with the frame objects it names (each
/// `%stack.N.NAME` named so), and prints it back in that function.
fn round_trip(text: &str) -> Result<String, MemError> {
    let named: RefCell<Vec<(FrameRef, String)>> = RefCell::new(Vec::new());
    let any_frame = |fr: FrameRef, name: &str| {
        named.borrow_mut().push((fr, name.to_string()));
        Ok(())
    };
    let m = parse(text, &any_frame)?;
    let mut f = MachineFunction::new("f");
    for (fr, name) in named.into_inner() {
        let mut o = FrameObject::spill_slot(fr.id, 8, 8);
        o.name = (!name.is_empty()).then(|| name.into());
        if fr.fixed {
            f.fixed_stack.push(o);
        } else {
            f.stack.push(o);
        }
    }
    let mut out = String::new();
    write(&mut out, &f, &m);
    Ok(out)
}

/// Reads `text` with no frame objects at all.
fn read(text: &str) -> Result<MemOperand, MemError> {
    parse(text, &|_, _| Err("no frame objects here".into()))
}

/// Forms LLVM 19 prints (each checked with `llc-19 -run-pass=none`),
/// beyond the corpus's.
const CANONICAL: &[&str] = &[
    "(load (s64) from %ir.4, !tbaa !5)",
    "(store (s32) into %ir.p + 4, align 2)",
    "(load (s32) from %ir.p - 4)",
    "(load (s32) from %ir.p + 8, align 8, basealign 16)",
    "(load (s64) from %ir.p + 4, align 4, basealign 8)",
    "(load (s24) from %ir.p, align 4)",
    "(load (<1 x s32>) from %ir.p)",
    "(load (<2 x p0>) from %ir.p)",
    "(load (<vscale x 4 x s32>) from %ir.p)",
    "(load (p270) from %ir.p)",
    "(load unknown-size from %ir.p, align 1)",
    "(load (s32))",
    "(load (s32), addrspace 3)",
    "(load (s32) from unknown-address + 4)",
    "(store (s64) into unknown-address - 8, align 8)",
    "(volatile non-temporal dereferenceable invariant load (s32) from %ir.p)",
    "(\"aarch64-suppress-pair\" load (s64) from %ir.p)",
    "(load syncscope(\"singlethread\") seq_cst (s32) from %ir.p)",
    "(load store acq_rel monotonic (s32) on %ir.p)",
    "(load store monotonic (s32) on @g, align 8)",
    "(load (s32) from %stack.0)",
    "(load (s32) from %stack.3.buf + 4)",
    "(store (s64) into %fixed-stack.2, align 16)",
    "(load (s64) from constant-pool)",
    "(load (s64) from got)",
    "(load (s64) from jump-table)",
    "(store (s64) into stack + 16)",
    "(load (s32) from call-entry @f)",
    "(load (s32) from call-entry &memcpy)",
    "(load (s32) from custom \"x\")",
    "(load (s32) from @f + 8)",
    "(load (s32) from @\"a b\")",
    "(load (s32) from %ir.\"a b\")",
    "(load (s32) from `ptr getelementptr inbounds ([4 x i32], ptr @t, i64 0, i64 1)`, !tbaa !7, !range !9)",
    "(load (s64) from `ptr addrspace(257) null`, addrspace 257)",
    "(load (s32) from %ir.p, !tbaa !1, !alias.scope !2, !noalias !3, !range !4)",
];

#[test]
fn llvm_forms_round_trip() {
    for text in CANONICAL {
        assert_eq!(round_trip(text).as_deref(), Ok(*text));
    }
}

#[test]
fn operands_read_into_their_parts() {
    let m = read("(dereferenceable invariant load (<vscale x 2 x p0>) from %ir.q + 8, basealign 16, !noalias !3)")
        .unwrap();
    assert_eq!(
        m,
        MemOperand {
            flags: MemFlags::LOAD | MemFlags::DEREFERENCEABLE | MemFlags::INVARIANT,
            ty: Some(LowLevelType::Vector {
                lanes: 2,
                scalable: true,
                lane: LaneType::Pointer(0),
            }),
            value: Some(MemValue::IrNamed("q".into())),
            offset: 8,
            base_align: Some(16),
            noalias: Some(MetadataId(3)),
            ..MemOperand::default()
        }
    );
    assert!(m.is_invariant_load());
    let m = read("(load store syncscope(\"agent\") acq_rel acquire (s32) on %ir.7)").unwrap();
    assert_eq!(m.flags, MemFlags::LOAD | MemFlags::STORE);
    assert_eq!(m.sync_scope.as_deref(), Some("agent"));
    assert_eq!(
        (m.ordering, m.failure_ordering),
        (AtomicOrdering::AcquireRelease, AtomicOrdering::Acquire)
    );
    assert_eq!(m.value, Some(MemValue::IrNumbered(7)));
    assert!(!m.is_invariant_load());
}

/// What LLVM's parser accepts in other spellings, printed as llc-19
/// prints it: a byte count, flags and metadata in another order, an
/// unknown address without an offset, address space 0, `- -4`, blanks.
#[test]
fn other_spellings_print_as_llvm_prints_them() {
    for (text, printed) in [
        ("(load 4 from %ir.p)", "(load (s32) from %ir.p)"),
        (
            "(invariant volatile load (s32) from %ir.p)",
            "(volatile invariant load (s32) from %ir.p)",
        ),
        (
            "(load (s32) from stack + 4, !range !1, !noalias !2, !alias.scope !3, !tbaa !4)",
            "(load (s32) from stack + 4, !tbaa !4, !alias.scope !3, !noalias !2, !range !1)",
        ),
        ("(load (s32) from unknown-address)", "(load (s32))"),
        ("(load (s32), addrspace 0)", "(load (s32))"),
        (
            "(load (s32) from %ir.p + -4)",
            "(load (s32) from %ir.p - 4)",
        ),
        (
            "(load (s32) from %ir.p - -4)",
            "(load (s32) from %ir.p + 4)",
        ),
        (
            "(load  (s32)  from  %ir.p  +  4 ,  align  4 )",
            "(load (s32) from %ir.p + 4, align 4)",
        ),
        (
            "(load (s32) from %ir.p, !tbaa !0, !tbaa !1)",
            "(load (s32) from %ir.p, !tbaa !1)",
        ),
    ] {
        assert_eq!(round_trip(text).as_deref(), Ok(printed), "{text}");
    }
}

/// An access wider than `(sN)` can say (LLVM prints `(s65664)` for an 8 KiB
/// aggregate copy and then refuses to read it back) reads and prints as its
/// byte count, which llc-19 reads back as the same type.
#[test]
fn wide_accesses_print_as_byte_counts() {
    assert_eq!(
        round_trip("(store 8208 into %stack.4 + 1, align 1, basealign 8)").as_deref(),
        Ok("(store 8208 into %stack.4 + 1, align 1, basealign 8)")
    );
    let wide = read("(load 8208 from %ir.p)").expect("a byte count reads");
    assert_eq!(wide.ty, Some(LowLevelType::Scalar(65664)));
    assert_eq!(
        round_trip("(load 8191 from %ir.p)").as_deref(),
        Ok("(load (s65528) from %ir.p)")
    );
    assert!(read("(load 536870912 from %ir.p)").is_err());
}

/// Each malformed operand is refused with LLVM 19's message, at the
/// token LLVM's parser reports it at (each checked with llc-19), given by
/// the text from there.
#[test]
fn malformed_operands_are_refused_where_llvm_refuses_them() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "(foo load (s32))",
            "foo",
            "expected 'load' or 'store' memory operation",
        ),
        ("()", ")", "expected 'load' or 'store' memory operation"),
        (
            "(volatile volatile load (s32))",
            "volatile load",
            "duplicate 'volatile' memory operand flag",
        ),
        (
            "(load foo (s32) from %ir.p)",
            "foo",
            "expected an atomic scope, ordering or a size specification",
        ),
        (
            "(load)",
            ")",
            "expected memory LLT, the size integer literal or 'unknown-size' after memory operation",
        ),
        (
            "(load monotonic monotonic monotonic (s32))",
            "monotonic (s32)",
            "expected memory LLT, the size integer literal or 'unknown-size' after memory operation",
        ),
        (
            "(load syncscope(x) (s32))",
            "x)",
            "expected string constant",
        ),
        (
            "(load syncscope \"x\" (s32))",
            "\"x\"",
            "expected '(' in syncscope",
        ),
        (
            "(load syncscope(\"x\" (s32))",
            "(s32))",
            "expected ')' in syncscope",
        ),
        (
            "(load (x32) from %ir.p)",
            "x32",
            "expected sN, pA, <M x sN>, <M x pA>, <vscale x M x sN>, or <vscale x M x pA> for GlobalISel type",
        ),
        (
            "(load (s) from %ir.p)",
            "s)",
            "expected integers after 's'/'p' type character",
        ),
        (
            "(load (s70000) from %ir.p)",
            "s70000",
            "invalid size for scalar type",
        ),
        (
            "(load (p16777216) from %ir.p)",
            "p16777216",
            "invalid address space number",
        ),
        (
            "(load (<2 x s32) from %ir.p)",
            "<2",
            "expected <M x sN> or <M x pA> for vector type",
        ),
        (
            "(load (<2 x x32>) from %ir.p)",
            "<2",
            "expected <M x sN> or <M x pA> for vector type",
        ),
        (
            "(load (<vscale 2 x s32>) from %ir.p)",
            "2 x",
            "expected <vscale x M x sN> or <vscale x M x pA>",
        ),
        (
            "(load (<0 x s32>) from %ir.p)",
            "0 x",
            "invalid number of vector elements",
        ),
        (
            "(load (<2 x s0>) from %ir.p)",
            "s0",
            "invalid size for scalar element in vector",
        ),
        ("(load (s32 from %ir.p)", "from", "expected ')'"),
        ("(load (s32) into %ir.p)", "into", "expected 'from'"),
        ("(store (s32) on %ir.p)", "on", "expected 'into'"),
        ("(load store (s32) from %ir.p)", "from", "expected 'on'"),
        ("(load 4x from %ir.p)", "x from", "expected 'from'"),
        ("(load (s32) from)", ")", "expected an IR value reference"),
        (
            "(load (s32) from foo)",
            "foo",
            "expected an IR value reference",
        ),
        (
            "(load (s32) from %ir-block.0)",
            "%ir-block",
            "expected an IR value reference",
        ),
        (
            "(load (s32) from call-entry 3)",
            "3)",
            "expected a global value or an external symbol after 'call-entry'",
        ),
        (
            "(load (s32) from %stack.7)",
            "%stack",
            "no frame objects here",
        ),
        (
            "(load (s32) from %ir.p +)",
            ")",
            "expected an integer literal after '+'",
        ),
        (
            "(load (s32) from %ir.p + x)",
            "x)",
            "expected an integer literal after '+'",
        ),
        (
            "(load (s32) from %ir.p + 99999999999999999999)",
            "999",
            "expected 64-bit integer (too large)",
        ),
        ("(load (s32) from %ir.p", "", "expected ')'"),
        (
            "(load (s32) from %ir.p, foo 3)",
            "foo",
            "expected 'align' or '!tbaa' or '!alias.scope' or '!noalias' or '!range'",
        ),
        (
            "(load (s32) from %ir.p, align x)",
            "x)",
            "expected an integer literal after 'align'",
        ),
        (
            "(load (s32) from %ir.p, align 3)",
            ")",
            "expected a power-of-2 literal after 'align'",
        ),
        (
            "(load (s32) from %ir.p, basealign 3)",
            ")",
            "expected a power-of-2 literal after 'align'",
        ),
        (
            "(load (s32) from %ir.p + 4, align 8)",
            ")",
            "specified alignment is more aligned than offset",
        ),
        (
            "(load (s32) from %ir.p, addrspace x)",
            "x)",
            "expected an integer literal after 'addrspace'",
        ),
        (
            "(load (s32) from %ir.p, !tbaa !x)",
            "!x",
            "use of unknown metadata keyword '!x'",
        ),
        (
            "(load (s32) from %ir.p, !tbaa !)",
            ")",
            "expected metadata id after '!'",
        ),
    ];
    for &(text, at, message) in cases {
        // A closing parenthesis is the operand's last; other tokens are
        // the first of their spelling.
        let at = match at {
            "" => Some(text.len()),
            ")" => text.rfind(at),
            _ => text.find(at),
        };
        let want = (
            at.expect("the test's token is in the text"),
            message.to_string(),
        );
        assert_eq!(read(text), Err(want), "{text}");
    }
}

/// Broken text is an error, never a panic: every truncation of every
/// form above, every one-character deletion, and every character replaced
/// by each of a few troublesome ones (an error's offset is inside the
/// text).
#[test]
fn broken_operands_are_errors_not_panics() {
    let mut tried = 0;
    let mut check = |t: &str| {
        tried += 1;
        if let Err((at, message)) = read(t) {
            assert!(at <= t.len() && !message.is_empty(), "{t}: {at} {message}");
        }
    };
    for text in CANONICAL {
        let cuts = text.char_indices().map(|(k, _)| k);
        for k in cuts {
            check(&text[..k]);
            let next = text[k..].chars().next().map_or(0, char::len_utf8);
            check(&format!("{}{}", &text[..k], &text[k + next..]));
            for c in ['"', '`', '\\', '!', '%', '-', '(', ')', 'é'] {
                check(&format!("{}{c}{}", &text[..k], &text[k + next..]));
            }
        }
    }
    assert!(tried > 10_000, "{tried}");
}

/// The frame objects a function has, with LLVM's messages for the others.
#[test]
fn frame_objects_are_checked_against_the_function() {
    let mut f = MachineFunction::new("f");
    let mut named = FrameObject::spill_slot(0, 4, 4);
    named.name = Some("buf".into());
    f.stack.push(named);
    f.fixed_stack.push(FrameObject::spill_slot(1, 8, 8));
    let frames = |fr, name: &str| super::check_frame(&f, fr, name);
    let read = |t: &str| parse(t, &frames).map(|_| ()).map_err(|(_, m)| m);
    assert_eq!(read("(load (s32) from %stack.0.buf)"), Ok(()));
    assert_eq!(read("(load (s32) from %stack.0)"), Ok(()));
    assert_eq!(read("(load (s32) from %fixed-stack.1)"), Ok(()));
    assert_eq!(
        read("(load (s32) from %stack.0.x)"),
        Err("the name of the stack object '%stack.0' isn't 'x'".into())
    );
    assert_eq!(
        read("(load (s32) from %stack.1)"),
        Err("use of undefined stack object '%stack.1'".into())
    );
    assert_eq!(
        read("(load (s32) from %fixed-stack.0)"),
        Err("use of undefined fixed stack object '%fixed-stack.0'".into())
    );
    // A named object prints with its name, as LLVM prints it.
    let m = parse("(load (s32) from %stack.0)", &frames).unwrap();
    let mut out = String::new();
    write(&mut out, &f, &m);
    assert_eq!(out, "(load (s32) from %stack.0.buf)");
}

/// The memory operands of one instruction line: the balanced
/// parenthesized groups after ` :: ` (quotes and backquotes hide
/// parentheses).
fn operands_of(line: &str, out: &mut BTreeSet<String>) {
    let Some(at) = line.find(" :: (") else {
        return;
    };
    let (mut depth, mut start, mut quote) = (0usize, 0usize, None::<u8>);
    let tail = &line[at + 4..];
    let b = tail.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match quote {
            Some(q) if c == b'\\' && q == b'"' => i += 1,
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None => match c {
                b'"' | b'`' => quote = Some(c),
                b'(' => {
                    if depth == 0 {
                        start = i;
                    }
                    depth += 1;
                }
                b')' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        out.insert(tail[start..=i].to_string());
                    }
                }
                _ => {}
            },
        }
        i += 1;
    }
}

fn mir_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            mir_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "mir") {
            out.push(p);
        }
    }
}

/// Every distinct memory operand of the corpus, the held-out set and the
/// variants (canonical `llc -run-pass=none` output) reads and prints back
/// byte for byte. Skipped without the corpus.
#[test]
fn every_corpus_memory_operand_round_trips() {
    let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("../bench/out");
    let mut files = Vec::new();
    for set in ["corpus", "heldout", "variants"] {
        mir_files(&out.join(set), &mut files);
    }
    if files.is_empty() {
        println!("notice: no corpus under {}; skipped", out.display());
        return;
    }
    let mut operands = BTreeSet::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("a corpus file");
        for line in text.lines() {
            operands_of(line, &mut operands);
        }
    }
    let failures: Vec<String> = operands
        .iter()
        .filter_map(|t| match round_trip(t) {
            Ok(back) if back == *t => None,
            other => Some(format!("{t} -> {other:?}")),
        })
        .collect();
    println!(
        "{} distinct memory operands in {} files",
        operands.len(),
        files.len()
    );
    assert!(
        operands.len() > 1000,
        "too few operands: {}",
        operands.len()
    );
    assert!(
        failures.is_empty(),
        "{} do not round-trip, first: {:#?}",
        failures.len(),
        &failures[..failures.len().min(10)]
    );
}
