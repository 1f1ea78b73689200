// Pasting ints onto identifiers in def names in loops, and int # int in strings.
foreach i = [1, 20] in
  foreach j = [3, 4] in
    def R#i#_#j { string s = i # j; int n = !add(!mul(i, 100), j); }
