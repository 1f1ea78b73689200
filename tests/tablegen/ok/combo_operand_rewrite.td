// Rewriting operand dags: !subst on every argument via !foreach, then !con and !getdagarg.
class RC;
def GPR32 : RC;
def GPR64 : RC;
def ins;
class Widen<dag narrow> {
  dag Narrow = narrow;
  dag Wide = !foreach(a, narrow, !subst(GPR32, GPR64, a));
  dag WithFlags = !con(!foreach(a, narrow, !subst(GPR32, GPR64, a)), (ins 0:$flags));
  RC FirstWide = !getdagarg<RC>(!foreach(a, narrow, !subst(GPR32, GPR64, a)), 0);
}
def W : Widen<(ins GPR32:$a, GPR32:$b, GPR32:$c)>;
