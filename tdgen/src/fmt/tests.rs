//! The formatter's rules on small inputs, as exact text, and idempotence on generated token soup.

use super::format;
use proptest::prelude::*;

/// Formats `input`, checks that a second run changes nothing, and returns the first run's text.
fn fmt(input: &str) -> String {
    let once = format(input).unwrap();
    let twice = format(&once).unwrap();
    assert_eq!(once, twice, "not idempotent on {input:?}");
    once
}

#[test]
fn bodies_and_let_blocks_are_indented_by_two() {
    assert_eq!(
        fmt("class A<int a>:B<a>{\nint x=a;\n    let y = 1;\n}\nlet z=1 in {\ndef C : A<1>;\n}\n"),
        "class A<int a> : B<a> {\n  int x = a;\n  let y = 1;\n}\nlet z = 1 in {\n  def C : A<1>;\n}\n"
    );
}

#[test]
fn nested_blocks_count_from_the_keyword_line() {
    assert_eq!(
        fmt(
            "let a = 1 in\n  def X {\nlet y = 1;\n      }\nforeach i = [1, 2] in {\nif !eq(i, 1) then {\ndef Y#i;\n} else {\ndef Z#i;\n}\n}\n"
        ),
        "let a = 1 in\n  def X {\n    let y = 1;\n  }\nforeach i = [1, 2] in {\n  if !eq(i, 1) then {\n    def Y#i;\n  } else {\n    def Z#i;\n  }\n}\n"
    );
}

#[test]
fn a_brace_on_its_own_line_lines_up_with_its_statement() {
    assert_eq!(
        fmt("multiclass M {\n  let a = 1 in\n      {\n def A;\n  }\n}\n"),
        "multiclass M {\n  let a = 1 in\n  {\n    def A;\n  }\n}\n"
    );
}

#[test]
fn value_braces_and_bit_ranges_are_not_blocks() {
    assert_eq!(
        fmt(
            "def X {\nbits<4> b = { 0, 1, 0, 1 };\nlet Inst{3-0} = b;\nlet Inst{ 7 - 4 } = b{3-0};\n}\nforeach i = {0-3} in\ndef Y#i;\n"
        ),
        "def X {\n  bits<4> b = {0, 1, 0, 1};\n  let Inst{3-0} = b;\n  let Inst{7 - 4} = b{3-0};\n}\nforeach i = {0-3} in\ndef Y#i;\n"
    );
}

#[test]
fn defset_bodies_are_blocks() {
    assert_eq!(
        fmt("defset list<A> As = {\ndef a1 : A;\n}\n"),
        "defset list<A> As = {\n  def a1 : A;\n}\n"
    );
}

#[test]
fn colons_inside_brackets_stay_as_written() {
    assert_eq!(
        fmt("def ADD:I<(outs GPR:$d), (ins GPR : $a), [(set GPR:$d, (add GPR:$a, 1))]>;\n"),
        "def ADD : I<(outs GPR:$d), (ins GPR : $a), [(set GPR:$d, (add GPR:$a, 1))]>;\n"
    );
}

#[test]
fn spacing_inside_brackets_and_around_commas() {
    assert_eq!(
        fmt("def X : A< 1 ,2 , [ 3,4 ] ,( op  a ) >;\ndefvar v=[1,2,];\n"),
        "def X : A<1, 2, [3, 4], (op a)>;\ndefvar v = [1, 2,];\n"
    );
}

#[test]
fn continuation_lines_move_with_their_statement() {
    // Aligned operands stay aligned when the statement is re-indented.
    assert_eq!(
        fmt("let a = 1 in {\n    def X : I<1,\n              2>;\n}\n"),
        "let a = 1 in {\n  def X : I<1,\n            2>;\n}\n"
    );
}

#[test]
fn long_lines_break_at_the_outermost_commas() {
    let input = "def LONG_INSTRUCTION_NAME : SomeInstructionClass<0x1234, (outs GPR64:$dst), (ins GPR64:$src1, GPR64:$src2), \"long $dst, $src1, $src2\">;\n";
    assert_eq!(
        fmt(input),
        "def LONG_INSTRUCTION_NAME : SomeInstructionClass<0x1234, (outs GPR64:$dst),\n\
         \x20                                                (ins GPR64:$src1, GPR64:$src2),\n\
         \x20                                                \"long $dst, $src1, $src2\">;\n"
            .replace("\\\n", "")
    );
}

