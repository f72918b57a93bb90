/* dbghelp.dll for the calling process: symbols from the export tables
 * of its modules (and the exports of ndrun's builtin DLLs), and stack
 * walks by the x64 unwind data (.pdata), as crash handlers and runtimes
 * print backtraces; no PDB or DWARF reading, no other processes; see
 * docs/SYSTEM-DLLS.md. */
#ifndef NDSHIM_DBGHELP_PRIVATE_H
#define NDSHIM_DBGHELP_PRIVATE_H

#include <windef.h>
#include <winbase.h>
#include <winnt.h>
#include <winver.h> /* VS_FIXEDFILEINFO, which dbghelp.h uses */
#include <dbghelp.h>

#endif
