//! Benchmarks and the corpus harness for tdgen and regalloc.
