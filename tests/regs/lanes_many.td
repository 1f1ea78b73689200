// Lane masks: many leaf indices (one bit each in index order) and composite indices covering several leaves.
let Namespace = "T" in {
  foreach i = 0-7 in def b#i : SubRegIndex<8, !mul(i, 8)>;
  def h0 : SubRegIndex<16>;
  def h1 : SubRegIndex<16, 16>;
  def h2 : SubRegIndex<16, 32>;
  def h3 : SubRegIndex<16, 48>;
  def w0 : SubRegIndex<32>;
  def w1 : SubRegIndex<32, 32>;
  foreach r = 0-1 in {
    foreach i = 0-7 in def B#r#i : Register<"b"#r#i>;
    foreach i = 0-3 in
      def H#r#i : RegisterWithSubRegs<"h"#r#i, [!cast<Register>("B"#r#!mul(i, 2)), !cast<Register>("B"#r#!add(!mul(i, 2), 1))]> {
        let SubRegIndices = [b0, b1];
        let CoveredBySubRegs = 1;
      }
    foreach i = 0-1 in
      def W#r#i : RegisterWithSubRegs<"w"#r#i, [!cast<Register>("H"#r#!mul(i, 2)), !cast<Register>("H"#r#!add(!mul(i, 2), 1))]> {
        let SubRegIndices = [h0, h1];
        let CoveredBySubRegs = 1;
      }
    def X#r : RegisterWithSubRegs<"x"#r, [!cast<Register>("W"#r#0), !cast<Register>("W"#r#1)]> {
      let SubRegIndices = [w0, w1];
      let CoveredBySubRegs = 1;
    }
  }
}
def G8 : RegisterClass<"T", [i8], 8, (add (sequence "B0%u", 0, 7), (sequence "B1%u", 0, 7))>;
def G16 : RegisterClass<"T", [i16], 16, (add (sequence "H0%u", 0, 3), (sequence "H1%u", 0, 3))>;
def G32 : RegisterClass<"T", [i32], 32, (add W00, W01, W10, W11)>;
def G64 : RegisterClass<"T", [i64], 64, (add X0, X1)>;
