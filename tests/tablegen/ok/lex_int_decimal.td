// Decimal integer literals, including zero, large values and 64-bit limits.
def Ints {
  int zero = 0;
  int small = 7;
  int large = 1234567890123;
  int max = 9223372036854775807;
  int leading = 007;
}
