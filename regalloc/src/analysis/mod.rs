//! Analyses allocation needs: CFG orders, dominators, loops, block frequency, slot indexes, liveness, live intervals, spill weights.
