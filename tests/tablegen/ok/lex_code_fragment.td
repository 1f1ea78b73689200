// Code fragments [{ ... }] spanning lines and holding braces, brackets and quotes.
def Code {
  code one = [{ return 1; }];
  code multi = [{
    if (x) { y[0] = "}"; }
  }];
  code empty = [{}];
  string s = [{ code assigned to string }];
}
