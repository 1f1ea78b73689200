// Template arguments used in field initializers and in superclass arguments.
class Pair<int a, int b> { int First = a; int Second = b; }
class Swapped<int x, int y> : Pair<y, x> { int Sum = !add(x, y); }
def P : Swapped<3, 4>;
