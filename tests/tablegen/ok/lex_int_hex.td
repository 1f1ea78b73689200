// Hexadecimal integer literals in upper, lower and mixed case.
def Hex {
  int a = 0x0;
  int b = 0xff;
  int c = 0xFF;
  int d = 0xDeadBeef;
  int e = 0x7fffffffffffffff;
  int f = 0xffffffffffffffff;
  bits<16> g = 0xabcd;
}
