// let inside a class body overrides a field inherited from a superclass.
class Base { int A = 1; string B = "base"; }
class Derived : Base { let A = 2; }
class Derived2 : Derived { let B = "derived2"; }
def D : Derived;
def E : Derived2;
