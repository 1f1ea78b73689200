// !tolower and !toupper on mixed-case strings with digits and symbols.
def T {
  string low = !tolower("MiXeD_Case123");
  string up = !toupper("MiXeD_Case123");
  string nested = !toupper(!tolower("AbC"));
}
