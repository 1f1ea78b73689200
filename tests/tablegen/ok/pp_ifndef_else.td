// Preprocessor: #ifndef with #else branches.
#define SEEN
#ifndef SEEN
def NotSeen;
#else
def Seen;
#endif
#ifndef NEVER
def NeverUndefined;
#else
def NeverDefined;
#endif
