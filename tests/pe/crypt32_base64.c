/* crypt32's CryptBinaryToString and CryptStringToBinary: Base64 with
 * CRLF, LF or no line breaks, 64 characters a line, the certificate
 * header lines, raw hexadecimal, the size protocol (query, too small,
 * written), and decoding with format detection (BASE64_ANY, ANY), the
 * skipped header, hex, and invalid input; A and W. */
#include <windows.h>
#include <wincrypt.h>

#include "test.h"

static void test_encode(void)
{
	BOOL ret;
	BYTE data[49];
	char buf[256];
	WCHAR wbuf[64];
	DWORD size;

	size = 0;
	ok(CryptBinaryToStringA((const BYTE *)"hello", 5, CRYPT_STRING_BASE64, NULL, &size) && size == 11,
	   "size query %lu\n", size);
	size = sizeof(buf);
	ok(CryptBinaryToStringA((const BYTE *)"hello", 5, CRYPT_STRING_BASE64, buf, &size), "BASE64\n");
	ok(!strcmp(buf, "aGVsbG8=\r\n") && size == 10, "[%s] %lu\n", buf, size);
	size = sizeof(buf);
	ok(CryptBinaryToStringA((const BYTE *)"hello", 5, CRYPT_STRING_BASE64 | CRYPT_STRING_NOCRLF, buf, &size) &&
		   !strcmp(buf, "aGVsbG8=") && size == 8,
	   "NOCRLF [%s]\n", buf);
	size = sizeof(buf);
	ok(CryptBinaryToStringA((const BYTE *)"hello", 5, CRYPT_STRING_BASE64 | CRYPT_STRING_NOCR, buf, &size) &&
		   !strcmp(buf, "aGVsbG8=\n"),
	   "NOCR [%s]\n", buf);
	size = 5;
	SetLastError(0);
	ok(!CryptBinaryToStringA((const BYTE *)"hello", 5, CRYPT_STRING_BASE64, buf, &size), "5 characters\n");
	ok(GetLastError() == ERROR_MORE_DATA, "too small: error %lu\n", GetLastError());

	/* 48 bytes are one line of 64 characters; 49 need a second. */
	for (int i = 0; i < 49; i++)
		data[i] = (BYTE)(i * 7);
	size = sizeof(buf);
	ok(CryptBinaryToStringA(data, 48, CRYPT_STRING_BASE64, buf, &size) && size == 66 && buf[64] == '\r',
	   "48 bytes: %lu\n", size);
	/* Windows breaks Base64 text into lines of 64 characters (as PEM
	 * does); Wine's CryptBinaryToString does not break the line. */
	size = sizeof(buf);
	ret = CryptBinaryToStringA(data, 49, CRYPT_STRING_BASE64, buf, &size);
	ok(ret, "49 bytes failed\n");
	ok_todo_wine(size == 66 + 6 && buf[64] == '\r' && !strcmp(buf + 66, "UA==\r\n"), "49 bytes: %lu [%s]\n", size,
		     buf + 66);

	size = sizeof(buf);
	ok(CryptBinaryToStringA((const BYTE *)"hi", 2, CRYPT_STRING_BASE64HEADER, buf, &size) &&
		   !strcmp(buf, "-----BEGIN CERTIFICATE-----\r\naGk=\r\n-----END CERTIFICATE-----\r\n"),
	   "BASE64HEADER [%s]\n", buf);

	size = sizeof(buf);
	ok(CryptBinaryToStringA((const BYTE *)"\x01\xab\xff", 3, CRYPT_STRING_HEXRAW | CRYPT_STRING_NOCRLF, buf, &size) &&
		   !strcmp(buf, "01abff"),
	   "HEXRAW [%s]\n", buf);

	size = 64;
	ok(CryptBinaryToStringW((const BYTE *)"hello", 5, CRYPT_STRING_BASE64, wbuf, &size) &&
		   !wcscmp(wbuf, L"aGVsbG8=\r\n") && size == 10,
	   "W [%ls]\n", wbuf);
}

