// Anonymous class instantiation Class<args> as a value creates an anonymous record.
class Imm<int w> { int Width = w; }
class Op<Imm i> { Imm I = i; int W = i.Width; }
def O8 : Op<Imm<8>>;
def O16 : Op<Imm<16>>;
def Direct { Imm x = Imm<4>; }
