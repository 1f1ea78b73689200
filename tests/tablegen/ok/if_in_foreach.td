// if/then/else inside foreach choosing which defs to create for each value.
foreach i = 0-5 in {
  if !eq(!and(i, 1), 0) then
    def Even#i { int N = i; }
  else
    def Odd#i { int N = i; }
}
