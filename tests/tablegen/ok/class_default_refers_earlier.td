// A template argument default may use earlier template arguments.
class Sized<int width, int bytes = !div(width, 8), string tag = "w" # width> {
  int Width = width;
  int Bytes = bytes;
  string Tag = tag;
}
def S32 : Sized<32>;
def S64 : Sized<64, 9>;
def S16 : Sized<16, 2, "half">;
