// A string literal uses an escape sequence the lexer does not know.
def A { string s = "bad \q escape"; }
