// NAME pasted in the middle and at the end of def names inside a multiclass.
class T { string Full = NAME; }
multiclass M {
  def NAME : T;
  def NAME # _x : T;
  def pre_ # NAME : T;
  def pre_ # NAME # _post : T;
}
defm foo : M;
