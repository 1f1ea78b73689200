// isArtificial: phony high halves that exist only to give each register two units.
let Namespace = "T" in {
  def sub_16 : SubRegIndex<16>;
  def sub_16_hi : SubRegIndex<16, 16>;
  foreach i = 0-3 in {
    def H#i : Register<"h"#i>;
    def HH#i : Register<""> { let isArtificial = 1; }
    def W#i : RegisterWithSubRegs<"w"#i, [!cast<Register>("H"#i), !cast<Register>("HH"#i)]> {
      let SubRegIndices = [sub_16, sub_16_hi];
      let CoveredBySubRegs = 1;
    }
  }
}
def G16 : RegisterClass<"T", [i16], 16, (sequence "H%u", 0, 3)>;
def G32 : RegisterClass<"T", [i32], 32, (sequence "W%u", 0, 3)>;
def HIDDEN : RegisterClass<"T", [i16], 16, (sequence "HH%u", 0, 3)> { let isAllocatable = 0; }
