// A string initializes a bits field in a class body.
class C { bits<8> b = "ab"; }
