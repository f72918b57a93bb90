/* Where ndrun's own files are, wherever ndrun itself is: beside the
 * executable in the build tree (build/ndrun, build/nd2prov.dll), and in
 * PREFIX/lib/ndshim/ when installed as PREFIX/bin/ndrun.  Nothing is
 * compiled in, so an installed tree can be moved as a whole. */
#ifndef NDSHIM_SELFPATH_H
#define NDSHIM_SELFPATH_H

/* The folder holding the running ndrun (from /proc/self/exe), malloc'ed;
 * NULL if it cannot be read. */
char *ndrun_exe_dir(void);

/* ndrun's file NAME: <exe dir>/NAME if it exists, else
 * <exe dir>/../lib/ndshim/NAME if that exists, else <exe dir>/NAME (so a
 * message names the build-tree place).  malloc'ed; NULL without memory or
 * /proc. */
char *ndrun_own_file(const char *name);

/* The same search for a lib folder that is already known (for tests). */
char *ndrun_own_file_in(const char *exe_dir, const char *name);

#endif
