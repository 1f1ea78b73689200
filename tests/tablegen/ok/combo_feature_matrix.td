// Feature matrix: nested foreach with if/then, defvar and string pasting to make feature records.
class Feature<string n, list<Feature> implies = []> { string Name = n; list<Feature> Implies = implies; }
def FeatBase : Feature<"base">;
foreach ver = [1, 2, 3] in {
  defvar prev = !sub(ver, 1);
  if !eq(ver, 1) then
    def FeatV # ver : Feature<"v" # ver, [FeatBase]>;
  else
    def FeatV # ver : Feature<"v" # ver, [!cast<Feature>("FeatV" # prev)]>;
}
def Chain { list<string> ofV3 = !foreach(f, FeatV3.Implies, f.Name); }
