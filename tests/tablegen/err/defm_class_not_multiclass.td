// defm's first parent is an ordinary class, not a multiclass.
class C;
defm X : C;
