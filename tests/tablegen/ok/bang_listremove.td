// !listremove removes every element that appears in the second list.
def r1;
def r2;
def r3;
def L {
  list<int> ints = !listremove([1, 2, 3, 2, 1], [2]);
  list<string> strs = !listremove(["a", "b", "c"], ["c", "a", "z"]);
  list<int> none = !listremove([1, 2], []);
  list<int> recsOkay = !listremove([4, 5], [4, 5]);
}
