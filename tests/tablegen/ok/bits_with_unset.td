// bits values with some bits unset (?), and lets that fill in only some of them.
def B1 { bits<4> b = {1, ?, 0, ?}; }
class Partial { bits<8> w = {?, ?, ?, ?, 1, 1, 1, 1}; }
def B2 : Partial { let w{7-6} = 0b01; }
def B3 { bits<4> allUnset; }
