// A subclass re-declares an inherited field with a different type.
class Base { field int Value = 1; }
class Derived : Base { field string Value = "s"; }
