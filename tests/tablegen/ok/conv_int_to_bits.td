// Implicit conversion int -> bits<n>, including negative values truncated to width.
class Enc<bits<6> op> { bits<6> Opcode = op; }
def E1 : Enc<5>;
def E2 : Enc<63>;
def Direct { bits<8> b = 200; bits<8> neg = -2; bits<3> fromHex = 0x7; }
