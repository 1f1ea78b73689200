// #else appears without any open #ifdef.
def A;
#else
def B;
