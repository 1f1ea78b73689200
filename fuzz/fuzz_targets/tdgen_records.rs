//! Fuzz target: arbitrary bytes, if UTF-8, through `tdgen::Loader::records_from_str`, rendering any diagnostics.
//!
//! tdgen must never panic, hang or overflow the stack on any input: deep
//! recursion and huge `foreach` expansions are meant to be diagnostics with
//! limits. libFuzzer reports a panic or stack overflow as a crash and a run
//! longer than `-timeout` as a hang.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut loader = tdgen::Loader::new();
    if let Err(diags) = loader.records_from_str("fuzz.td", text) {
        let rendered = loader.render(&diags);
        std::hint::black_box(rendered);
    }
});