#[test]
fn a_bracket_far_right_continues_four_in() {
    let input = "def VERY_LONG_NAME_FOR_A_REGISTER_CLASS_DEFINITION : RegisterClass<\"X\", [i64], 64, (add R0, R1, R2, R3, R4, R5, R6, R7, R8, R9, R10)>;\n";
    assert_eq!(
        fmt(input),
        "def VERY_LONG_NAME_FOR_A_REGISTER_CLASS_DEFINITION : RegisterClass<\"X\", [i64],\n    64, (add R0, R1, R2, R3, R4, R5, R6, R7, R8, R9, R10)>;\n"
    );
}

#[test]
fn a_statements_own_commas_continue_four_in() {
    let input = "let Predicates = [HasFeatureOne], DecoderNamespace = \"SomeNamespace\", hasSideEffects = 0 in\ndef X;\n";
    assert_eq!(
        fmt(input),
        "let Predicates = [HasFeatureOne], DecoderNamespace = \"SomeNamespace\",\n    hasSideEffects = 0 in\ndef X;\n"
    );
}

#[test]
fn each_break_continues_under_its_own_bracket() {
    let input = "class Sh2<RegisterClass d, RegisterClass a, RegisterClass b> : H<(outs d:$d), (ins a:$a, b:$b)>;\n";
    assert_eq!(
        fmt(input),
        "class Sh2<RegisterClass d, RegisterClass a, RegisterClass b> : H<(outs d:$d),\n    (ins a:$a, b:$b)>;\n"
    );
}

#[test]
fn a_headers_parents_line_up_after_its_colon() {
    let input = "def EIP : X86Pair<\"eip\", 0, IP, HIP, sub_16bit, sub_16bit_hi>, DwarfRegNum<[-2, 8, 8]>;\n";
    assert_eq!(
        fmt(input),
        "def EIP : X86Pair<\"eip\", 0, IP, HIP, sub_16bit, sub_16bit_hi>,\n          DwarfRegNum<[-2, 8, 8]>;\n"
    );
}

#[test]
fn text_inside_conditionals_that_tablegen_may_skip_is_kept() {
    let input =
        "#ifdef NOT_DEFINED\nthis is   not @ valid ) tablegen {\n#endif\ndef A { int x = 1; }\n";
    assert_eq!(
        fmt(input),
        "#ifdef NOT_DEFINED\nthis is not @ valid) tablegen {\n#endif\ndef A { int x = 1; }\n"
    );
}

#[test]
fn long_lines_without_commas_or_with_code_are_kept() {
    let long_name =
        "def A_VERY_LONG_NAME_WITHOUT_ANY_COMMAS_THAT_GOES_ON_AND_ON_AND_ON_AND_ON_AND_ON;\n";
    assert_eq!(fmt(long_name), long_name);
    let code = "def X : P<[{ return a, b; }], 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17,\n  18>;\n";
    // Only the line with the code block; the code is never touched.
    let multi = "def X : P<[{ return a,\n b; }], 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20>;\n";
    assert_eq!(fmt(multi), multi);
    assert!(fmt(code).lines().all(|l| l.len() <= 80));
}

#[test]
fn trailing_comments_are_not_counted_and_keep_their_alignment() {
    let input = "def A : R<1>;     // first\ndef LONGER : R<2>; // second, and a long comment that goes well past the eightieth column\n";
    assert_eq!(fmt(input), input);
}

#[test]
fn code_blocks_and_strings_are_exact() {
    let input = "def X {\n      code c = [{\n   if (x)   \n      return;   }];\n  string s = \"a   b\\\"  \";\n}\n";
    assert_eq!(
        fmt(input),
        "def X {\n  code c = [{\n   if (x)   \n      return;   }];\n  string s = \"a   b\\\"  \";\n}\n"
    );
}

#[test]
fn comments_and_blank_lines() {
    assert_eq!(
        fmt(
            "\n\n// head   \n\n\n\ndef A {   \n   // inside\n  /* block   \n     comment */ let a = 1;\n}\n\n\n"
        ),
        "// head\n\ndef A {\n  // inside\n  /* block\n     comment */ let a = 1;\n}\n"
    );
}

