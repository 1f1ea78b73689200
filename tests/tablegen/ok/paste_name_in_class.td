// NAME inside a class refers to the name of the def being built.
class Named { string Self = NAME; string Upper = !toupper(NAME); string Tagged = NAME # "_tag"; }
def alpha : Named;
def beta : Named;
