// A bit-range let is applied to an int field, which has no bits.
class C { int n = 0; }
def A : C { let n{3-0} = 5; }
