// Bit lists gathered from several fields' bits, concatenated into larger encodings through lets.
class Fmt {
  bits<3> op = 0;
  bits<2> mode = 0;
  bits<3> reg = 0;
  bits<8> Byte = {op, mode, reg};
  bits<8> Swapped = {reg, mode{0}, mode{1}, op};
}
def A : Fmt { let op = 0b101; let mode = 0b10; let reg = 0b011; }
def B : Fmt { let op = 7; }
