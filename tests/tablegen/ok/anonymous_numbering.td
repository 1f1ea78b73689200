// The order llvm-tblgen numbers anonymous records in (anonymous_N): an anonymous def takes a
// number when parsed (in a foreach or multiclass body too) and each later copy a new one; a
// class instance in a value takes one when first made, keyed on its arguments as written
// (positional and named arguments, and defaults left out, make distinct instances).
class S<string mx, bit f = 0, bit w = 0> { string v = mx; }
class U<string mx, bit f = 0> { S r = S<mx, f>; }
def a { S x = S<"M1">; }
def b { S x = S<"M1", 0>; }
def c { S x = S<"M1", 0, 0>; }
def d { S x = S<mx = "M1">; }
def e { S x = S<"M1", f = 0, w = 0>; }
def g { S x = S<"M1", w = 0, f = 0>; }
def h : U<"M1">;
def k { S x = S<"M1", 0>; }
defvar V = S<"M2", f = 1>;
def : S<"top">;
foreach i = 0...2 in
  def : S<"loop" # i> { S y = S<"M3", i>; }
multiclass M<string p> {
  def : S<p>;
  def NAME # _named : S<p # "n"> { S z = S<p, w = 1>; }
  defvar local = S<p, 1, 1>;
  def NAME # _local { S z = local; }
}
defm one : M<"A">;
defm : M<"B">;
defm two : M<"A">;
def last { S x = V; S y = S<mx = "M2", f = 1>; }
// A parent multiclass's arguments are not cast (llvm-tblgen 19): `w=1` reaches S as the int 1,
// which makes another instance than the bit 1 a defm passes.
multiclass Impl<string p, bit w = 0> { def NAME # _impl { S z = S<p, 0, w>; } }
multiclass Wide<string p> : Impl<p, w = 1>;
defm wide : Wide<"W">;
defm typed : Impl<"W", 1>;
