/* The user's ndshim data folder: where the drives (core/drives.h), the
 * Windows folders of the environment and the registry live.
 *
 *   $NDSHIM_DATA, else $XDG_DATA_HOME/ndshim, else $HOME/.local/share/ndshim
 *   (with HOME unset, the password entry's home; the registry's rule). */
#ifndef NDSHIM_DATADIR_H
#define NDSHIM_DATADIR_H

/* malloc'd; NULL when there is no home folder (or no memory). */
char *datadir_path(void);

/* mkdir -p with mode 0700 for what it creates; 0, or -1 with errno. */
int datadir_mkdirs(const char *path);

#endif
