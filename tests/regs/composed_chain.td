// Composed indices of composed indices over a four-level binary tree; other straddled compositions are inherited or synthesized.
let Namespace = "T" in {
  def sub_bl : SubRegIndex<8>;
  def sub_bh : SubRegIndex<8, 8>;
  def sub_hl : SubRegIndex<16>;
  def sub_hh : SubRegIndex<16, 16>;
  def sub_wl : SubRegIndex<32>;
  def sub_wh : SubRegIndex<32, 32>;
  def sub_hh_bh : ComposedSubRegIndex<sub_hh, sub_bh>;
  def sub_wh_hh : ComposedSubRegIndex<sub_wh, sub_hh>;
  def sub_wh_hh_bh : ComposedSubRegIndex<sub_wh_hh, sub_bh>;
  foreach i = 0-15 in def B#i : Register<"b"#i>;
  foreach i = 0-7 in
    def H#i : RegisterWithSubRegs<"h"#i, [!cast<Register>("B"#!mul(i, 2)), !cast<Register>("B"#!add(!mul(i, 2), 1))]> {
      let SubRegIndices = [sub_bl, sub_bh];
    }
  foreach i = 0-3 in
    def W#i : RegisterWithSubRegs<"w"#i, [!cast<Register>("H"#!mul(i, 2)), !cast<Register>("H"#!add(!mul(i, 2), 1))]> {
      let SubRegIndices = [sub_hl, sub_hh];
    }
  foreach i = 0-1 in
    def X#i : RegisterWithSubRegs<"x"#i, [!cast<Register>("W"#!mul(i, 2)), !cast<Register>("W"#!add(!mul(i, 2), 1))]> {
      let SubRegIndices = [sub_wl, sub_wh];
    }
}
def G8 : RegisterClass<"T", [i8], 8, (sequence "B%u", 0, 15)>;
def G16 : RegisterClass<"T", [i16], 16, (sequence "H%u", 0, 7)>;
def G32 : RegisterClass<"T", [i32], 32, (sequence "W%u", 0, 3)>;
def G64 : RegisterClass<"T", [i64], 64, (sequence "X%u", 0, 1)>;
