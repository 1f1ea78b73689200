// defm inheriting from several multiclasses and then from extra classes applied to every def.
class Base { int A = 0; }
class Extra { string Tag = "extra"; }
class Extra2<int b> { int B = b; }
multiclass M1 { def _one : Base; }
multiclass M2<int x> { def _two : Base { let A = x; } }
defm D : M1, M2<5>, Extra, Extra2<9>;
