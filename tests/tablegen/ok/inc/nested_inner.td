// Innermost included file.
class InnerClass<string s> { string S = s; }
