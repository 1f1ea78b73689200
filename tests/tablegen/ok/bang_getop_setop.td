// The older spellings !getop and !setop behave like !getdagop and !setdagop.
class Op;
def mul : Op;
def div : Op;
def G {
  Op operator = !getop((mul 3, 4));
  dag replaced = !setop((mul 3, 4), div);
}
