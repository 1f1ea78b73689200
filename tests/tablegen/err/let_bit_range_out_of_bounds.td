// A bit-range let names bits beyond the width of the field.
class Enc { bits<8> Inst = 0; }
def A : Enc { let Inst{9-8} = 0b11; }
