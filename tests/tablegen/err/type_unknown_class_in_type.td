// A field is declared with a class type that does not exist.
def A { NoSuchType f = ?; }
