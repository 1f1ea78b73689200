// A let block is never closed: the file ends inside it.
class C { int v = 0; }
let v = 2 in {
  def A : C;

def B : C;
