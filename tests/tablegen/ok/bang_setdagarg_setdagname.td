// !setdagarg and !setdagname by index and by name.
def op;
def S {
  dag d = (op 1:$a, 2:$b);
  dag argByIndex = !setdagarg(d, 0, 10);
  dag argByName = !setdagarg(d, "b", 20);
  dag nameByIndex = !setdagname(d, 1, "renamed");
  dag nameByName = !setdagname(d, "a", "first");
}
