// Register banks made by a multiclass: each defm creates registers and a class holding them.
include "minireg.td"
multiclass Bank<string prefix, int count, int width> {
  foreach i = !range(count) in
    def NAME # i : Reg<prefix # i> {let HWEncoding = i;}
  def NAME # Class : RegClass<"Toy", [width], width,
                              (sequence NAME # "%u", 0, !sub(count, 1))>;
}
defm A : Bank<"a", 4, 32>;
defm F : Bank<"f", 2, 64>;
