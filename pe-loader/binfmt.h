/* ndrun --register / --unregister: a binfmt_misc entry that hands every
 * file starting with "MZ" to this ndrun, so `./app.exe args` runs it. */
#ifndef NDSHIM_BINFMT_H
#define NDSHIM_BINFMT_H

#define BINFMT_DIR "/proc/sys/fs/binfmt_misc"
#define BINFMT_DEFAULT_NAME "ndrun"

/* Both return an exit status for main (0, or 1 after a one-line
 * "ndrun: ..." message that says what to do). */
int binfmt_register(const char *name);
int binfmt_unregister(const char *name);

#endif
