//! Unit tests of the greedy allocator: eviction cascades, split termination, and allocation of small functions checked by the symbolic checker.
