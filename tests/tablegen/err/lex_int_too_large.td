// A decimal integer literal does not fit in 64 bits.
def A { int big = 99999999999999999999; }
