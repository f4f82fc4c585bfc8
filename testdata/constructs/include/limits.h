// include/limits.h -- included from include/defs.h by a path relative to
// include/, not to the main file's directory.
#define BLOCK 256
#define NREGS 16
