// A multiclass body is never closed: the defm after it is read as part of it.
multiclass M {
  def _a;

defm X : M;
