// let inside a def body overrides inherited fields; the def's own let wins.
class Base<int a> { int A = a; int B = !mul(a, 2); }
def D : Base<5> { let A = 100; }
def E : Base<5> { let B = 7; let A = 1; }
