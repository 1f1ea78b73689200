//! `tdgen::Builder`: compiles `.td` files into Rust source from a build script, into `OUT_DIR`.
//!
//! A build script needs the library alone: `[build-dependencies] tdgen =
//! { ..., default-features = false }` leaves out the `tdgen` command's
//! dependencies (clap, serde_json, mimalloc's C build).
//!
//! ```no_run
//! // build.rs, in `fn main()`:
//! if let Err(e) = tdgen::Builder::new("src/bpf.td").out_file("bpf.rs").build() {
//!     eprintln!("{e}");
//!     std::process::exit(1);
//! }
//! // src/lib.rs: pub mod bpf { include!(concat!(env!("OUT_DIR"), "/bpf.rs")); }
//! ```

use super::{Options, compile, to_source};
use std::path::{Path, PathBuf};

/// Compiles one `.td` file to a Rust file for `include!`.
#[derive(Clone, Debug)]
pub struct Builder {
    input: PathBuf,
    include_dirs: Vec<PathBuf>,
    out_dir: Option<PathBuf>,
    out_file: Option<String>,
    options: Options,
    cargo: bool,
}

impl Builder {
    /// A builder for `input` (relative paths are relative to the build script's working directory, the package root).
    pub fn new(input: impl Into<PathBuf>) -> Builder {
        Builder {
            input: input.into(),
            include_dirs: Vec::new(),
            out_dir: None,
            out_file: None,
            options: Options::default(),
            cargo: true,
        }
    }

    /// Adds an include directory (searched before tdgen's prelude).
    pub fn include_dir(mut self, dir: impl Into<PathBuf>) -> Builder {
        self.include_dirs.push(dir.into());
        self
    }

    /// Where to write (default: `$OUT_DIR`).
    pub fn out_dir(mut self, dir: impl Into<PathBuf>) -> Builder {
        self.out_dir = Some(dir.into());
        self
    }

    /// The file name to write (default: the input's stem with `.rs`).
    pub fn out_file(mut self, name: impl Into<String>) -> Builder {
        self.out_file = Some(name.into());
        self
    }

    /// The path generated code uses for the table types (default `::regalloc`).
    pub fn crate_path(mut self, path: impl Into<String>) -> Builder {
        self.options.crate_path = path.into();
        self
    }

    /// Whether to print `cargo:rerun-if-changed` lines (default: yes).
    pub fn cargo_directives(mut self, on: bool) -> Builder {
        self.cargo = on;
        self
    }

    /// Compiles and writes the file; returns its path. On error the
    /// message is the rendered diagnostics (file:line:col, source, hint).
    pub fn build(self) -> Result<PathBuf, String> {
        let out_dir = match self
            .out_dir
            .clone()
            .or_else(|| std::env::var_os("OUT_DIR").map(PathBuf::from))
        {
            Some(d) => d,
            None => return Err("tdgen::Builder: OUT_DIR is not set; call out_dir()".to_string()),
        };
        let base = std::env::current_dir().ok();
        let mut options = self.options.clone();
        options.base_dir = options.base_dir.or_else(|| base.clone());
        let result = compile(&self.input, &self.include_dirs, base.as_deref());
        let files = match &result {
            Ok(c) => &c.files_read,
            Err(f) => &f.files_read,
        };
        if self.cargo {
            println!("cargo:rerun-if-changed={}", self.input.display());
            for f in files {
                println!("cargo:rerun-if-changed={}", f.display());
            }
        }
        let compiled = result.map_err(|f| f.rendered)?;
        let text = to_source(&compiled.tables, &options)?;
        let name = self.out_file.clone().unwrap_or_else(|| {
            let stem = Path::new(&self.input)
                .file_stem()
                .map_or("target".into(), |s| s.to_string_lossy().into_owned());
            format!("{stem}.rs")
        });
        let out = out_dir.join(name);
        std::fs::write(&out, text)
            .map_err(|e| format!("could not write '{}': {e}", out.display()))?;
        Ok(out)
    }
}
