//! Subtarget features: the `SubtargetFeature` defs (LLVM's class, with its `Implies` lists) and the feature names HW modes are selected by, numbered so that a function's features fit one 64-bit set.
//!
//! A function's subtarget decides some of what the allocator must emit:
//! which spill instruction a class takes (our `SpillTemplates` extension's
//! `Features`) and which HW mode's register sizes apply (`HwMode`'s feature
//! string, `"+hvx-length128b"`). Both name features; this module gives each
//! name a bit and each feature the set of features it implies, its own bit
//! included, transitively closed (LLVM's `SubtargetFeatures` turns a
//! feature on with everything it implies).
//!
//! Features are numbered in name order, the `SubtargetFeature` defs first;
//! a name that only a HW mode's string mentions gets a bit of its own after
//! them (it implies nothing). At most 64 features fit the tables.

use super::access::Fields;
use super::regs::RegBank;
use crate::diag::{Diagnostic, Kind};
use crate::records::{Init, RecId};
use rustc_hash::FxHashMap as HashMap;

/// The most features the allocator's tables can carry (one `u64` bit each).
pub const MAX_FEATURES: usize = 64;

/// One feature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Feature {
    /// Its name (`Name`: what `-mattr=+name` and IR's `"target-features"` say).
    pub name: String,
    /// The def, for declared features.
    pub def: Option<RecId>,
    /// The features it turns on: its own bit and, transitively, its `Implies`.
    pub implies: u64,
}

/// What one HW mode asks of a function's features.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ModeFeatures {
    /// Features the mode's string turns on (`+name`).
    pub requires: u64,
    /// Features it turns off (`-name`).
    pub excludes: u64,
}

/// Every feature of a target, and what each HW mode needs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Features {
    /// Features by bit.
    pub list: Vec<Feature>,
    /// Per HW mode (the bank's mode order; index 0, the default mode,
    /// needs nothing).
    pub modes: Vec<ModeFeatures>,
    by_def: HashMap<RecId, usize>,
}

impl Features {
    /// The bit of a `SubtargetFeature` def.
    pub fn bit_of_def(&self, d: RecId) -> Option<usize> {
        self.by_def.get(&d).copied()
    }

    /// The set a list of features turns on, implications included.
    pub fn closure(&self, bits: impl IntoIterator<Item = usize>) -> u64 {
        bits.into_iter()
            .fold(0, |m, b| m | self.list.get(b).map_or(0, |f| f.implies))
    }

    /// The names of the features in `set`, in bit order.
    pub fn names(&self, set: u64) -> Vec<&str> {
        self.list
            .iter()
            .enumerate()
            .filter(|(b, _)| set >> b & 1 == 1)
            .map(|(_, f)| f.name.as_str())
            .collect()
    }
}

