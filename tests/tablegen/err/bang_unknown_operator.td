// A bang operator that does not exist in this TableGen version.
def A { list<int> l = !sort([3, 1, 2]); }
