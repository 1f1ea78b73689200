//! The allocators (fast, basic, greedy, pbqp) and their shared machinery: live register matrix, allocation order, virtual register map, spiller, split kit.
