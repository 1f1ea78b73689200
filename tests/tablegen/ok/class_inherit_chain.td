// A chain of classes: every ancestor appears in !superclasses, ancestors first.
class Root { int depth = 0; }
class Mid : Root { let depth = 1; int mid = 1; }
class Leaf<int v> : Mid { let depth = 2; int leaf = v; }
def L : Leaf<5>;
def M : Mid;
class Other;
def Both : Other, Leaf<6>;
