//! The hexagon target: `hexagon/hexagon.td` compiled by `regalloc!` into `TARGET` and typed constants.
regalloc::regalloc!("hexagon/hexagon.td");
