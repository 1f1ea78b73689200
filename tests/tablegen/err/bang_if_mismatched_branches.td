// The two branches of !if have incompatible types.
def A { int n = !if(1, 5, "five"); }
