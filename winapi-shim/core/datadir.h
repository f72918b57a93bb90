/* The user's ndshim data folder: where the drives (core/drives.h), the
 * Windows folders of the environment and the registry live.
 *
 *   $NDSHIM_DATA, else $XDG_DATA_HOME/ndshim, else $HOME/.local/share/ndshim
 *   (/tmp/.local/share/ndshim without HOME). */
#ifndef NDSHIM_DATADIR_H
#define NDSHIM_DATADIR_H

/* malloc'd; NULL only when out of memory. */
char *datadir_path(void);

/* mkdir -p with mode 0700 for what it creates; 0, or -1 with errno. */
int datadir_mkdirs(const char *path);

#endif
