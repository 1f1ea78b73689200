// include of a file found through -I; records from it carry its own location.
include "common.td"
def Local : Base<2> {let Origin = "local";}
