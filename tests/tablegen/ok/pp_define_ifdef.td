// Preprocessor: #define then #ifdef selects text; undefined macros skip text.
#define FEATURE_A
#ifdef FEATURE_A
def HasA;
#endif
#ifdef FEATURE_B
def HasB;
#endif
