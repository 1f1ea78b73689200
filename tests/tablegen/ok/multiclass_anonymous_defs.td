// Anonymous defs inside a multiclass, and a defm with no name.
class A<string s> { string S = s; }
multiclass M<string tag> {
  def : A<tag # "-anon">;
  def _named : A<tag>;
}
defm first : M<"f">;
defm : M<"nameless">;
def : A<"top">;
