//! Emitting Rust tables from a target model (quote tokens, formatted by prettyplease).
