// defvar defines the same name twice in one scope.
defvar v = 1;
defvar v = 2;
