// A defset's type is not a list of records.
defset int Bad = { def A; }
