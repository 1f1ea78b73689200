//! Unit tests of the lowering checker.
