// A class names an unknown parent; the defs that use its fields say nothing more.
class Instr : NoSuchBase { }
def ADD : Instr { let Size = 4; }
def SUB : Instr { let Size = 4; }
def MUL : Instr { let Size = 4; let Latency = 3; }
