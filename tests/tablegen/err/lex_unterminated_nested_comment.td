// A nested block comment closes the inner level only, leaving the outer one open.
def A;
/* outer /* inner */ the outer comment is still open
def B;
