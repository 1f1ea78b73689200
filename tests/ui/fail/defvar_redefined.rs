// The .td file has the same defvar twice in one scope.
regalloc::regalloc!("ui/fail/defvar_redefined.td");

fn main() {}
