// ui case: a string in a list of ints.
include "regalloc.td"
class C { list<int> L = [1, "two"]; }
def X : C;
