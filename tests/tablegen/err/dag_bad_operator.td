// A dag literal's operator is an undefined name.
def A { dag d = (nonexistent_op 1, 2); }
