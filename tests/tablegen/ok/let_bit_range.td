// let with bit ranges on a bits field: B{3-0} in bodies, single bits, and top-level let Inst<7-4>.
class Enc { bits<8> Inst = 0; }
def E1 : Enc { let Inst{3-0} = 0xA; }
def E2 : Enc { let Inst{7} = 1; let Inst{6-5} = 0b10; }
def E3 : Enc { let Inst{0-3} = 0b0011; }
let Inst<7-4> = 0xF in
def E4 : Enc;
