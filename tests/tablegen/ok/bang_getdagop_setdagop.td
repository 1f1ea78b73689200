// !getdagop and !setdagop read and replace a dag's operator.
class Op;
def add : Op;
def sub : Op;
def G {
  dag d = (add 1, 2:$r);
  Op operator = !getdagop<Op>(d);
  dag swapped = !setdagop(d, sub);
  string opName = !cast<string>(!getdagop<Op>(d));
}
