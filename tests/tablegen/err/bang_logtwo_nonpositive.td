// !logtwo is applied to zero.
def A { int n = !logtwo(0); }
