// An int literal does not fit into the bits<n> field it initializes.
def A { bits<4> b = 16; }
