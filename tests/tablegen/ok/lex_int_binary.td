// Binary literals 0b...: they are bits values of their digit count, converting to int.
def Bin {
  int a = 0b0;
  int b = 0b1010;
  bits<4> c = 0b1010;
  bits<1> d = 0b1;
  bit e = 0b1;
  int f = 0b0000000011111111;
}
