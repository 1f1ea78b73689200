// Top-level if/then/else with constant conditions, with and without braces.
defvar enabled = 1;
if enabled then def IsOn;
if !not(enabled) then def IsOff;
if !eq(enabled, 0) then {
  def ZeroBranch;
} else {
  def ElseBranch;
}
