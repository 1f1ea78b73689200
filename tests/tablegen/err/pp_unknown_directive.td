// An unknown preprocessor directive is used.
#include "common.td"
def A;
