// !cast to string from int, bits and string; to int from bits and bit; to bits from int.
def C {
  string fromInt = !cast<string>(42);
  string fromNeg = !cast<string>(-3);
  string fromStr = !cast<string>("same");
  int fromBits = !cast<int>({1, 0, 1});
  int fromBit = !cast<int>(true);
  bits<4> toBits = !cast<bits<4>>(6);
}
