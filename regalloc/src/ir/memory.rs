//! What an instruction's memory operands (kept as MIR text) say about the memory it reads: whether every access is a load whose value cannot change during the function (LLVM's `isDereferenceableInvariantLoad`), so that the load may be re-executed anywhere.

use super::InstData;

/// The atomic orderings that make an access more than a plain load (an
/// `unordered` one is still a plain load, as in LLVM's `isUnordered`).
const ORDERED: &[&str] = &["monotonic", "acquire", "release", "acq_rel", "seq_cst"];

/// Pseudo source values LLVM calls constant (`PseudoSourceValue::isConstant`):
/// memory no instruction of the function writes.
const CONSTANT_SOURCES: &[&str] = &["constant-pool", "got", "jump-table"];

/// Whether one memory operand (`(load (s64) from constant-pool)`,
/// `(dereferenceable invariant load (s32) from %ir.p)`) is a load of
/// memory that does not change: not volatile, not ordered, not a store,
/// and either marked `dereferenceable invariant` or read from a constant
/// pseudo source (constant pool, GOT, jump table).
pub fn is_invariant_load_operand(text: &str) -> bool {
    let body = text.trim().trim_start_matches('(').trim_end_matches(')');
    // The words before the memory type: flags, `load`/`store`, the scope
    // and the ordering.
    let head = body.split(" (").next().unwrap_or("");
    let words: Vec<&str> = head.split_whitespace().collect();
    if !words.contains(&"load")
        || words.contains(&"store")
        || words.contains(&"volatile")
        || words.iter().any(|w| ORDERED.contains(w))
    {
        return false;
    }
    if words.contains(&"invariant") && words.contains(&"dereferenceable") {
        return true;
    }
    body.split_once(" from ").is_some_and(|(_, from)| {
        let source = from.split([',', ' ']).next().unwrap_or("");
        CONSTANT_SOURCES.contains(&source)
    })
}

impl InstData {
    /// Whether the instruction's memory accesses are all loads of memory
    /// that does not change (see [`is_invariant_load_operand`]); `false`
    /// when it has no memory operand, since nothing then says what it
    /// reads.
    pub fn is_invariant_load(&self) -> bool {
        !self.mem.is_empty() && self.mem.iter().all(|m| is_invariant_load_operand(m))
    }
}

#[cfg(test)]
mod tests {
    use super::is_invariant_load_operand as inv;

    #[test]
    fn constant_sources_and_invariant_dereferenceable_loads_are_invariant() {
        assert!(inv("(load (s128) from constant-pool)"));
        assert!(inv("(load (s64) from got)"));
        assert!(inv("(load (s64) from jump-table)"));
        assert!(inv("(load (s64) from constant-pool, align 16)"));
        assert!(inv(
            "(dereferenceable invariant load (s64) from %ir.p, !tbaa !3)"
        ));
        assert!(inv("(load unordered (s32) from constant-pool)"));
    }

    #[test]
    fn other_loads_and_stores_are_not() {
        assert!(!inv("(load (s64) from %ir.p)"));
        assert!(!inv("(invariant load (s32) from %ir.cgep605, !tbaa !25)"));
        assert!(!inv("(dereferenceable load (s64) from %ir.p)"));
        assert!(!inv("(volatile load (s64) from constant-pool)"));
        assert!(!inv("(load acquire (s64) from got)"));
        assert!(!inv("(store (s64) into constant-pool)"));
        assert!(!inv("(load store (s32) on %ir.p)"));
        assert!(!inv("(load (s64) from %stack.0)"));
        assert!(!inv("(load (s32) from %fixed-stack.1)"));
    }
}
