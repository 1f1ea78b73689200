// Registers found through the macro's include = [...] option.
def A0 : Register<"a0">;
def A1 : Register<"a1">;
