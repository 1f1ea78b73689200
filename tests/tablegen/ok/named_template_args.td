// Named template arguments Cls<x = 1>, mixed with positional ones and in anonymous instantiations.
class Cfg<int a = 1, int b = 2, string c = "c"> { int A = a; int B = b; string C = c; }
def OnlyB : Cfg<b = 20>;
def PosThenNamed : Cfg<10, c = "named">;
def AllNamed : Cfg<c = "z", a = 7, b = 8>;
def InValue { Cfg x = Cfg<b = 5>; }
