// Spill/reload templates per register class produced by a multiclass over classes and widths.
include "minireg.td"
include "miniinstr.td"
def frameindex;
def GPR : RC;
def FPR : RC { let Width = 64; }
class MemOp<string kind, RC rc> : Instr {
  let Size = !div(rc.Width, 8);
  let mayLoad = !eq(kind, "LD");
  let mayStore = !eq(kind, "ST");
  let InOperandList = !if(!eq(kind, "ST"), (ins rc:$src, frameindex:$slot), (ins frameindex:$slot));
  let OutOperandList = !if(!eq(kind, "LD"), (outs rc:$dst), (outs));
}
multiclass SpillReload<RC rc> {
  def _ST : MemOp<"ST", rc>;
  def _LD : MemOp<"LD", rc>;
}
foreach rc = ["GPR", "FPR"] in
  defm rc : SpillReload<!cast<RC>(rc)>;
