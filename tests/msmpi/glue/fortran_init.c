/* MS-MPI's DllMain calls mpirinitf, a Fortran routine (fortran/setbotf.f)
 * that hands the addresses of the Fortran common blocks MPI_BOTTOM &c.
 * live in to mpirinitc/mpirinitc2.  This test build has no Fortran
 * compiler for the mingw target: the common blocks and the routine are
 * written here in C, with the layout mpif.h gives them (INTEGER is 4
 * bytes, MPI_STATUS_SIZE 5).  msmpi.def exports the blocks by name. */
typedef int fint;

struct { fint bottom, in_place, status_ignore[5]; } mpipriv1;
struct { fint statuses_ignore[5], errcodes_ignore[1]; } mpipriv2;
struct { fint unweighted; } mpifcmb5;
struct { fint weights_empty; } mpifcmb9;
struct { char argvs_null[1], argv_null[1]; } mpiprivc;

void __cdecl mpirinitc(void *bottom, void *in_place, void *status_ignore, void *statuses_ignore,
		       void *errcodes_ignore, void *unweighted, void *weights_empty,
		       void *argvs_null, fint argvs_null_len);
void __cdecl mpirinitc2(char *argv_null, fint argv_null_len);
void __cdecl mpirinitf(void);

void __cdecl mpirinitf(void)
{
	/* Fortran passes a CHARACTER argument's length after the others. */
	mpirinitc(&mpipriv1.bottom, &mpipriv1.in_place, mpipriv1.status_ignore,
		  mpipriv2.statuses_ignore, mpipriv2.errcodes_ignore, &mpifcmb5.unweighted,
		  &mpifcmb9.weights_empty, mpiprivc.argvs_null, 1);
	mpirinitc2(mpiprivc.argv_null, 1);
}
