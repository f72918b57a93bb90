/* ndrun's own exit statuses.  A program's exit code passes through
 * unchanged (Linux keeps its low 8 bits); these are what ndrun returns
 * when the program could not run or stopped in ndrun's hands. */
#ifndef NDSHIM_EXIT_CODES_H
#define NDSHIM_EXIT_CODES_H

#define NDRUN_EXIT_CHECK_MISSING 1   /* --check: functions missing, but it loads */
#define NDRUN_EXIT_USAGE         2   /* bad command line */
#define NDRUN_EXIT_UNIMPLEMENTED 125 /* the program called a function ndrun lacks */
#define NDRUN_EXIT_BAD_IMAGE     126 /* not a file, not a PE, missing DLL, ... */

#endif
