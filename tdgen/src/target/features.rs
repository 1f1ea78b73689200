//! Subtarget features: the `SubtargetFeature` defs (LLVM's class, with its `Implies` lists) and the feature names HW modes are selected by, each numbered with a bit of a set as wide as the target needs.
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
//! them (it implies nothing). The sets ([`FeatureBits`]) grow with the
//! target (RISC-V declares 237 features, AMDGPU 189); the allocator's
//! run-time `FeatureSet` is one `u64`, so the emitted tables
//! (`emit::tables`) still refuse a target with more than
//! [`MAX_TABLE_FEATURES`].

use super::access::Fields;
use super::regs::RegBank;
use crate::diag::{Diagnostic, Kind};
use crate::records::{Init, RecId};
use rustc_hash::FxHashMap as HashMap;

/// The most features the allocator's run-time tables can carry (its
/// `FeatureSet` is one `u64`); the model itself has no limit.
pub const MAX_TABLE_FEATURES: usize = 64;

/// A set of features by bit: words of 64 bits, low bit first, as many as
/// the highest bit needs (no trailing zero words, so that equal sets are
/// equal values and print the same).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FeatureBits(Vec<u64>);

impl FeatureBits {
    /// The empty set.
    pub fn new() -> FeatureBits {
        FeatureBits(Vec::new())
    }

    /// The set of one bit.
    pub fn single(bit: usize) -> FeatureBits {
        let mut s = FeatureBits::new();
        s.insert(bit);
        s
    }

    /// Adds `bit`.
    pub fn insert(&mut self, bit: usize) {
        let word = bit / 64;
        if self.0.len() <= word {
            self.0.resize(word + 1, 0);
        }
        self.0[word] |= 1 << (bit % 64);
    }

    /// Whether `bit` is in the set.
    pub fn has(&self, bit: usize) -> bool {
        self.0
            .get(bit / 64)
            .is_some_and(|w| w >> (bit % 64) & 1 == 1)
    }

    /// Adds every bit of `other`.
    pub fn union_with(&mut self, other: &FeatureBits) {
        if self.0.len() < other.0.len() {
            self.0.resize(other.0.len(), 0);
        }
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a |= b;
        }
    }

    /// The bits of both sets.
    pub fn intersection(&self, other: &FeatureBits) -> FeatureBits {
        let mut words: Vec<u64> = self.0.iter().zip(&other.0).map(|(a, b)| a & b).collect();
        while words.last() == Some(&0) {
            words.pop();
        }
        FeatureBits(words)
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// How many bits are set.
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The bits, ascending.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(k, &w)| {
            (0..64)
                .filter(move |b| w >> b & 1 == 1)
                .map(move |b| k * 64 + b)
        })
    }

    /// The set as one `u64` (the allocator's `FeatureSet`), or `None` when
    /// a bit is 64 or above.
    pub fn to_u64(&self) -> Option<u64> {
        match self.0.as_slice() {
            [] => Some(0),
            [w] => Some(*w),
            _ => None,
        }
    }
}

impl FromIterator<usize> for FeatureBits {
    fn from_iter<I: IntoIterator<Item = usize>>(bits: I) -> FeatureBits {
        let mut s = FeatureBits::new();
        for b in bits {
            s.insert(b);
        }
        s
    }
}

/// One feature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Feature {
    /// Its name (`Name`: what `-mattr=+name` and IR's `"target-features"` say).
    pub name: String,
    /// The def, for declared features.
    pub def: Option<RecId>,
    /// The features it turns on: its own bit and, transitively, its `Implies`.
    pub implies: FeatureBits,
}

/// What one HW mode asks of a function's features.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ModeFeatures {
    /// Features the mode's string turns on (`+name`).
    pub requires: FeatureBits,
    /// Features it turns off (`-name`).
    pub excludes: FeatureBits,
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
    pub fn closure(&self, bits: impl IntoIterator<Item = usize>) -> FeatureBits {
        let mut set = FeatureBits::new();
        for b in bits {
            if let Some(f) = self.list.get(b) {
                set.union_with(&f.implies);
            }
        }
        set
    }

    /// The names of the features in `set`, in bit order.
    pub fn names(&self, set: &FeatureBits) -> Vec<&str> {
        set.iter()
            .filter_map(|b| self.list.get(b))
            .map(|f| f.name.as_str())
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
            implies: FeatureBits::new(),
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
                    implies: FeatureBits::new(),
                });
            }
            terms.push((on, name.to_string()));
        }
        mode_terms.push(terms);
    }
    // Direct implications, then their transitive closure (a fixed point:
    // at most one round per feature).
    for k in 0..out.list.len() {
        let mut direct = FeatureBits::single(k);
        if let Some(d) = out.list[k].def {
            for i in f.list(d, "Implies").iter() {
                if let Init::Def(x) = i
                    && let Some(&b) = out.by_def.get(x)
                {
                    direct.insert(b);
                }
            }
        }
        out.list[k].implies = direct;
    }
    loop {
        let mut changed = false;
        for k in 0..out.list.len() {
            let now = out.closure_of(&out.list[k].implies);
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
                let bit = by_name[name];
                if *on {
                    m.requires.insert(bit);
                } else {
                    m.excludes.insert(bit);
                }
            }
            m
        })
        .collect();
    out
}

