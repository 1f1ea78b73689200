//! The symbolic checker that proves an allocated function reads, at every use, the value the original instruction used.
