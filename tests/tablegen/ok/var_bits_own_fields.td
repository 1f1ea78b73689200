// Bits initialised from another field's bits stay var-bits when that field is unset (Lanai's `let P = src{17}`), and resolve when it is set.
class M { bits<4> src; bits<4> rs = src; bits<1> P; bits<2> Q = src{2-1}; bits<6> Mixed = { 1, 0, src{3-0} }; }
def W : M { let P = src{3}; }
def V : M { let src = 5; let P = src{0}; }
class N<bits<3> a> { bits<3> f; bits<5> g = { a{1-0}, f }; }
def X : N<2>;
