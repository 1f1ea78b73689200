// ui case: #ifdef without #endif.
include "regalloc.td"
#ifdef FOO
def X;
