// Recursive anonymous instantiation: a class whose field instantiates itself, with shared cached records.
class Fib<int n> {
  int V = !if(!lt(n, 2), n, !add(Fib<!sub(n, 1)>.V, Fib<!sub(n, 2)>.V));
}
def F6 : Fib<6>;
def Again { int v = Fib<4>.V; }
