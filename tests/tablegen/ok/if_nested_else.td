// Nested if statements with dangling else belonging to the innermost if.
defvar a = 1;
defvar b = 0;
if a then
  if b then def AB; else def AnotB;
if !not(a) then {
  def NotA;
} else {
  if b then def ElseB; else def ElseNotB;
}
