// !con concatenates dags that share an operator, keeping argument names.
def ins;
def GPR;
def C {
  dag two = !con((ins GPR:$a), (ins GPR:$b));
  dag three = !con((ins GPR:$a), (ins), (ins 5:$imm, $n));
}
