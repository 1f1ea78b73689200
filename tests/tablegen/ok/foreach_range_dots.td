// foreach over ranges written with '...' and over braced range lists {0-2, 5}.
class R<int n> { int N = n; }
foreach i = 0...2 in def A#i : R<i>;
foreach i = {0-1, 5, 9...10} in def B#i : R<i>;
