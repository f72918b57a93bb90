/* Prototypes of vcruntime140_1.dll's exports. */
#ifndef NDSHIM_VCRUNTIME140_1_PRIVATE_H
#define NDSHIM_VCRUNTIME140_1_PRIVATE_H

#include "vcruntime140/vcruntime140_private.h"

EXCEPTION_DISPOSITION __cdecl vcrt___CxxFrameHandler4(EXCEPTION_RECORD *rec, void *frame, CONTEXT *ctx,
						      DISPATCHER_CONTEXT *disp);

#endif
