/* rpcrt4's UUID functions: UuidCreate (random, version 4, variant 10x),
 * the string forms both ways (lower case out, either case in, NULL as the
 * nil UUID, malformed strings refused), UuidCompare's order (field by
 * field, NULL as nil), UuidEqual, UuidIsNil, UuidCreateNil. */
#include <windows.h>
#include <rpc.h>

#include "test.h"

static UUID smpd = { 0x4fd29f8a, 0xd2e2, 0x485e, { 0x9e, 0xb9, 0xad, 0x66, 0x10, 0x7a, 0x5d, 0x06 } };

static void test_create(void)
{
	UUID a, b;

	ok(UuidCreate(&a) == RPC_S_OK, "UuidCreate failed\n");
	ok(UuidCreate(&b) == RPC_S_OK, "UuidCreate failed\n");
	ok(memcmp(&a, &b, sizeof(a)), "two UuidCreate gave the same UUID\n");
	ok((a.Data3 >> 12) == 4, "version %u, not 4\n", a.Data3 >> 12);
	ok((a.Data4[0] & 0xc0) == 0x80, "variant bits %#x\n", a.Data4[0] & 0xc0);
}

static void test_strings(void)
{
	RPC_WSTR ws = NULL;
	RPC_CSTR as = NULL;
	RPC_STATUS st;
	UUID u;

	ok(UuidFromStringW((RPC_WSTR)L"4FD29F8A-D2E2-485E-9EB9-AD66107A5D06", &u) == RPC_S_OK, "from upper case\n");
	ok(!memcmp(&u, &smpd, sizeof(u)), "wrong UUID parsed\n");
	ok(UuidFromStringA((RPC_CSTR) "4fd29f8a-d2e2-485e-9eb9-ad66107a5d06", &u) == RPC_S_OK, "from A\n");
	ok(!memcmp(&u, &smpd, sizeof(u)), "wrong UUID parsed (A)\n");
	ok(UuidToStringW(&smpd, &ws) == RPC_S_OK && ws, "UuidToStringW failed\n");
	ok(ws && !lstrcmpW((WCHAR *)ws, L"4fd29f8a-d2e2-485e-9eb9-ad66107a5d06"), "got %ls\n", ws ? (WCHAR *)ws : L"");
	/* Documented: the pointer is set to NULL; Wine leaves it. */
	ok(RpcStringFreeW(&ws) == RPC_S_OK, "RpcStringFreeW\n");
	ok_todo_wine(!ws, "RpcStringFreeW did not clear the pointer\n");
	ok(UuidToStringA(&smpd, &as) == RPC_S_OK && as, "UuidToStringA failed\n");
	ok(as && !strcmp((char *)as, "4fd29f8a-d2e2-485e-9eb9-ad66107a5d06"), "got %s\n", as ? (char *)as : "");
	ok(RpcStringFreeA(&as) == RPC_S_OK, "RpcStringFreeA\n");
	ok_todo_wine(!as, "RpcStringFreeA did not clear the pointer\n");
	memset(&u, 0x55, sizeof(u));
	ok(UuidFromStringW(NULL, &u) == RPC_S_OK, "NULL string\n");
	ok(UuidIsNil(&u, &st) && st == RPC_S_OK, "NULL string is not the nil UUID\n");
	ok(UuidFromStringW((RPC_WSTR)L"{4fd29f8a-d2e2-485e-9eb9-ad66107a5d06}", &u) == RPC_S_INVALID_STRING_UUID,
	   "braces accepted\n");
	ok(UuidFromStringW((RPC_WSTR)L"4fd29f8a-d2e2-485e-9eb9-ad66107a5d0", &u) == RPC_S_INVALID_STRING_UUID,
	   "short string accepted\n");
	ok(UuidFromStringW((RPC_WSTR)L"4fd29f8a-d2e2-485e-9eb9-ad66107a5d066", &u) == RPC_S_INVALID_STRING_UUID,
	   "long string accepted\n");
	ok(UuidFromStringA((RPC_CSTR) "4fd29f8a_d2e2-485e-9eb9-ad66107a5d06", &u) == RPC_S_INVALID_STRING_UUID,
	   "wrong separator accepted\n");
	ok(UuidFromStringA((RPC_CSTR) "4fd29f8g-d2e2-485e-9eb9-ad66107a5d06", &u) == RPC_S_INVALID_STRING_UUID,
	   "non-hex digit accepted\n");
}

static void test_compare(void)
{
	UUID a = smpd, b = smpd, nil;
	RPC_STATUS st = 123;

	ok(UuidCompare(&a, &b, &st) == 0 && st == RPC_S_OK, "equal UUIDs compare unequal\n");
	ok(UuidEqual(&a, &b, &st), "UuidEqual\n");
	b.Data1++;
	ok(UuidCompare(&a, &b, &st) == -1 && UuidCompare(&b, &a, &st) == 1, "Data1 order\n");
	b = smpd;
	b.Data3--;
	ok(UuidCompare(&a, &b, &st) == 1, "Data3 order\n");
	b = smpd;
	b.Data4[7] = 0xff;
	ok(UuidCompare(&a, &b, &st) == -1, "Data4 order\n");
	ok(UuidCreateNil(&nil) == RPC_S_OK && UuidIsNil(&nil, &st), "UuidCreateNil\n");
	ok(UuidCompare(NULL, &nil, &st) == 0 && UuidCompare(&a, NULL, &st) == 1 && UuidCompare(NULL, &a, &st) == -1,
	   "NULL is not compared as the nil UUID\n");
	ok(!UuidIsNil(&a, &st), "a UUID is nil\n");
}

int main(void)
{
	test_create();
	test_strings();
	test_compare();
	return test_summary();
}
