// A list<int> field is initialized with a list containing a string.
def A { list<int> l = [1, "two", 3]; }
