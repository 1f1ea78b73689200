// Multiple inheritance: later superclasses override fields of earlier ones; superclass order is kept.
class First { int X = 1; string From = "first"; }
class Second { int X = 2; int Y = 20; }
class Third { string From = "third"; }
def D1 : First, Second;
def D2 : Second, First;
def D3 : First, Second, Third;