#[test]
fn preprocessor_lines_are_kept_and_each_side_starts_alike() {
    assert_eq!(
        fmt("def A {\n  #ifdef X   \n  let a = 1; // x\n#else\nlet a = 2;\n    #endif // X\n}\n"),
        "def A {\n  #ifdef X\n  let a = 1; // x\n#else\n  let a = 2;\n    #endif // X\n}\n"
    );
}

#[test]
fn tabs_and_carriage_returns() {
    assert_eq!(
        fmt("def A {\r\n\tlet a\t=\t1;\r\n}\r\n"),
        "def A {\r\n  let a = 1;\n}\n".replace('\r', "")
    );
}

#[test]
fn tokens_that_would_join_stay_apart() {
    assert_eq!(fmt("defvar a = [ {1} ];\n"), "defvar a = [ {1}];\n");
    assert_eq!(
        fmt("def X { let Inst{3 - 0} = 1; }\n"),
        "def X { let Inst{3 - 0} = 1; }\n"
    );
    assert_eq!(fmt("def X : A< - 1>;\n"), "def X : A<- 1>;\n");
}

#[test]
fn one_line_bodies_stay_on_one_line() {
    assert_eq!(
        fmt("class A{int x=1;}\ndef B:A{let x=2;}\n"),
        "class A { int x = 1; }\ndef B : A { let x = 2; }\n"
    );
}

#[test]
fn an_empty_file_stays_empty() {
    assert_eq!(fmt(""), "");
    assert_eq!(fmt("\n\n  \n"), "");
    assert_eq!(fmt("def A;"), "def A;\n");
}

#[test]
fn errors_are_located() {
    let e = |s: &str| format(s).unwrap_err().to_string();
    assert_eq!(
        e("def A {\n  let s = \"abc;\n}\n"),
        "2:11: unterminated string"
    );
    assert_eq!(e("def A;\n/* open\n"), "2:1: unterminated /* comment");
    assert_eq!(
        e("def A { let x = 1 & 2; }"),
        "1:19: unexpected character '&'"
    );
}

/// Pieces of TableGen text, glued at random: statements, brackets, comments,
/// directives, line breaks, blanks.
fn soup() -> impl Strategy<Value = String> {
    let piece = prop::sample::select(vec![
        "def",
        "defm",
        "class",
        "multiclass",
        "let",
        "in",
        "foreach",
        "if",
        "then",
        "else",
        "defset",
        "defvar",
        "field",
        "bits",
        "X",
        "Y1",
        "0x1F",
        "-3",
        "42",
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
        "?",
        "!add",
        "$dst",
        "\"s  t\"",
        "[{ code, \n  more }]",
        "// note",
        "/* c \n d */",
        "/* x */",
        "\n",
        "\n\n\n",
        " ",
        "   ",
        "\t",
        "\n#ifdef M\n",
        "\n#else\n",
        "\n#endif\n",
        "\n  ",
        "A_VERY_LONG_IDENTIFIER_NAME_TO_FILL_LINES",
    ]);
    prop::collection::vec(piece, 0..120).prop_map(|ps| {
        // A line comment must not swallow what follows on its line.
        ps.iter()
            .map(|p| {
                if p.starts_with("//") {
                    format!("{p}\n")
                } else {
                    format!("{p} ")
                }
            })
            .collect()
    })
}

/// Proptest's case: a comma before a body's `{` on a line too long was a
/// break, and the `{` row moved to the block's indentation on the next run.
#[test]
fn no_break_before_a_body_brace() {
    let text =
        "class , { A_VERY_LONG_IDENTIFIER_NAME_TO_FILL_LINES multiclass def defset multiclass def ";
    let once = format(text).unwrap();
    assert_eq!(format(&once).unwrap(), once);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Formatting twice gives what formatting once gave, on any text that lexes;
    /// `format` itself checks that the tokens are unchanged.
    #[test]
    fn idempotent_on_soup(text in soup()) {
        let once = format(&text).unwrap();
        let twice = format(&once).unwrap();
        prop_assert_eq!(&once, &twice);
        let has_code = once.contains("[{");
        prop_assert!(has_code || once.lines().all(|l| !l.ends_with([' ', '\t'])));
        prop_assert!(!once.contains("\n\n\n"));
    }
}
