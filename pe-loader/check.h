/* ndrun --check PROGRAM.exe [DLL...]: list every DLL and function the
 * programs' import graphs need that ndrun lacks, without running them. */
#ifndef NDSHIM_CHECK_H
#define NDSHIM_CHECK_H

/* files[0] is the program (its folder is searched first), the others
 * more roots (DLLs it loads at run time).  Prints the report on stdout;
 * returns the exit status (exit_codes.h). */
int check_main(int nfiles, char **files);

#endif
