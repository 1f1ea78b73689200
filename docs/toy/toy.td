// Toy: a made-up 32-bit machine for docs/new-target.md. Four 32-bit
// registers W0-W3, each split into 16-bit halves; a stack pointer; one
// callee-saved register; an add whose result overwrites its first input
// (a tied operand), a rematerializable move of an immediate, a register
// move, and the loads and stores the allocator spills with.
include "regalloc.td"

let Namespace = "Toy" in {
  def lo : SubRegIndex<16>;
  def hi : SubRegIndex<16, 16>;
  foreach i = 0...3 in {
    def L#i : Register<"l"#i> { let HWEncoding = i; }
    def H#i : Register<"h"#i> { let HWEncoding = i; }
    def W#i : RegisterWithSubRegs<"w"#i, [!cast<Register>("L"#i), !cast<Register>("H"#i)]> {
      let SubRegIndices = [lo, hi];
      let CoveredBySubRegs = true;
      let HWEncoding = i;
    }
  }
  def SP : Register<"sp"> { let HWEncoding = 15; }
}

def GPR : RegisterClass<"Toy", [i32], 32, (add (sequence "W%u", 0, 3), SP)>;
def HALF : RegisterClass<"Toy", [i16], 16, (add (sequence "L%u", 0, 3), (sequence "H%u", 0, 3))>;

// The calling convention: W3 survives calls.
def CSR_Toy : CalleeSavedRegs<(add W3)>;

// The allocator never touches the stack pointer.
def ToyReserved : ReservedRegisters {
  let Always = (add SP);
}

def simm16 : Operand<i32>;
def memslot : Operand<i32>;

let Namespace = "Toy" in {
  // $dst = $a + $b, written back over $a.
  def ADDrr : Instruction {
    let OutOperandList = (outs GPR:$dst);
    let InOperandList = (ins GPR:$a, GPR:$b);
    let Constraints = "$dst = $a";
    let isCommutable = true;
  }
  // $dst = imm: cheaper to redo than to reload.
  def MOVri : Instruction {
    let OutOperandList = (outs GPR:$dst);
    let InOperandList = (ins simm16:$imm);
    let isReMaterializable = true;
    let isAsCheapAsAMove = true;
    let isMoveImm = true;
  }
  def MOVrr : Instruction {
    let OutOperandList = (outs GPR:$dst);
    let InOperandList = (ins GPR:$src);
    let isMoveReg = true;
  }
  def LDW : Instruction {
    let OutOperandList = (outs GPR:$dst);
    let InOperandList = (ins memslot:$slot, simm16:$off);
    let mayLoad = true;
  }
  def STW : Instruction {
    let OutOperandList = (outs);
    let InOperandList = (ins GPR:$src, memslot:$slot, simm16:$off);
    let mayStore = true;
  }
  def CALL : Instruction {
    let OutOperandList = (outs);
    let InOperandList = (ins simm16:$target);
    let isCall = true;
    let Defs = [W0, W1, W2];
  }
  def RET : Instruction {
    let OutOperandList = (outs);
    let InOperandList = (ins);
    let isReturn = true;
    let isTerminator = true;
    let isBarrier = true;
  }
}

// How the allocator spills, reloads and copies a GPR.
def GPRTemplates : SpillTemplates<GPR> {
  let Spill  = (STW TplReg, TplSlot, 0);
  let Reload = (LDW TplReg, TplSlot, 0);
  let Copy   = (MOVrr TplReg, TplSrc);
}

def Toy : Target;
