// Preprocessor: text inside a false #ifdef is not parsed, even if it is not valid TableGen.
#ifdef NOT_DEFINED
this is not @ valid ) tablegen {
#endif
def AfterSkip { int x = 1; }
