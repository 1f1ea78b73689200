// a memory fold whose memory form does not line up with the register form.
regalloc::regalloc!("ui/fail/fold_operand_mismatch.td");

fn main() {}
