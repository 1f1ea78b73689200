// Template arguments flowing through several superclass levels with defaults and expressions.
class Base<int size, string name = "base"> { int Size = size; string Name = name; }
class Mid<int n> : Base<!mul(n, 8), "mid" # n> { int N = n; }
class Top<int n, bit dbl = false> : Mid<!if(dbl, !mul(n, 2), n)> { bit Double = dbl; }
def T1 : Top<2>;
def T2 : Top<2, true>;
def T3 : Top<3> { let Name = "override"; }
