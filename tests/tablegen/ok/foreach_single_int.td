// foreach over a single integer (a one-element range) and over a braced list with one element.
foreach i = 5 in def A#i;
foreach i = {9} in def B#i;
