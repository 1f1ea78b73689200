// Strings and code fragments convert into each other in fields and arguments.
class Pred<code c> { code Cond = c; string AsString = c; }
def P1 : Pred<"x > 0">;
def P2 : Pred<[{ y < 1 }]>;
def Cat { string s = "pre" # [{post}]; }
