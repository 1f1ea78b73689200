// No clause of !cond is true.
defvar x = 5;
def A { string s = !cond(!eq(x, 1) : "one", !eq(x, 2) : "two"); }
