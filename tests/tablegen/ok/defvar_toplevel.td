// Top-level defvar: values of several types, used in defs and in later defvars; not records themselves.
defvar width = 32;
defvar name = "reg" # width;
defvar lst = [1, 2, width];
defvar doubled = !mul(width, 2);
def D { int W = width; string N = name; list<int> L = lst; int Dbl = doubled; }
