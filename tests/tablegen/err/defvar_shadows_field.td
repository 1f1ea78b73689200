// defvar in a record body uses the name of a field of that record.
class C { int n = 1; }
def A : C { defvar n = 2; }
