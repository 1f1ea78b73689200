//! Register semantics: turning evaluated records into a target model (registers, sub-registers, units, classes, callee-saved sets).
