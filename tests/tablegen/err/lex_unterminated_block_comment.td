// A block comment is opened and never closed.
def A;
/* this comment runs to the end of the file
def B;
