// ui case: the same defvar twice in one scope.
include "regalloc.td"
defvar a = 1;
defvar a = 2;
