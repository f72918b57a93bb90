/* Stand-in for the Windows SDK's coguid.h, which mingw-w64 lacks: the SDK's
 * ndutil includes it but uses nothing from it that guiddef.h does not give. */
#include <guiddef.h>
