// List slices [0, 2-4], ranges with ..., single elements, and elements of list fields.
def L {
  list<int> l = [10, 11, 12, 13, 14, 15];
  int first = l[0];
  list<int> pick = l[0, 2-4];
  list<int> dots = l[1...3];
  list<int> rev = l[5-3];
  list<string> s = ["a", "b", "c"];
  list<string> s2 = s[2, 0];
}
