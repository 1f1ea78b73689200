// A bit slice reaches beyond the width of the bits value.
def A { bits<4> b = 0xF; bits<2> c = b{5-4}; }
