//! Pre-allocation passes: phi elimination, two-address lowering, coalescing.
