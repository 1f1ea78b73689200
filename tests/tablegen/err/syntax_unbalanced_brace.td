// A def body is never closed: the file ends inside the braces.
class C { int v = 0; }
def A : C {
  let v = 3;
