// Building operand dags programmatically with !dag, !range, !foreach, !con and !setdagname.
def ins;
def outs;
class RC;
def GPR : RC;
class Variadic<int n> {
  dag Ins = !dag(ins, !listsplat(GPR, n), !foreach(i, !range(n), "src" # i));
  dag WithImm = !con(Ins, (ins 0:$imm));
  dag Renamed = !setdagname(Ins, 0, "first");
  int Count = !size(Ins);
}
def V3 : Variadic<3>;
def V1 : Variadic<1>;
