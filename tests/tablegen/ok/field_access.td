// Field access .f on defs, on template arguments, on anonymous records and chained.
class Inner { int val = 3; string name = "inner"; }
def in0 : Inner;
class Outer { Inner i = in0; }
def out0 : Outer;
class Wrap<Outer o> { int V = o.i.val; }
def W : Wrap<out0>;
def Direct { int v = in0.val; string n = out0.i.name; int anon = Wrap<out0>.V; }
