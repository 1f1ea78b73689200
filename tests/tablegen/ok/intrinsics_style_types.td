// Intrinsics-style: value-type records, overloaded signatures built with !listconcat and !foreach.
class ValueType<int size, string name> { int Size = size; string Name = name; }
def i8 : ValueType<8, "i8">;
def i16 : ValueType<16, "i16">;
def i32 : ValueType<32, "i32">;
def i64 : ValueType<64, "i64">;
class LLVMType<ValueType vt> { ValueType VT = vt; }
def llvm_i32_ty : LLVMType<i32>;
def llvm_i64_ty : LLVMType<i64>;
class IntrProperty;
def IntrNoMem : IntrProperty;
def IntrWillReturn : IntrProperty;
class Intrinsic<list<LLVMType> ret, list<LLVMType> params = [], list<IntrProperty> props = []> {
  string LLVMName = "llvm." # !subst("_", ".", !substr(NAME, 4));
  list<LLVMType> RetTypes = ret;
  list<LLVMType> ParamTypes = params;
  list<IntrProperty> IntrProperties = !listconcat(props, [IntrWillReturn]);
  int NumParams = !size(params);
}
def int_toy_add : Intrinsic<[llvm_i32_ty], [llvm_i32_ty, llvm_i32_ty], [IntrNoMem]>;
def int_toy_wide_mul : Intrinsic<[llvm_i64_ty], !listsplat(llvm_i32_ty, 2)>;
def Widths { list<int> all = !foreach(t, [i8, i16, i32, i64], t.Size); }
