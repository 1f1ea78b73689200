// A small register-description vocabulary of our own, shaped like a backend's base classes.
class SubIdx<int size, int offset = 0> {
  string Namespace = "";
  int Size = size;
  int Offset = offset;
  list<SubIdx> ComposedOf = [];
}
class Reg<string n, list<string> alt = []> {
  string Namespace = "";
  string AsmName = n;
  list<string> AltNames = alt;
  bits<16> HWEncoding = 0;
  list<Reg> SubRegs = [];
  list<SubIdx> SubRegIndices = [];
  list<int> DwarfNumbers = [];
  int CostPerUse = 0;
  bit isArtificial = false;
  bit isConstant = false;
}
class RegWithSubs<string n, list<Reg> subs> : Reg<n> {
  let SubRegs = subs;
}
class RegClass<string ns, list<int> types, int align, dag members> {
  string Namespace = ns;
  list<int> RegTypes = types;
  int Size = 0;
  int Alignment = align;
  int CopyCost = 1;
  dag MemberList = members;
  list<dag> AltOrders = [];
  code AltOrderSelect = [{}];
  int AllocationPriority = 0;
  bit isAllocatable = true;
}
class Tuples<list<SubIdx> idx, list<dag> regs> {
  list<SubIdx> SubRegIndices = idx;
  list<dag> SubRegs = regs;
}
class CSRs<dag regs> { dag SaveList = regs; }
def add;
def sub;
def and;
def sequence;
def shl;
def rotl;
def trunc;
def decimate;
def interleave;
