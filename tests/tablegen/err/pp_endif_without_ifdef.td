// #endif appears without any open #ifdef.
def A;
#endif
