// Identifiers may start with digits when they contain a non-digit character.
def 1st;
def 2nd_rec { int 3x = 3; }
class 8bit { int 16wide = 16; }
def 32bits : 8bit { let 16wide = 32; }
def _under_score;
