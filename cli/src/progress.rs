//! The progress bar of a long allocation: on a terminal only, never in a pipe or a log.
//!
//! A file of a few functions allocates faster than a bar could be read, and
//! a bar drawn into a pipe or a file would be noise between the
//! diagnostics; so the bar is drawn only when standard error is a terminal
//! and the file is long, measured in instructions (what allocation time
//! follows), and never while the allocators' trace (`REGALLOC_LOG`) writes
//! to the same terminal.

use std::io::IsTerminal;

/// Files with fewer instructions than this get no bar: they take well
/// under a second.
pub(crate) const LONG_FILE_INSTRUCTIONS: u64 = 20_000;

/// A bar counting allocated instructions, or nothing.
pub(crate) struct Progress {
    bar: Option<indicatif::ProgressBar>,
}

impl Progress {
    /// No bar at all (the `cc` pipeline, short files, a piped stderr).
    pub(crate) fn none() -> Progress {
        Progress { bar: None }
    }

    /// A bar for allocating `functions` of `instructions` in all, drawn
    /// on standard error when it is a terminal and the file is long.
    pub(crate) fn for_file(functions: usize, instructions: u64) -> Progress {
        let wanted = instructions >= LONG_FILE_INSTRUCTIONS
            && std::io::stderr().is_terminal()
            && std::env::var_os("REGALLOC_LOG").is_none();
        if !wanted {
            return Progress::none();
        }
        let bar = indicatif::ProgressBar::with_draw_target(
            Some(instructions),
            indicatif::ProgressDrawTarget::stderr(),
        );
        let style = indicatif::ProgressStyle::with_template(
            "allocating {msg} {wide_bar} {pos}/{len} instructions ({eta} left)",
        )
        .expect("the template is valid");
        bar.set_style(style);
        bar.set_message(format!("{functions} functions"));
        Progress { bar: Some(bar) }
    }

    /// One function of `instructions` is done.
    pub(crate) fn advance(&self, instructions: u64) {
        if let Some(bar) = &self.bar {
            bar.inc(instructions);
        }
    }

    /// Erases the bar, so that what follows on standard error starts on a
    /// clean line.
    pub(crate) fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
