// !getdagarg<T> by index or by name and !getdagname by index.
def op;
class GPR;
def gpr : GPR;
def G {
  dag d = (op gpr:$dst, 7:$imm, "text");
  GPR byIndex = !getdagarg<GPR>(d, 0);
  int byName = !getdagarg<int>(d, "imm");
  string third = !getdagarg<string>(d, 2);
  string name0 = !getdagname(d, 0);
  string name1 = !getdagname(d, 1);
}
