/* Drive letters: a folder of symbolic links, as in Wine's dosdevices.
 *
 * $NDSHIM_DOSDEVICES, else <data folder>/dosdevices (core/datadir.h),
 * holds one link per drive, named "c:" ... "z:" (lower case), whose
 * target is the Linux folder that is the drive's root.  When that folder
 * does not exist (and NDSHIM_DOSDEVICES is not set) it is made with
 *     c: -> ../drive_c    the system drive (Windows, users, ProgramData)
 *     z: -> /             the whole Linux file system
 * The same folder may hold
 *     com1 ... com9, lpt1 ... lpt9, aux, prn -> the Linux device behind
 *         that DOS device (none by default: opening one fails);
 *     unc/<server>/<share> -> the Linux folder \\server\share names.
 * It is read once per process.  A link whose target is missing is no
 * drive.  When no drive can be read at all, C: and Z: are both the Linux
 * root (NDSHIM_DEBUG=file says why).  docs/paths.md describes it for users. */
#ifndef NDSHIM_DRIVES_H
#define NDSHIM_DRIVES_H

#include <windef.h>

/* The Linux folder of the drive (letter in either case), with no
 * trailing '/' except for "/" itself; NULL when there is no such drive. */
const char *drive_root(WCHAR letter);

/* Bit n set: drive 'A' + n exists (GetLogicalDrives). */
DWORD drive_mask(void);

/* The drive whose root holds the absolute Linux path abs: the longest
 * root that is a prefix of it at a component boundary (the lowest letter
 * among equals); 0 when none does.  *rest is what follows the root
 * ("" or starting with '/'). */
WCHAR drive_of_unix(const char *abs, const char **rest);

/* The Linux file of another dosdevices entry (a lower-case relative name
 * such as "com1" or "unc/server/share"), malloc'd; NULL when none. */
char *drive_device(const char *name);

/* The dosdevices folder in use (malloc'd; NULL when out of memory). */
char *drive_folder(void);

/* Reads the folder again (unit tests change NDSHIM_DOSDEVICES).  Not
 * safe while other threads map paths. */
void drives_reload(void);

#endif
