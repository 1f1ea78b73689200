// A !cast names an instruction that is spelt differently.
class Instruction;
def MOV32rm : Instruction;
def Fold { Instruction MemForm = !cast<Instruction>("MOV32rmm"); }
