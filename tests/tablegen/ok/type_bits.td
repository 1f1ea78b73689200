// The bits<n> type: widths 1..64, set from ints, bit lists and other bits.
def Bs {
  bits<1> one = 1;
  bits<4> four = 9;
  bits<8> eight = {1, 0, 1, 0, 0, 0, 0, 1};
  bits<12> twelve = 0xFFF;
  bits<64> wide = 0x8000000000000001;
  bits<4> copy = four;
}
