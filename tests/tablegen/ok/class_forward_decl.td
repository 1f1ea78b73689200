// A class declared without a body first and defined later; a class used as a field type before its body.
class Later;
class Holder { Later ref = ?; }
class Later { int n = 3; }
def H : Holder;
def L : Later;
