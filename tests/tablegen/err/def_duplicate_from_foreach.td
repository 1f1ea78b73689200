// A foreach produces the same def name on two iterations.
foreach i = [1, 2] in def Same;
