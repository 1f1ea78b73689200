// Two defm instantiations produce the same def name.
multiclass M { def _x; }
defm A : M;
defm A : M;
