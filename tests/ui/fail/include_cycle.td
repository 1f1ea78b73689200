// ui case: a file that includes itself.
include "include_cycle.td"
