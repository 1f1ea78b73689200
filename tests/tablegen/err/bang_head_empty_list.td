// !head is applied to an empty list.
def A { int n = !head([]<int>); }
