// A bits type uses a width that is not a positive literal.
def A { bits<x> b = 0; }
