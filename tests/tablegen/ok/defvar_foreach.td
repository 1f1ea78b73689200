// defvar inside a foreach body, recomputed for every iteration.
foreach i = [1, 2, 3] in {
  defvar sq = !mul(i, i);
  defvar nm = "Sq" # i;
  def nm { int Value = sq; }
}
