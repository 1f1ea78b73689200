// A defm names a misspelt multiclass.
multiclass Arith { def _rr; def _ri; }
defm ADD : Arithh;
