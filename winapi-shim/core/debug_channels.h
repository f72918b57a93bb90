/* The debug channels NDSHIM_DEBUG can turn on, one line each: X(name).
 * NDSHIM_DEBUG=+loader,+imports turns on two; +all turns on every one. */
X(loader)
X(module)  /* GetProcAddress look-ups that return NULL (Wine's +module) */
X(imports)
X(tls)
X(thread)
X(heap)
X(virtual)
X(sync)
X(handle)
X(iocp)
X(file)
X(msvcrt)
X(seh)
X(winsock)
X(nd)
X(misc)
X(relay)   /* every call from PE code into a builtin: pe-loader/relay.h */
X(process)
X(nd2unix) /* read by nd2prov_unix.so itself: its error completions */
X(rpc)     /* rpcrt4: bindings and the calls routed to ndrun's servers */
X(pmi)     /* the PMI client MS-MPI ranks reach through rpcrt4 */
