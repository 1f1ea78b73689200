// foreach over list literals of strings, ints and records, and over a defvar list.
class R { string N = ""; }
foreach s = ["ax", "bx", "cx"] in def s : R { let N = s; }
foreach n = [5, 1, 9] in def Num#n { int V = n; }
defvar recs = [ax, bx];
foreach r = recs in def Copy#r { R Of = r; }
