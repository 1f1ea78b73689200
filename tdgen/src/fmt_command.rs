//! `tdgen fmt`: which files to format, `--check`, and writing each result whole (a temporary file renamed over the original) or not at all.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Formats `paths` (files, directories searched for `.td` files, or `-`):
/// in place, into `output`, or (`check`) only listing what would change.
/// Exit status 1 when a file cannot be read, formatted or written, or
/// (`check`) would change; 2 for `-o` with more than one input.
pub(crate) fn run(paths: &[PathBuf], check: bool, output: Option<&Path>) -> ExitCode {
    let files = match collect(paths) {
        Ok(files) => files,
        Err(message) => {
            super::say(&format!("error: {message}\n"));
            return ExitCode::FAILURE;
        }
    };
    if output.is_some() && files.len() != 1 {
        super::say("error: -o takes exactly one input file\n");
        return ExitCode::from(2);
    }
    let mut failed = false;
    let mut would_change = false;
    for file in &files {
        match one(file, check, output) {
            Ok(changed) => {
                if check && changed {
                    super::out(&format!("{}\n", file.display()));
                    would_change = true;
                }
            }
            Err(message) => {
                super::say(&format!("{message}\n"));
                failed = true;
            }
        }
    }
    if failed || would_change {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// The files to format: each path that is a file (or `-`), and every
/// `.td` file under each directory, sorted.
fn collect(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut found = Vec::new();
            td_files_under(path, &mut found)
                .map_err(|e| format!("cannot read directory '{}': {e}", path.display()))?;
            found.sort();
            files.extend(found);
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}

fn td_files_under(dir: &Path, found: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            td_files_under(&path, found)?;
        } else if path.extension().is_some_and(|e| e == "td") {
            found.push(path);
        }
    }
    Ok(())
}

/// Formats one file; says whether its text changes. The error is the whole message to print.
fn one(file: &Path, check: bool, output: Option<&Path>) -> Result<bool, String> {
    let stdin = file == Path::new("-");
    let text = if stdin {
        std::io::read_to_string(std::io::stdin())
            .map_err(|e| format!("error: cannot read standard input: {e}"))?
    } else {
        std::fs::read_to_string(file)
            .map_err(|e| format!("error: cannot read '{}': {e}", file.display()))?
    };
    let formatted = tdgen::fmt::format(&text).map_err(|e| {
        format!(
            "{}:{}:{}: error: {}",
            if stdin {
                "<stdin>".into()
            } else {
                file.display().to_string()
            },
            e.line,
            e.column,
            e.message
        )
    })?;
    let changed = formatted != text;
    if check {
        return Ok(changed);
    }
    match output {
        Some(o) if o == Path::new("-") => super::out(&formatted),
        Some(o) => write_whole(o, &formatted)?,
        None if stdin => super::out(&formatted),
        None if changed => write_whole(file, &formatted)?,
        None => {}
    }
    Ok(changed)
}

/// Writes `text` to `path` through a temporary file beside it, renamed over
/// `path` once complete: a reader (or a crash) never sees half a file. The
/// file keeps its permissions.
fn write_whole(path: &Path, text: &str) -> Result<(), String> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map_or_else(|| "out".into(), |n| n.to_string_lossy().into_owned());
    let temp = dir.join(format!(".{name}.tdgen-fmt-{}", std::process::id()));
    let written = std::fs::write(&temp, text)
        .and_then(|()| {
            if let Ok(meta) = std::fs::metadata(path) {
                std::fs::set_permissions(&temp, meta.permissions())?;
            }
            std::fs::File::open(&temp)?.sync_all()
        })
        .and_then(|()| std::fs::rename(&temp, path));
    written.map_err(|e| {
        let _ = std::fs::remove_file(&temp);
        format!("error: cannot write '{}': {e}", path.display())
    })
}
