/* The process as the program sees it: PEB, command line, exit. */
#ifndef NDSHIM_PROCESS_H
#define NDSHIM_PROCESS_H

/* Build the PEB and the Windows command line from the Linux arguments
 * (argv[0] is the program path).  0, or -1 when out of memory. */
int process_init(const char *exe_path, int argc, char **argv);

/* Quote one argument so that the Windows command-line parser gives it
 * back unchanged; appends to out (which holds at most outlen units) and
 * returns the units it needed. */
size_t process_quote_arg(const char *arg, char *out, size_t outlen);

#endif
