// A def name computed with an int expression rather than a string.
def !add(1, 2);
