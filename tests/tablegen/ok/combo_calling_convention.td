// Calling-convention style: nested anonymous instantiations of action classes in lists.
class Reg<string n> { string Name = n; }
foreach i = 0-5 in def A#i : Reg<"a"#i>;
class VT;
def i32 : VT;
def i64 : VT;
class CCAction;
class CCAssignToReg<list<Reg> regs> : CCAction { list<Reg> RegList = regs; }
class CCAssignToStack<int size, int align> : CCAction { int Size = size; int Align = align; }
class CCIfType<list<VT> vts, CCAction a> : CCAction { list<VT> VTs = vts; CCAction SubAction = a; }
class CallingConv<list<CCAction> actions> { list<CCAction> Actions = actions; }
def CC_Toy : CallingConv<[
  CCIfType<[i32], CCAssignToReg<[A0, A1, A2, A3]>>,
  CCIfType<[i64], CCAssignToReg<[A4, A5]>>,
  CCAssignToStack<8, 8>
]>;
def RetCC_Toy : CallingConv<[CCIfType<[i32, i64], CCAssignToReg<[A0, A1]>>]>;