impl Features {
    /// The union of what every feature in `set` implies.
    fn closure_of(&self, set: &FeatureBits) -> FeatureBits {
        self.closure(set.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::FeatureBits;
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
        let set = |bits: &[usize]| bits.iter().copied().collect::<FeatureBits>();
        assert_eq!(
            fs.list[2].implies,
            set(&[0, 1, 2]),
            "c implies b and, through it, a"
        );
        assert_eq!(
            fs.list[3].implies,
            set(&[3]),
            "a mode-only name implies nothing"
        );
        assert_eq!(fs.modes.len(), 2);
        assert_eq!(fs.modes[1].requires, set(&[3]));
        assert_eq!(fs.modes[1].excludes, set(&[0]));
        assert_eq!(fs.names(&set(&[0, 2])), ["a", "c"]);
    }

    /// 200 features `f000`..`f199`, each implying the one before it, and a
    /// HW mode on the last: the sets span four words.
    fn chain_of_200() -> String {
        let mut body = String::new();
        for k in 0..200 {
            let implies = if k == 0 {
                String::new()
            } else {
                format!(", [F{:03}]", k - 1)
            };
            body += &format!(
                "def F{k:03} : SubtargetFeature<\"f{k:03}\", \"H\", \"1\", \"d\"{implies}>;\n"
            );
        }
        body + "def Last : HwMode<\"+f199,-f000\", []>;\n"
    }

    #[test]
    fn more_than_64_features_get_bits_past_the_first_word() {
        let m = model(&chain_of_200()).unwrap_or_else(|e| panic!("{e}"));
        let fs = &m.features;
        assert_eq!(fs.list.len(), 200);
        // Name order: f000 is bit 0, f199 bit 199.
        assert_eq!(fs.list[199].name, "f199");
        let all: Vec<usize> = fs.list[199].implies.iter().collect();
        assert_eq!(
            all,
            (0..200).collect::<Vec<_>>(),
            "f199 implies every feature"
        );
        let upper: Vec<usize> = fs.list[130].implies.iter().collect();
        assert_eq!(upper, (0..131).collect::<Vec<_>>());
        assert_eq!(fs.modes[1].requires.iter().collect::<Vec<_>>(), [199]);
        assert_eq!(fs.modes[1].excludes.iter().collect::<Vec<_>>(), [0]);
        assert_eq!(fs.closure([70, 3]).len(), 71);
        assert_eq!(fs.list[130].implies.to_u64(), None);
        assert_eq!(fs.list[63].implies.to_u64(), Some(u64::MAX));
        // Reading twice numbers and closes the same way.
        assert_eq!(model(&chain_of_200()).unwrap().features, m.features);
    }

    #[test]
    fn tables_for_the_allocator_refuse_more_than_64_features() {
        let mut loader = crate::Loader::new();
        loader.include_dir(crate::emit::prelude_dir());
        let text = format!(
            "include \"regalloc.td\"\ndef R0 : Register<\"r0\">;\n\
             def GPR : RegisterClass<\"T\", [i32], 32, (add R0)>;\n{}",
            chain_of_200()
        );
        let rk = loader.records_from_str("many.td", &text).unwrap();
        let m = TargetModel::build(&rk).unwrap();
        let e = crate::emit::Tables::from_model(&rk, &m, None).expect_err("an error");
        assert_eq!(
            loader.render(&e),
            "error: the target names 200 subtarget features; the allocator's tables hold 64\n   \
             ┌─ many.td:68:5\n   \
             │\n\
             68 │ def F064 : SubtargetFeature<\"f064\", \"H\", \"1\", \"d\", [F063]>;\n   \
             │     ^^^^\n   \
             │\n   \
             = help: declare only the features that spill templates or HW modes depend on\n\n"
        );
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
