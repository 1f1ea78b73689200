// A class inside a let block is never closed; the block's own } closes the
// block (by its indentation), so the class's { is the one reported.
let v = 1 in {
  class C {
    int v = 0;

  def A : C;
}
def B : C;
