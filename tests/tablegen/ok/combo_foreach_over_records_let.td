// foreach over a list of records reading their fields, with let-in and defvar inside the loop body.
class Size<int b> { int Bytes = b; }
def S1 : Size<1>;
def S2 : Size<2>;
def S4 : Size<4>;
class Access { int Width = 0; bit Aligned = false; string Name = ""; }
foreach s = [S1, S2, S4] in {
  defvar nbits = !mul(s.Bytes, 8);
  let Aligned = !eq(s.Bytes, 1) in
    def LD # nbits : Access { let Width = nbits; let Name = "ld" # nbits; }
}
