// string and code types; code values print like strings.
def SC {
  string s = "plain";
  code c = [{ some code }];
  code fromString = "a string into code";
  string fromCode = [{ code into a string }];
  string pasted = s # "!";
}
