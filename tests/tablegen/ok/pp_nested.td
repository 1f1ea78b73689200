// Preprocessor: nested conditionals, defines inside skipped and taken regions.
#define OUTER
#ifdef OUTER
  #define INNER
  #ifdef INNER
def BothDefined;
  #else
def OnlyOuter;
  #endif
#else
  #define SKIPPED
#endif
#ifdef SKIPPED
def Wrong;
#endif
#ifndef SKIPPED
def Right;
#endif
