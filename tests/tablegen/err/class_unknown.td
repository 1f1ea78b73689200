// A def inherits from a class that was never declared.
def A : NoSuchClass;
