// An anonymous class instantiation inside a value gets an argument of the wrong type.
class K<int n> { int N = n; }
def A { K k = K<"str">; }
