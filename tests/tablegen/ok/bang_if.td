// !if with int, string, list and record results, and nested !if.
class YN;
def yes : YN;
def no : YN;
class Sel<int n> {
  string Sign = !if(!lt(n, 0), "neg", !if(!eq(n, 0), "zero", "pos"));
  list<int> L = !if(!gt(n, 0), [n], []);
  YN Answer = !if(!ge(n, 0), yes, no);
}
def Neg : Sel<-2>;
def Zero : Sel<0>;
def Pos : Sel<5>;
def Plain { int I = !if(0, 1, 2); }
