// deftype introduces a type alias usable in fields, template args and lists.
deftype Byte = bits<8>;
deftype Names = list<string>;
class Packet<Byte hdr> { Byte Header = hdr; Names Tags = ["a"]; }
def P : Packet<0x7E>;
