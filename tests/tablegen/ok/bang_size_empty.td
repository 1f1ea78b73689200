// !size and !empty on lists, strings and dags.
def op;
def S {
  int listSize = !size([1, 2, 3]);
  int strSize = !size("hello");
  int dagSize = !size((op 1, 2));
  bit emptyList = !empty([]<int>);
  bit emptyStr = !empty("");
  bit emptyDag = !empty((op));
  bit notEmpty = !empty([1]);
}
