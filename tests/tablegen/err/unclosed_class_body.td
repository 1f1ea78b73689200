// A class body is never closed: the parser gives up at the next def.
class C {
  int v = 0;

def A : C;
def B : C;
