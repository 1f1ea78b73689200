// String escapes: \n \t \\ \" \' and adjacent string literals joined together.
def Str {
  string nl = "line1\nline2";
  string tab = "a\tb";
  string bs = "back\\slash";
  string dq = "say \"hi\"";
  string sq = "it\'s";
  string joined = "abc" "def" "ghi";
  string empty = "";
}
