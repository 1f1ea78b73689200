// Bit-list literals {a, b, ...} mixing bits, single bits of other fields, and bits sub-values.
def B {
  bits<2> hi = 0b10;
  bits<2> lo = 0b01;
  bits<4> cat = {hi, lo};
  bits<5> mixed = {1, hi, lo{0}, 0};
  bits<3> single = {hi{1}, lo{1}, 1};
}
