// Block comments, including nested /* /* */ */ ones and ones spanning lines.
/* a simple block comment */
def A { int x = /* inline */ 3; }
/* outer /* inner */ still inside the outer comment
   def Hidden1;
*/
/* three /* levels /* deep */ here */ end */
def B { string s = "/* not a comment */"; }
/**/ def C;
