// two templates of one class under features neither of which implies the other.
regalloc::regalloc!("ui/fail/template_features_overlap.td");

fn main() {}
