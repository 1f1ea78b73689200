// An included file that itself includes another file.
include "nested_outer.td"
def Mine : InnerClass<"mine">;
