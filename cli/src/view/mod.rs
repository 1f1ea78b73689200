//! `regalloc view`: one function's allocation as a self-contained HTML page (its data as JSON, drawn by a hand-written script: no network).
//!
//! The function is allocated with the event log on
//! ([`regalloc::events`]); the page's data ([`data::page_data`]) is the
//! function before allocation (blocks, instructions, live intervals), the
//! pieces the allocator ended with, what the allocated code holds at each
//! original operand, the code inserted, the pressure per block and class,
//! and the decisions in order. `page.html`, `view.css` and `view.js`
//! beside this file are the page; the data goes into its `<script
//! type="application/json">` element.

mod data;

use std::path::PathBuf;
use std::time::Instant;

use crate::output::{say_line, write_file};
use crate::{AllocatorName, Failure, TargetArg, read_input, target_info};

/// The page around the data, with `/*STYLE*/`, `/*SCRIPT*/` and
/// `/*DATA*/` to fill.
const PAGE: &str = include_str!("page.html");
const STYLE: &str = include_str!("view.css");
const SCRIPT: &str = include_str!("view.js");

#[derive(clap::Args)]
pub(crate) struct ViewArgs {
    #[command(flatten)]
    target: TargetArg,
    /// The .mir file to read.
    input: PathBuf,
    /// The function to show (the file's first when absent).
    #[arg(long)]
    function: Option<String>,
    /// Which allocator to run.
    #[arg(long, value_enum, default_value = "greedy")]
    allocator: AllocatorName,
    /// Where to write the page.
    #[arg(short, long)]
    output: PathBuf,
}

/// Allocates the chosen function with the event log on and writes its
/// page; says on standard error what the page holds and how long each
/// step took.
pub(crate) fn view(args: &ViewArgs) -> Result<bool, Failure> {
    let target = target_info(args.target.target)?;
    let file = read_input(target, &args.input)?;
    let chosen = file
        .read_functions()
        .find(|f| args.function.as_deref().is_none_or(|n| n == f.name));
    let Some(original) = chosen else {
        for e in file.errors() {
            say_line(&e.to_string());
        }
        return Err(match &args.function {
            Some(n) => format!("no function named '{n}' was read"),
            None => format!("no function was read from {}", args.input.display()),
        }
        .into());
    };
    let started = Instant::now();
    let contexts = regalloc::TargetContext::new(target);
    let mut ctx = regalloc::AllocContext::new();
    let options = regalloc::Options {
        allocator: args.allocator.allocator(),
        check: false,
    };
    // SSA input is shown as the allocator gets it: after the
    // pre-allocation passes (stage 0, which then has nothing left to do).
    let mut lowered = original.clone();
    regalloc::pipeline::lower(target, &mut ctx, &mut lowered, options.allocator).map_err(|e| {
        Failure {
            text: format!("error: {e}\n"),
            status: 1,
        }
    })?;
    let original = &lowered;
    let before = regalloc::inspect::Analyses::new(target, original);
    let mut allocated = original.clone();
    ctx.record_events(true);
    let (stats, record) =
        regalloc::allocate_recorded_with_context(&contexts, &mut ctx, &mut allocated, &options)
            .map_err(|e| Failure {
                text: format!("error: {e}\n"),
                status: 1,
            })?;
    let events = ctx.take_events();
    let allocation = started.elapsed();
    let inputs = data::Inputs {
        target,
        original,
        before: &before,
        allocated: &allocated,
        record: &record,
        events: &events,
        allocator: args.allocator.allocator().name(),
        stats: &stats,
    };
    let value = data::page_data(&inputs);
    let page = page(&value);
    write_file(&args.output, page.as_bytes()).map_err(Failure::output)?;
    say_line(&format!(
        "{}: {} instructions, {} virtual registers, {} decisions; page {} bytes; allocation and analyses {:.1} ms, page {:.1} ms",
        original.name,
        value["insts"].as_array().map_or(0, Vec::len),
        value["vregs"].as_array().map_or(0, Vec::len),
        value["decisions"].as_array().map_or(0, Vec::len),
        page.len(),
        allocation.as_secs_f64() * 1e3,
        (started.elapsed() - allocation).as_secs_f64() * 1e3,
    ));
    Ok(true)
}

/// The page with its style, script and `data` filled in, each at its
/// marker in `page.html` (found in that text only, so that nothing
/// inserted is read as a marker). The JSON is escaped so that no
/// `</script>` (or `<!--`) inside a string can end the element early: `<`
/// becomes `\u003c`, which JSON reads back as `<`.
pub(crate) fn page(data: &serde_json::Value) -> String {
    let json = data.to_string().replace('<', "\\u003c");
    let mut out = String::with_capacity(PAGE.len() + STYLE.len() + SCRIPT.len() + json.len());
    let mut rest = PAGE;
    for (marker, text) in [
        ("/*STYLE*/", STYLE),
        ("/*DATA*/", &json),
        ("/*SCRIPT*/", SCRIPT),
    ] {
        let (head, tail) = rest
            .split_once(marker)
            .expect("page.html has its markers in order");
        out.push_str(head);
        out.push_str(text);
        rest = tail;
    }
    out.push_str(rest);
    out
}
