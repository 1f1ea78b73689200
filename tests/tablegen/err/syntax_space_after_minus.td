// A minus sign separated from its number is not a negative literal.
def A { int m = - 7; }
