// Implicit conversion bits -> int, and bits used in integer arithmetic.
def Src { bits<8> b = 0x81; }
def Dst {
  int i = Src.b;
  int j = {1, 0, 0, 0};
  int k = !add(Src.b, 1);
}
