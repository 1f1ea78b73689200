// Scheduling-model style: resources, per-instruction latency records, let-in overrides and list defaults.
class ProcResource<int units> { int NumUnits = units; }
def ALU : ProcResource<2>;
def MEM : ProcResource<1>;
class WriteRes<string w, list<ProcResource> res> {
  string Write = w;
  list<ProcResource> Resources = res;
  int Latency = 1;
  list<int> ResourceCycles = !listsplat(1, !size(res));
}
def : WriteRes<"WriteALU", [ALU]>;
let Latency = 4 in {
  def : WriteRes<"WriteLoad", [MEM, ALU]>;
  def WriteStore : WriteRes<"WriteStore", [MEM]> { let ResourceCycles = [2]; }
}
def SchedSummary { int TotalUnits = !foldl(0, [ALU, MEM], acc, r,
                                           !add(acc, r.NumUnits)); }
