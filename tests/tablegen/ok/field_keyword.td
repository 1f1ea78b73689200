// Fields declared with the 'field' keyword are listed in !fields.
class Instr {
  field bits<16> Inst;
  field int Size = 2;
  int NotAField = 0;
}
def I : Instr { let Inst = 0x1234; }
def J { field string Tag = "j"; }
