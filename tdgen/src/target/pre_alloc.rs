//! The pre-allocation passes' target choices (our extension): what LLVM's targets decide in C++ hooks, stated in the description so the passes read facts, never a target's name.
//!
//! A target declares at most one `PreAllocationPolicy` def; without one,
//! every choice takes LLVM's default. See `tdgen/prelude/regalloc.td`.

use super::access::Fields;
use crate::diag::{Diagnostic, Kind};

/// The target-wide choices of the pre-allocation passes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PreAllocationPolicy {
    /// The register coalescer holds back copies whose registers live in
    /// one block until the walk leaves their loop depth (LLVM's
    /// `enableJoinGlobalCopies`).
    pub join_global_copies: bool,
    /// Liveness follows sub-register lanes: `detect-dead-lanes` runs and
    /// the allocators' interference follows lanes (LLVM's
    /// `enableSubRegLiveness`).
    pub tracks_sub_reg_liveness: bool,
}

/// Reads the policy def (at most one).
pub fn read(f: &Fields<'_>, diags: &mut Vec<Diagnostic>) -> PreAllocationPolicy {
    let defs = f.rk.derived_defs("PreAllocationPolicy");
    if defs.len() > 1 {
        diags.push(
            Diagnostic::error(
                Kind::Semantic,
                f.loc(defs[1]),
                "a target may declare only one PreAllocationPolicy",
            )
            .with_secondary(f.loc(defs[0]), "the first one is here"),
        );
    }
    defs.first()
        .map(|&d| PreAllocationPolicy {
            join_global_copies: f.bit(d, "JoinGlobalCopies"),
            tracks_sub_reg_liveness: f.bit(d, "TracksSubRegLiveness"),
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: &str = r#"
include "regalloc.td"
def R0 : Register<"r0">; def R1 : Register<"r1">;
def GPR : RegisterClass<"T", [i32], 32, (add R0, R1)>;
"#;

    fn policy(body: &str) -> PreAllocationPolicy {
        let m = crate::target::model_of(&format!("{HEAD}{body}")).expect("a model");
        m.pre_allocation
    }

    #[test]
    fn absent_is_llvms_default() {
        assert_eq!(policy(""), PreAllocationPolicy::default());
        assert!(!policy("").join_global_copies);
        assert!(!policy("").tracks_sub_reg_liveness);
    }

    #[test]
    fn the_bit_is_read() {
        let p = policy("def P : PreAllocationPolicy { let JoinGlobalCopies = true; }");
        assert!(p.join_global_copies);
        assert!(!p.tracks_sub_reg_liveness);
    }

    #[test]
    fn the_lanes_bit_is_read() {
        let p = policy("def P : PreAllocationPolicy { let TracksSubRegLiveness = true; }");
        assert!(p.tracks_sub_reg_liveness);
        assert!(!p.join_global_copies);
    }

    #[test]
    fn two_defs_are_an_error() {
        let e = crate::target::model_error_of(&format!(
            "{HEAD}def P : PreAllocationPolicy;\ndef Q : PreAllocationPolicy;"
        ));
        assert!(
            e.contains("error: a target may declare only one PreAllocationPolicy"),
            "{e}"
        );
        assert!(e.contains("the first one is here"), "{e}");
    }
}
