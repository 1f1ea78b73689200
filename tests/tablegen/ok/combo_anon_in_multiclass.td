// Anonymous instantiations inside multiclass defs with NAME and template args, shared across defms.
class Tag<string s> { string S = s; }
class Item<Tag t> { Tag T = t; string TS = t.S; }
multiclass M<string shared> {
  def _own : Item<Tag<NAME>>;
  def _shared : Item<Tag<shared>>;
}
defm A : M<"common">;
defm B : M<"common">;
def Outside : Item<Tag<"common">>;
