//! "Did you mean ...?": the known name closest to a misspelt one, by edit distance.
//!
//! A candidate qualifies when it differs from the name by at most a third
//! of the name's length in single-character insertions, deletions and
//! substitutions (at least one, none for names shorter than three
//! characters), as rustc's suggestions do; a candidate equal but for case
//! always qualifies and wins. Ties go to the
//! alphabetically first candidate, so the suggestion does not depend on
//! the order of a hash map.

/// The candidate closest to `name`, if one is close enough.
pub(crate) fn closest<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    // A name of one or two characters is like too many others to guess at.
    let len = name.chars().count();
    let limit = if len < 3 { 0 } else { (len / 3).max(1) };
    let mut best: Option<(usize, &'a str)> = None;
    for c in candidates {
        if c == name {
            continue;
        }
        let d = if c.eq_ignore_ascii_case(name) {
            0
        } else {
            let bound = best.map_or(limit, |(d, _)| d.min(limit));
            match distance_within(name, c, bound) {
                Some(d) => d,
                None => continue,
            }
        };
        let better = match best {
            None => true,
            Some((bd, bc)) => d < bd || (d == bd && c < bc),
        };
        if better {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

/// The help for a name that names no record: the register it is another
/// name of (its `AsmName` or one of its `AltNames`, in any case: `s0` for
/// RISC-V's `X8`), or else the closest record or variable name.
pub(crate) fn for_record_name<'a>(
    name: &str,
    rk: &'a crate::records::RecordKeeper,
    more: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    if let Some(help) = register_called(name, rk) {
        return Some(help);
    }
    let defs = rk.defs.keys().map(|k| &**k);
    let globals = rk.globals.keys().map(|&s| rk.interner.name(s));
    closest(name, defs.chain(globals).chain(more)).map(|c| format!("did you mean '{c}'?"))
}

/// `'S0' is an alternative name of register 'X8'`, when a register has
/// `name` as its assembly name or one of its alternative names.
fn register_called(name: &str, rk: &crate::records::RecordKeeper) -> Option<String> {
    use crate::records::Init;
    let register = rk.class("Register")?;
    let asm_name = rk.interner.get("AsmName");
    let alt_names = rk.interner.get("AltNames");
    let is_name = |v: &Init| matches!(v, Init::Str(s, _) if s.eq_ignore_ascii_case(name));
    for &d in &rk.def_order {
        let r = rk.get(d);
        if !r.is_subclass_of(register) {
            continue;
        }
        let field =
            |f: Option<crate::syntax::ast::Sym>| f.and_then(|f| r.value(f)).map(|v| &v.value);
        let reg = rk.name_of(d);
        if field(asm_name).is_some_and(is_name) {
            return Some(format!(
                "'{name}' is the assembly name (AsmName) of register '{reg}': refer to the register as '{reg}'"
            ));
        }
        if let Some(Init::List(names, _)) = field(alt_names)
            && names.iter().any(is_name)
        {
            return Some(format!(
                "'{name}' is an alternative name (AltNames) of register '{reg}': refer to the register as '{reg}'"
            ));
        }
    }
    None
}

/// The edit distance between `a` and `b` if it is at most `bound`.
fn distance_within(a: &str, b: &str, bound: usize) -> Option<usize> {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a.len().abs_diff(b.len()) > bound {
        return None;
    }
    // One row of the dynamic-programming table at a time.
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut row = vec![0; b.len() + 1];
    for (i, &ca) in a.iter().enumerate() {
        row[0] = i + 1;
        let mut row_min = row[0];
        for (j, &cb) in b.iter().enumerate() {
            let substitute = prev[j] + usize::from(ca != cb);
            row[j + 1] = substitute.min(prev[j + 1] + 1).min(row[j] + 1);
            row_min = row_min.min(row[j + 1]);
        }
        if row_min > bound {
            return None;
        }
        std::mem::swap(&mut prev, &mut row);
    }
    let d = prev[b.len()];
    (d <= bound).then_some(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_british_spelling_finds_the_field() {
        let fields = ["isReMaterializable", "isAsCheapAsAMove", "isMoveImm"];
        assert_eq!(
            closest("isReMaterialisable", fields),
            Some("isReMaterializable")
        );
    }

    #[test]
    fn case_alone_wins_over_a_closer_spelling() {
        assert_eq!(closest("gpr", ["GPR", "gpq"]), Some("GPR"));
    }

    #[test]
    fn nothing_is_suggested_for_a_name_unlike_every_candidate() {
        assert_eq!(closest("b", ["a"]), None, "one letter is like any other");
        assert_eq!(
            closest("r0", ["R0"]),
            Some("R0"),
            "but case alone still counts"
        );
        assert_eq!(closest("Foo", ["Register", "Instruction"]), None);
        assert_eq!(
            closest("X", ["X"]),
            None,
            "the name itself is no suggestion"
        );
    }

    #[test]
    fn ties_go_to_the_first_in_alphabetical_order() {
        assert_eq!(closest("RX1", ["RX2", "RX0"]), Some("RX0"));
    }

    #[test]
    fn distances_are_counted_in_characters() {
        assert_eq!(distance_within("kitten", "sitting", 3), Some(3));
        assert_eq!(distance_within("kitten", "sitting", 2), None);
        assert_eq!(distance_within("é", "e", 1), Some(1));
    }
}
