// A let spells a field the British way; the field is spelt the American way.
class Instruction { bit isReMaterializable = false; bit isAsCheapAsAMove = false; }
def MOVri : Instruction { let isReMaterialisable = true; }
