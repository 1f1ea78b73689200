// !foldl nesting a dag one level per element must stop at the value-depth limit, not overflow the stack (llvm-tblgen crashes here).
def ops;
def X { dag d = !foldl((ops), !range(100000), a, b, (ops a)); }
