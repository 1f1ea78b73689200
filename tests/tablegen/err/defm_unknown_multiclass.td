// defm names a multiclass that was never defined.
defm X : NoSuchMulticlass;
