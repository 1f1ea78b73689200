// A class declares two template arguments with the same name.
class C<int a, string a> { int A = 0; }
