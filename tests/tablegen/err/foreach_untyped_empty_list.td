// foreach iterates over an empty list whose element type cannot be inferred.
foreach i = [] in def X#i;
