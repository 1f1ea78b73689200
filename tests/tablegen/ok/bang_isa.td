// !isa<Class>(value) tests the class of a record value.
class Animal;
class Cat : Animal;
class Car;
def tom : Cat;
def beetle : Car;
def Q {
  bit tomIsAnimal = !isa<Animal>(tom);
  bit tomIsCat = !isa<Cat>(tom);
  bit beetleIsAnimal = !isa<Animal>(beetle);
  bit intIsString = !isa<string>(3);
  bit strIsString = !isa<string>("s");
}
