// An #ifdef block is never closed with #endif.
#ifdef SOMETHING
def A;
