// Nested foreach loops producing the cross product of two ranges.
foreach i = 0-2 in {
  foreach j = [0, 1] in {
    def M#i#j { int Row = i; int Col = j; int Prod = !mul(i, j); }
  }
}