static void test_decode(void)
{
	BOOL ret;
	static const char pem[] = "junk\r\n-----BEGIN CERTIFICATE-----\r\naGVs\r\nbG8=\r\n-----END CERTIFICATE-----\r\n";
	BYTE out[64];
	DWORD size, skip, flags;

	size = 0;
	ok(CryptStringToBinaryA("aGVsbG8=", 0, CRYPT_STRING_BASE64, NULL, &size, NULL, NULL) && size == 5,
	   "size query %lu\n", size);
	size = sizeof(out);
	ok(CryptStringToBinaryA("aGVs\r\nbG8=", 0, CRYPT_STRING_BASE64, out, &size, NULL, NULL) && size == 5 &&
		   !memcmp(out, "hello", 5),
	   "BASE64 with a line break\n");
	/* The docs: a buffer too small fails with ERROR_MORE_DATA; Wine
	 * answers otherwise. */
	size = 2;
	SetLastError(0);
	ret = CryptStringToBinaryA("aGVsbG8=", 0, CRYPT_STRING_BASE64, out, &size, NULL, NULL);
	ok_todo_wine(!ret && GetLastError() == ERROR_MORE_DATA, "2 bytes: %d %lu\n", ret, GetLastError());

	size = sizeof(out);
	skip = flags = 99;
	ok(CryptStringToBinaryA(pem, 0, CRYPT_STRING_BASE64HEADER, out, &size, &skip, &flags) && size == 5 &&
		   !memcmp(out, "hello", 5),
	   "BASE64HEADER\n");
	ok(skip == 6, "skipped %lu\n", skip);
	size = sizeof(out);
	flags = 99;
	ok(CryptStringToBinaryA(pem, 0, CRYPT_STRING_BASE64_ANY, out, &size, NULL, &flags) &&
		   flags == CRYPT_STRING_BASE64HEADER,
	   "BASE64_ANY found %lu\n", flags);
	size = sizeof(out);
	flags = 99;
	ok(CryptStringToBinaryA("aGk=", 0, CRYPT_STRING_BASE64_ANY, out, &size, NULL, &flags) &&
		   flags == CRYPT_STRING_BASE64 && size == 2,
	   "BASE64_ANY plain: %lu\n", flags);
	/* The docs: CRYPT_STRING_ANY tries the Base64 forms, then takes the
	 * bytes as they are; Wine does not. */
	size = sizeof(out);
	flags = 99;
	ret = CryptStringToBinaryA("not base64 !", 0, CRYPT_STRING_ANY, out, &size, NULL, &flags);
	ok_todo_wine(ret && flags == CRYPT_STRING_BINARY && size == 12, "ANY falls back to BINARY: %d %lu %lu\n", ret,
		     flags, size);

	size = sizeof(out);
	SetLastError(0);
	ok(!CryptStringToBinaryA("not base64 !", 0, CRYPT_STRING_BASE64, out, &size, NULL, NULL), "invalid Base64\n");
	ok(GetLastError() == ERROR_INVALID_DATA, "invalid: error %lu\n", GetLastError());

	/* Hexadecimal pairs with spaces between them (CRYPT_STRING_HEX);
	 * Wine 8 does not decode the hexadecimal formats. */
	size = sizeof(out);
	ret = CryptStringToBinaryA("68 65 6c", 0, CRYPT_STRING_HEX, out, &size, NULL, NULL);
	ok_todo_wine(ret && size == 3 && !memcmp(out, "hel", 3), "HEX\n");
	size = sizeof(out);
	ok(CryptStringToBinaryW(L"aGVsbG8=", 0, CRYPT_STRING_BASE64, out, &size, NULL, NULL) && size == 5 &&
		   !memcmp(out, "hello", 5),
	   "W\n");
	/* An explicit length stops early. */
	size = sizeof(out);
	ok(CryptStringToBinaryA("aGk=garbage", 4, CRYPT_STRING_BASE64, out, &size, NULL, NULL) && size == 2,
	   "length 4: %lu\n", size);
}

int main(void)
{
	test_encode();
	test_decode();
	return test_summary();
}
