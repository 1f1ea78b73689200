// A foreach body is never closed.
foreach i = [1, 2] in {
  def R#i;
