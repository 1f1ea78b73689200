// !range with one, two and three arguments, negative steps, and over a list's indices.
def R {
  list<int> upTo = !range(4);
  list<int> fromTo = !range(2, 6);
  list<int> step = !range(0, 10, 3);
  list<int> down = !range(5, 0, -2);
  list<int> emptyR = !range(3, 3);
  list<int> indices = !range(["a", "b", "c"]);
}
