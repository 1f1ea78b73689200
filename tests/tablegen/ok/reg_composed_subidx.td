// Composed sub-register indices: a 64-bit register with 32-bit halves and 16-bit quarters.
include "minireg.td"
def sub_lo : SubIdx<32>;
def sub_hi : SubIdx<32, 32>;
def sub_q0 : SubIdx<16>;
def sub_q3 : SubIdx<16, 48>;
def sub_hi_then_hi : SubIdx<16, 48> { let ComposedOf = [sub_hi, sub_q0]; }
class QuadPart<string n, int enc> : Reg<n> { let HWEncoding = enc; }
def Q0 : QuadPart<"q0", 0>;
def Q1 : QuadPart<"q1", 1>;
def D0 : RegWithSubs<"d0", [Q0, Q1]> { let SubRegIndices = [sub_lo, sub_hi]; }
def Composition { list<SubIdx> chain = sub_hi_then_hi.ComposedOf; int total = !add(sub_hi.Offset,
    sub_q0.Offset); }
