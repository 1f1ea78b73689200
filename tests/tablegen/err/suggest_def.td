// A dag names an instruction that is spelt differently.
class Instruction;
def STW : Instruction;
def LDW : Instruction;
def Spill { dag Code = (STWW 1, 2); }
