/* Built with -fomit-frame-pointer: these frames can only be unwound through their CFI. */
extern int lib_a_entry(int n);

__attribute__((noinline)) int lib_b_inner(int n) { return lib_a_entry(n + 1) + 3; }

__attribute__((noinline)) int lib_b_outer(int n) { return lib_b_inner(n * 2) + 5; }
