// A string literal is not closed before the end of the line.
def A { string s = "never closed; }
def B;
