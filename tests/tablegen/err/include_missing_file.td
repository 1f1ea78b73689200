// An include names a file that exists in no include directory.
include "does_not_exist.td"
def A;
