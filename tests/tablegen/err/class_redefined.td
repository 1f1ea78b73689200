// The same class is defined twice with a body.
class C { int x = 1; }
class C { int x = 2; }
