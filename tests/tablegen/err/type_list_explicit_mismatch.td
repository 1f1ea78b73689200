// A list literal with explicit element type string holds an int.
def A { list<string> l = ["a", 2]<string>; }
