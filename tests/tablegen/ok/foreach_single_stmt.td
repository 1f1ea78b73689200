// foreach with a single statement body (no braces) and an empty list.
foreach i = [7] in def One#i;
foreach i = []<int> in def Never#i;
def After;
