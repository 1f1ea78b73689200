// A small instruction vocabulary of our own: operand markers and an instruction base class.
def ins;
def outs;
def imm;
class RC { int Width = 32; }
class Operand<string ty> { string OperandType = ty; string PrintMethod = "print" # ty; }
def simm12 : Operand<"Imm12">;
def uimm5 : Operand<"UImm5">;
class Instr {
  string Namespace = "Toy";
  dag OutOperandList = (outs);
  dag InOperandList = (ins);
  string AsmString = "";
  list<dag> Pattern = [];
  string Constraints = "";
  list<Reg> Uses = [];
  list<Reg> Defs = [];
  int Size = 4;
  bit isReMaterializable = false;
  bit isAsCheapAsAMove = false;
  bit isCommutable = false;
  bit isCall = false;
  bit isTerminator = false;
  bit mayLoad = false;
  bit mayStore = false;
  field bits<32> Inst = 0;
}
