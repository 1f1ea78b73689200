// A code fragment [{ is never closed with }].
def A { code c = [{ return 1; ; }
def B;
