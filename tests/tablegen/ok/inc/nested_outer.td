// Includes another file from the same include directory.
include "nested_inner.td"
def OuterDef : InnerClass<"outer">;
