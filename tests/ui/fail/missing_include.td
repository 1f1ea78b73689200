// ui case: an include that is nowhere on the search path.
include "no_such_file.td"
