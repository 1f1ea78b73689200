// RegisterTuples with four sub-registers, with asm names, and a class of the aligned ones picked by decimate.
let Namespace = "T" in {
  def qs0 : SubRegIndex<32>;
  def qs1 : SubRegIndex<32, 32>;
  def qs2 : SubRegIndex<32, 64>;
  def qs3 : SubRegIndex<32, 96>;
  foreach i = 0-7 in def V#i : Register<"v"#i>;
}
def VR : RegisterClass<"T", [f32], 32, (sequence "V%u", 0, 7)>;
def Quads : RegisterTuples<[qs0, qs1, qs2, qs3],
                           [(sequence "V%u", 0, 4), (sequence "V%u", 1, 5),
                            (sequence "V%u", 2, 6), (sequence "V%u", 3, 7)],
                           ["q0", "q1", "q2", "q3", "q4"]>;
def VQ : RegisterClass<"T", [v4f32], 128, (add Quads)>;
def VQA : RegisterClass<"T", [v4f32], 128, (decimate Quads, 4)>;
