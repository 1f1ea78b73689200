// A RISC-V-like description for the tutorial's section on subtarget
// features: RV64's 32 integer registers, with the compressed-instruction
// extension ("c") selecting an allocation order of the eight registers
// (x8-x15) that compressed instructions can name. Register, class and
// calling-convention names are RISC-V's, so llc-19 reads and verifies
// what regalloc writes for it (docs/toy/rvc.mir was made by llc-19 for
// riscv64 from docs/toy/rvc.c).
include "regalloc.td"

let Namespace = "RV" in {
  foreach i = 0...31 in
    def X#i : Register<"x"#i> { let HWEncoding = i; }
}

// Features, as `-mattr=+c` and IR's "target-features" name them.
def FeatureStdExtM : SubtargetFeature<"m", "HasStdExtM", "true",
                                      "integer multiplication and division">;
def FeatureStdExtC : SubtargetFeature<"c", "HasStdExtC", "true",
                                      "compressed instructions">;

def GPR : RegisterClass<"RV", [i64], 64,
    (add (sequence "X%u", 10, 17), (sequence "X%u", 5, 7),
         (sequence "X%u", 28, 31), (sequence "X%u", 8, 9),
         (sequence "X%u", 18, 27), (sequence "X%u", 0, 4))> {
  // Compressed instructions have 3-bit register fields: with "c", keep
  // values in x8-x15 so that more instructions have a 16-bit form.
  let AltOrders = [(add (sequence "X%u", 10, 15), X8, X9)];
  let AltOrderSelect = [{
    if func.has_feature("c") { 1 } else { 0 }
  }];
}

def CSR_ILP32_LP64 : CalleeSavedRegs<(add X1, X8, X9, (sequence "X%u", 18, 27))>;

def RVReserved : ReservedRegisters {
  let Always = (add X0, X2, X3, X4);   // zero, sp, gp, tp
  let FramePointer = (add X8);
}

def simm12 : Operand<i64>;

let Namespace = "RV" in {
  def ADDI : Instruction {
    let OutOperandList = (outs GPR:$rd);
    let InOperandList = (ins GPR:$rs1, simm12:$imm12);
    let isAsCheapAsAMove = true;
  }
  def LD : Instruction {
    let OutOperandList = (outs GPR:$rd);
    let InOperandList = (ins GPR:$rs1, simm12:$imm12);
    let mayLoad = true;
  }
  def SD : Instruction {
    let OutOperandList = (outs);
    let InOperandList = (ins GPR:$rs2, GPR:$rs1, simm12:$imm12);
    let mayStore = true;
  }
}

def GPRTemplates : SpillTemplates<GPR> {
  let Spill  = (SD TplReg, TplSlot, 0);
  let Reload = (LD TplReg, TplSlot, 0);
  let Copy   = (ADDI TplReg, TplSrc, 0);
}

def RV : Target;
