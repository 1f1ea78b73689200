// !con joins dags whose operators differ.
def ins;
def outs;
def A { dag d = !con((ins 1), (outs 2)); }
