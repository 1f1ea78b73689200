// A list element index is past the end of the list.
def A { list<int> l = [1, 2, 3]; int x = l[7]; }
