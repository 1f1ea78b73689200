// A register class names a register by its assembly name.
class Register<string n> { string AsmName = n; }
class RegisterClass<list<Register> regs> { list<Register> MemberList = regs; }
def W3 : Register<"w3">;
def CSR : RegisterClass<[w3]>;
