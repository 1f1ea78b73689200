// A 3-digit binary literal (bits<3>) initializes a bits<8> field of a class.
class C { bits<8> b = 0b101; }
