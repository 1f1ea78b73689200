// !add is given a string operand.
def A { int n = !add(1, "two"); }
