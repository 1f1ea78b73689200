// !substr is given too many operands.
def A { string s = !substr("abc", 0, 1, 2); }
