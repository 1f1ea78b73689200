// An initializer refers to a name that is neither a field, argument, defvar nor def.
def A { int x = undefined_name; }
