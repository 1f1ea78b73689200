// A top-level statement begins with an identifier that is not a keyword.
define A { int x = 1; }
