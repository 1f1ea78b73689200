// deftype aliases a type name that does not exist.
deftype Alias = NoSuchClass;
def A { Alias a = ?; }
