// String processing for mnemonics: !subst, !find, !substr, !toupper, !interleave and !size together.
class Mn<string full> {
  string Full = full;
  int Dot = !find(full, ".");
  string Base = !if(!lt(Dot, 0), full, !substr(full, 0, Dot));
  string Suffix = !if(!lt(Dot, 0), "", !substr(full, !add(Dot, 1)));
  string Enum = !toupper(!subst(".", "_", full));
  string Spaced = !interleave([Base, Suffix], " ");
  int Len = !size(full);
}
def fadd_s : Mn<"fadd.s">;
def mov : Mn<"mov">;
def vld_b_x : Mn<"vld.b.x">;
