#include "bcrypt/bcrypt_private.h"
#define BUILTIN_NAME bcrypt
#define BUILTIN_SPEC "bcrypt/bcrypt.spec"
#include "builtin_table.h"
