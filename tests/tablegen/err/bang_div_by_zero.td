// !div divides by zero.
def A { int n = !div(10, 0); }
