// foreach over ranges written with '-': ascending, descending and a single element.
class R<int n> { int N = n; }
foreach i = 0-3 in def A#i : R<i>;
foreach i = 3-1 in def D#i : R<i>;
foreach i = 7-7 in def S#i : R<i>;
