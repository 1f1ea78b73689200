// Code fragments combined with strings via # and !strconcat, selected with !if and !cond.
class Predicate<code cond> { code CondString = cond; }
def HasA : Predicate<[{ st.has_a() }]>;
def HasB : Predicate<[{ st.has_b() }]>;
class Both<Predicate x, Predicate y> : Predicate<!strconcat("(", x.CondString, ") && (", y.CondString, ")")>;
def HasAB : Both<HasA, HasB>;
class Pick<bit first> : Predicate<!if(first, HasA.CondString, [{ false }])>;
def P1 : Pick<true>;
def P0 : Pick<false>;
