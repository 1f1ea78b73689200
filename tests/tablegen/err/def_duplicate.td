// Two defs have the same name.
def A { int x = 1; }
def A { int x = 2; }
