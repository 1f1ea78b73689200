//! Where the command's text goes: standard output, standard error and output files, none of which may panic.
//!
//! `print!` and `eprintln!` panic when their stream cannot be written
//! (`> /dev/full`, a reader that closed the pipe). Everything the command
//! says goes through here instead, with the exit statuses tdgen uses:
//! a reader that closed a pipe early (`regalloc alloc big.mir | head`)
//! ends the process quietly with 141, the status a shell reports for a
//! command SIGPIPE ended; any other failure to write standard output is
//! said on standard error with status 1. Output files are written to a
//! temporary file in the same directory and renamed into place only when
//! the whole run succeeded, so a failing run never leaves a file that a
//! later step could take for a result.

use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};

/// The exit status when a reader closed one of our output streams early:
/// 128 + SIGPIPE, what a shell reports for a command that signal ended.
pub(crate) const EXIT_CLOSED_PIPE: i32 = 141;

/// The exit status when output cannot be written (a full disk).
pub(crate) const EXIT_OUTPUT_FAILED: i32 = 1;

/// Writes `text` to standard output. A closed pipe ends the process
/// quietly with status 141; any other failure is said on standard error,
/// status 1.
pub(crate) fn out(text: &str) {
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        if e.kind() == ErrorKind::BrokenPipe {
            std::process::exit(EXIT_CLOSED_PIPE);
        }
        say(&format!("error: cannot write to standard output: {e}\n"));
        std::process::exit(EXIT_OUTPUT_FAILED);
    }
}

/// Writes `text` to standard error. A closed pipe ends the process with
/// status 141; a standard error that cannot be written at all (closed with
/// `2>&-`, a full disk) leaves nowhere to say anything: status 1.
pub(crate) fn say(text: &str) {
    if text.is_empty() {
        return;
    }
    let mut stderr = std::io::stderr().lock();
    if let Err(e) = stderr
        .write_all(text.as_bytes())
        .and_then(|()| stderr.flush())
    {
        std::process::exit(if e.kind() == ErrorKind::BrokenPipe {
            EXIT_CLOSED_PIPE
        } else {
            EXIT_OUTPUT_FAILED
        });
    }
}

/// [`say`] with a line end added.
pub(crate) fn say_line(line: &str) {
    say(&format!("{line}\n"));
}

/// Writes `contents` to `path` whole or not at all: into a temporary file
/// in the same directory (so that the rename cannot cross file systems),
/// then renamed over `path`. On any failure the temporary file is removed
/// and `path` is left as it was.
pub(crate) fn write_file(path: &Path, contents: &[u8]) -> Result<(), String> {
    let cannot = |e: std::io::Error| format!("cannot write {}: {e}", path.display());
    if is_device(path) {
        // `-o /dev/null` or `-o /dev/stdout`: a device is written in
        // place; renaming over it would replace it with a plain file.
        return std::fs::write(path, contents).map_err(cannot);
    }
    let (partial, mut file) = create_partial(path).map_err(cannot)?;
    let written = file
        .write_all(contents)
        .and_then(|()| file.sync_data())
        .and_then(|()| std::fs::rename(&partial, path));
    if let Err(e) = written {
        drop(file);
        let _ = std::fs::remove_file(&partial);
        return Err(cannot(e));
    }
    Ok(())
}

/// A new file beside `path` to write it under first: `.NAME.PID.N.partial`,
/// created with the permissions any new file gets (0666 less the umask).
/// The name is never one that exists (`create_new`), so two runs writing
/// the same output cannot write into each other's file.
fn create_partial(path: &Path) -> std::io::Result<(PathBuf, std::fs::File)> {
    let name = path
        .file_name()
        .map_or_else(|| "output".into(), |n| n.to_string_lossy().into_owned());
    let pid = std::process::id();
    let mut attempt = 0;
    loop {
        let partial = path.with_file_name(format!(".{name}.{pid}.{attempt}.partial"));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&partial)
        {
            Ok(file) => return Ok((partial, file)),
            Err(e) if e.kind() == ErrorKind::AlreadyExists && attempt < 100 => attempt += 1,
            Err(e) => return Err(e),
        }
    }
}

/// Whether `path` names something other than a regular file or nothing
/// (a character device, a pipe).
fn is_device(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}
