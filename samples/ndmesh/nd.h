/* ndmesh's NetworkDirect part (ndmesh/nd.c): every pair of ranks, on one
 * host or several, connects over ND2 and exchanges a checksum. */
#ifndef NDMESH_NDMESH_ND_H
#define NDMESH_NDMESH_ND_H

#include <winsock2.h>
#include <windows.h>

/* Rank g of total (its listener on ip_of(g):port + g) connects to every
 * lower rank, accepts every higher one, sends each peer (g, sum_of(g))
 * and checks what each sends back against sum_of(peer).  0, or the step
 * that failed (a message on stderr says why). */
int nd_mesh(unsigned int g, unsigned int total, const char *(*ip_of)(unsigned int rank), USHORT port,
	    ULONGLONG (*sum_of)(unsigned int rank));

#endif
