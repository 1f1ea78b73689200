// Register and class names that are Rust keywords become raw identifiers (or get a `_` suffix).
include "regalloc.td"
def loop : Register<"loop">;
def self : Register<"self">;
def type : Register<"type">;
def match : RegisterClass<"K", [i32], 32, (add loop, self, type)>;
