// Intrinsics-style property lists: filtered with !filter, de-duplicated with !listremove, checked with !isa.
class Prop<string n> { string Name = n; }
class ArgProp<int idx, string n> : Prop<n> { int Index = idx; }
def NoMem : Prop<"nomem">;
def NoSync : Prop<"nosync">;
class NoCapture<int i> : ArgProp<i, "nocapture">;
class ReadOnly<int i> : ArgProp<i, "readonly">;
class Intr<list<Prop> props> {
  list<Prop> Props = props;
  list<Prop> ArgProps = !filter(p, props, !isa<ArgProp>(p));
  list<Prop> FnProps = !listremove(props, !filter(p, props, !isa<ArgProp>(p)));
  string Summary = !interleave(!foreach(p, props, p.Name), ",");
}
def int_memread : Intr<[NoSync, NoCapture<0>, ReadOnly<0>]>;
def int_pure : Intr<[NoMem, NoSync]>;
