// !listconcat joins lists of different element types.
def A { list<int> l = !listconcat([1, 2], ["a"]); }
