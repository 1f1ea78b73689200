// dag literals with $names on arguments only, names on the operator, and string/int arguments.
def ins;
def outs;
def GPR;
def Inst {
  dag OutOps = (outs GPR:$dst);
  dag InOps = (ins GPR:$a, GPR:$b, 16:$imm);
  dag Mixed = (ins "str":$s, $onlyname);
}
