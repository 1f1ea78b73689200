// A def name is pasted from a list value (a foreach-local defvar), which is not a string.
foreach i = [1] in {
  defvar l = [1, 2];
  def X # l;
}
