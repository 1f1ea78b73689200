// An if statement's condition is a string, not a bit.
if "yes" then def A;
