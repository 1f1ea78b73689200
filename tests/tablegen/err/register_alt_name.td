// A register class names a register by one of its alternative names.
class Register<string n, list<string> alt = []> { string AsmName = n; list<string> AltNames = alt; }
class RegisterClass<list<Register> regs> { list<Register> MemberList = regs; }
def X8 : Register<"x8", ["s0", "fp"]>;
def X9 : Register<"x9", ["s1"]>;
def GPR : RegisterClass<[X9, S0]>;
