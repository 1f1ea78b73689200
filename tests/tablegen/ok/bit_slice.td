// Bit slices on bits values: {7-0}, {0...3}, single bits and reversed ranges.
def S {
  bits<16> w = 0xA5C3;
  bits<8> low = w{7-0};
  bits<8> high = w{15-8};
  bits<4> rev = w{0...3};
  bits<1> one = w{15};
  bits<3> mix = w{15, 0, 1};
  bits<4> ofInt = 0xA5{3-0};
}
