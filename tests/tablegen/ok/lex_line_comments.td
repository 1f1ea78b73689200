// Line comments: at line start, after code, and comment markers inside strings.
// A whole-line comment before anything else.
def A { // trailing comment after an opening brace
  string s = "// not a comment";   // but this one is
  int i = 1; // one
}
// def Hidden;
def B; // the last one
