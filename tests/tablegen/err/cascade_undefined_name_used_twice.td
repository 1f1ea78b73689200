// One undefined name, used three times: reported at its first use.
def A { int x = missing_value; }
def B { int y = missing_value; }
def C { int z = !add(missing_value, 1); }
