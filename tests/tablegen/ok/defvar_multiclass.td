// defvar inside a multiclass body using template arguments.
class Val<int v> { int V = v; }
multiclass M<int base> {
  defvar plusOne = !add(base, 1);
  defvar plusTwo = !add(base, 2);
  def _1 : Val<plusOne>;
  def _2 : Val<plusTwo>;
}
defm A : M<10>;
defm B : M<20>;
