// A character that is not part of the language appears where a statement should start.
def A;
@ def B;
