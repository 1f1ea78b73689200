// Class template arguments of several types are bound by position.
class Shape<string name, int sides, bit closed, list<int> angles> {
  string Name = name;
  int Sides = sides;
  bit Closed = closed;
  list<int> Angles = angles;
}
def Tri : Shape<"triangle", 3, 1, [60, 60, 60]>;
def Line : Shape<"line", 1, 0, []>;
