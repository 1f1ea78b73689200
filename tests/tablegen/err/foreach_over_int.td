// foreach iterates over a string, which is neither a list nor a range.
foreach i = "abc" in def X#i;
