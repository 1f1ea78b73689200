// Asm-operand style: class fields defaulting from NAME, !cast back to records, and superclass lists.
class AsmOperandClass {
  string Name = NAME;
  string PredicateMethod = "is" # NAME;
  string RenderMethod = "add" # NAME # "Operands";
  list<AsmOperandClass> SuperClasses = [];
}
def Imm : AsmOperandClass;
def SImm12 : AsmOperandClass { let SuperClasses = [Imm]; }
def UImm5 : AsmOperandClass { let SuperClasses = [Imm]; let RenderMethod = "addImmOperands"; }
foreach w = [4, 8] in
  def UImm # w : AsmOperandClass { let SuperClasses = [!cast<AsmOperandClass>("Imm")]; }
