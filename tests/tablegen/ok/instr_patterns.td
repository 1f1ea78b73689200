// Selection-pattern-like list<dag> fields built from operand dags and node records.
include "minireg.td"
include "miniinstr.td"
class SDNode<string n> {string Opcode = n;}
def addnode : SDNode<"ISD::ADD">;
def set;
def i32;
def GPR : RC;
class BinPat<SDNode node, string mn> : Instr {
  let OutOperandList = (outs GPR:$rd);
  let InOperandList = (ins GPR:$rs1, GPR:$rs2);
  let Pattern = [(set GPR:$rd, (node GPR:$rs1, GPR:$rs2))];
  let AsmString = mn;
}
def ADDP : BinPat<addnode, "add">;
def Pat2 { list<dag> Both = !listconcat(ADDP.Pattern,
                                        [(set i32:$x, (addnode i32:$y, 1))]); }
