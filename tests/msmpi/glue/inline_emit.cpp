// MS-MPI declares a few __forceinline members in one header and defines
// them in another (comm.inl) that not every caller includes; MSVC emits an
// out-of-line copy anyway, clang only where the definition is seen and
// used.  Taking the address here, beside the definition, emits that copy.
#include "precomp.h"
#include "mpiimpl.h"
#include "comm.inl"

extern CollectiveSwitchover *(MPID_Comm::*const ndshim_msmpi_switch_points)() const;
CollectiveSwitchover *(MPID_Comm::*const ndshim_msmpi_switch_points)() const = &MPID_Comm::SwitchPoints;
