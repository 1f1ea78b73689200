// Implicit conversions between bit and int in both directions.
class Flag<bit f> { bit F = f; int AsInt = f; }
def T : Flag<1>;
def F : Flag<0>;
def FromInt { bit b = 1; int i = T.F; bit fromCompare = !gt(3, 2); }
