// Pasting with # to build def names and strings from identifiers, strings and ints.
class C<string s> { string S = s; }
defvar prefix = "pre";
def prefix # _A : C<prefix # "A">;
def X # 1 # Y : C<"x1y">;
def "quoted" # Name : C<"q">;
def Z { string s = "a" # 3 # "b"; string t = 5 # "five"; }
