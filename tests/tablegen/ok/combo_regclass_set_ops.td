// Register classes defined from other classes with set-operation dags: add, sub, and, rotl, trunc, shl.
def add;
def sub;
def and;
def rotl;
def trunc;
def shl;
def sequence;
class Reg<string n> { string Name = n; }
foreach i = 0-15 in def Q#i : Reg<"q"#i>;
class Class<dag m> { dag Members = m; int Priority = 0; }
def All : Class<(sequence "Q%u", 0, 15)>;
def Low : Class<(trunc All, 8)>;
def High : Class<(sub All, Low)>;
def Even : Class<(and All, (add (sequence "Q%u", 0, 15)))>;
def Rotated : Class<(rotl Low, 3)> { let Priority = 2; }
def Shifted : Class<(shl All, 4)>;