/// Reads the `SubtargetFeature` defs and the HW modes' feature strings.
pub fn read(f: &Fields<'_>, bank: &RegBank, diags: &mut Vec<Diagnostic>) -> Features {
    let mut out = Features::default();
    let mut defs = f.rk.derived_defs("SubtargetFeature");
    defs.sort_by_key(|&d| (f.string(d, "Name"), f.name(d)));
    let mut by_name: HashMap<String, usize> = HashMap::default();
    for d in defs {
        let name = f.string(d, "Name");
        if let Some(&k) = by_name.get(&name) {
            let first = out.list[k].def.map(|p| f.loc(p)).unwrap_or_default();
            diags.push(
                Diagnostic::error(
                    Kind::Semantic,
                    f.loc(d),
                    format!("subtarget feature '{name}' is declared twice"),
                )
                .with_secondary(first, "first declared here"),
            );
            continue;
        }
        by_name.insert(name.clone(), out.list.len());
        out.by_def.insert(d, out.list.len());
        out.list.push(Feature {
            name,
            def: Some(d),
            implies: 0,
        });
    }
    // The modes' strings, in mode order; a name no def declares gets a bit.
    let mut mode_terms: Vec<Vec<(bool, String)>> = vec![Vec::new()];
    for &m in bank.mode_defs.iter().skip(1).flatten() {
        let text = f.string(m, "Features");
        let mut terms = Vec::new();
        for term in text.split(',').map(str::trim).filter(|t| !t.is_empty()) {
            let (on, name) = match term.split_at(1) {
                ("+", n) => (true, n),
                ("-", n) => (false, n),
                _ => {
                    diags.push(Diagnostic::error(
                        Kind::Semantic,
                        f.loc(m),
                        format!(
                            "HW mode '{}': feature '{term}' must start with '+' or '-'",
                            f.name(m)
                        ),
                    ));
                    continue;
                }
            };
            if !by_name.contains_key(name) {
                by_name.insert(name.to_string(), out.list.len());
                out.list.push(Feature {
                    name: name.to_string(),
                    def: None,
                    implies: 0,
                });
            }
            terms.push((on, name.to_string()));
        }
        mode_terms.push(terms);
    }
    if out.list.len() > MAX_FEATURES {
        let at = out.list[MAX_FEATURES]
            .def
            .map(|d| f.loc(d))
            .unwrap_or_default();
        diags.push(
            Diagnostic::error(
                Kind::Semantic,
                at,
                format!(
                    "the target names {} subtarget features; the allocator's tables hold {MAX_FEATURES}",
                    out.list.len()
                ),
            )
            .with_help("declare only the features that spill templates or HW modes depend on"),
        );
        return Features::default();
    }
    // Direct implications, then their transitive closure (a fixed point:
    // at most one round per feature).
    for k in 0..out.list.len() {
        let mut direct = 1u64 << k;
        if let Some(d) = out.list[k].def {
            for i in f.list(d, "Implies").iter() {
                if let Init::Def(x) = i
                    && let Some(&b) = out.by_def.get(x)
                {
                    direct |= 1 << b;
                }
            }
        }
        out.list[k].implies = direct;
    }
    loop {
        let mut changed = false;
        for k in 0..out.list.len() {
            let now = out.closure_of(out.list[k].implies);
            if now != out.list[k].implies {
                out.list[k].implies = now;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    out.modes = mode_terms
        .iter()
        .map(|terms| {
            let mut m = ModeFeatures::default();
            for (on, name) in terms {
                let bit = 1u64 << by_name[name];
                if *on {
                    m.requires |= bit;
                } else {
                    m.excludes |= bit;
                }
            }
            m
        })
        .collect();
    out
}

impl Features {
    /// The union of what every feature in `set` implies.
    fn closure_of(&self, set: u64) -> u64 {
        self.closure((0..self.list.len()).filter(|b| set >> b & 1 == 1))
    }
}

#[cfg(test)]
mod tests {
    use crate::target::TargetModel;

    fn model(body: &str) -> Result<TargetModel, String> {
        crate::target::model_of(&format!(
            "include \"regalloc.td\"\ndef R0 : Register<\"r0\">;\n\
             def GPR : RegisterClass<\"T\", [i32], 32, (add R0)>;\n{body}"
        ))
    }

    #[test]
    fn implications_are_closed_and_modes_name_features() {
        let m = model(
            r#"
def FA : SubtargetFeature<"a", "HasA", "true", "a">;
def FB : SubtargetFeature<"b", "HasB", "true", "b", [FA]>;
def FC : SubtargetFeature<"c", "HasC", "true", "c", [FB]>;
def Wide : HwMode<"+wide,-a", []>;
"#,
        )
        .unwrap();
        let fs = &m.features;
        let names: Vec<&str> = fs.list.iter().map(|x| x.name.as_str()).collect();
        assert_eq!(names, ["a", "b", "c", "wide"]);
        assert_eq!(fs.list[2].implies, 0b0111, "c implies b and, through it, a");
        assert_eq!(
            fs.list[3].implies, 0b1000,
            "a mode-only name implies nothing"
        );
        assert_eq!(fs.modes.len(), 2);
        assert_eq!(fs.modes[1].requires, 0b1000);
        assert_eq!(fs.modes[1].excludes, 0b0001);
        assert_eq!(fs.names(0b0101), ["a", "c"]);
    }

    #[test]
    fn a_feature_declared_twice_is_an_error() {
        let e = match model(
            "def FA : SubtargetFeature<\"a\", \"A\", \"1\", \"a\">;\n\
             def FA2 : SubtargetFeature<\"a\", \"A\", \"1\", \"a\">;",
        ) {
            Ok(_) => panic!("expected an error"),
            Err(e) => e,
        };
        assert!(e.contains("subtarget feature 'a' is declared twice"), "{e}");
        assert!(e.contains("first declared here"), "{e}");
    }
}
