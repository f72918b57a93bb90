/* mswsock.dll: its functions live in ws2_32/mswsock.c. */
#include "ws2_32/ws2_32_private.h"
#define BUILTIN_NAME mswsock
#define BUILTIN_SPEC "mswsock/mswsock.spec"
#include "builtin_table.h"
