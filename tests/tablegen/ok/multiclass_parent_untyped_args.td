// A multiclass's parent multiclass takes its arguments without a type check (ARM passes null_frag where SDNode and dag are declared).
class SDPatternOperator;
class SDNode : SDPatternOperator;
def null_frag : SDPatternOperator;
def add : SDNode;
def ops;
class I<SDPatternOperator op, dag d> { SDPatternOperator Op = op; dag D = d; }
multiclass Base<SDNode opnode, dag rhs> {
  def _a : I<opnode, rhs>;
}
multiclass Derived<bit frag> : Base<!if(frag, null_frag, add), (ops)>;
multiclass Direct : Base<null_frag, (ops)>;
defm X : Derived<0>;
defm Y : Derived<1>;
defm Z : Direct;
