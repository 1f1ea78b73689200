// A class body let targets a field that no superclass declares.
class Base { int a = 0; }
class Derived : Base { let b = 1; }
