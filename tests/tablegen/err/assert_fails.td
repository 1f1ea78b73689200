// A top-level assert whose condition is false.
defvar width = 12;
assert !eq(!and(width, 7), 0), "width must be a multiple of 8, got " # width;
