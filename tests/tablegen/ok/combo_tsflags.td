// TSFlags-style: several small bit fields packed into one bits<16> through class-body bit-range lets.
class FormatVal<bits<3> v> { bits<3> Value = v; }
def FmtR : FormatVal<1>;
def FmtI : FormatVal<2>;
class TInst<FormatVal f, bit isBranch, bits<2> size> {
  bits<16> TSFlags = 0;
  let TSFlags{2-0} = f.Value;
  let TSFlags{3} = isBranch;
  let TSFlags{5-4} = size;
  let TSFlags{15} = 1;
}
def AddR : TInst<FmtR, 0, 2>;
def Jmp : TInst<FmtI, 1, 3>;
