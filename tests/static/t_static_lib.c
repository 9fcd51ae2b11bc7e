/* A shared library's global and thread-local variables, reached only through the library (a
 * global the program named directly would be copy-relocated into the program, and symmetric). */
static long lib_global = 5;
static __thread long lib_tls;
long *t_static_lib_global_addr(void) { return &lib_global; }
long *t_static_lib_tls_addr(void) { return &lib_tls; }
