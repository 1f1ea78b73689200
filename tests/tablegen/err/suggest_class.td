// A def inherits from a misspelt class.
class Register<string n> { string AsmName = n; }
def R0 : Registr<"r0">;
