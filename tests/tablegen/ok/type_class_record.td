// Fields whose type is a class; values are defs of that class or of a subclass.
class Animal { string sound = ""; }
class Dog : Animal { let sound = "woof"; }
def rex : Dog;
def generic : Animal;
class Owner<Animal a> { Animal Pet = a; }
def O1 : Owner<rex>;
def O2 : Owner<generic>;
def O3 { Animal none = ?; Dog d = rex; }
