long helper(long);
long mix(long a, long b, long c, long d) {
  long x = a * b + c;
  long y = (c ^ d) - a;
  long z = (x | y) + (a & d);
  return x * y + z * b;
}
long around_call(long a, long b) {
  long t = helper(a + b);
  return t * a + b;
}
long wide(long *p) {
  long a = p[0], b = p[1], c = p[2], d = p[3], e = p[4], f = p[5];
  long g = p[6], h = p[7], i = p[8], j = p[9];
  p[10] = a * b + c * d;
  p[11] = e * f + g * h;
  p[12] = i * j + a * j;
  return a + b + c + d + e + f + g + h + i + j;
}
