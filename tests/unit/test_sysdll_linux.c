/* The Linux-side readers of the system DLLs: iphlpapi's interface list
 * (loopback and its address, Windows interface names both ways, DNS
 * servers and default gateways from fake /etc and /proc trees) and
 * powrprof's processor entries from a fake sysfs cpu tree (with and
 * without cpufreq), pdh's samples of /proc/stat and /proc/meminfo, and
 * crypt32's certificate decoding from a PEM bundle. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "iphlpapi/ifaces.h"
#include "powrprof/powrprof_private.h"
#include "pdh/pdh_private.h"
#include "crypt32/cert.h"

static char root[256];

static void put(const char *path_in_root, const char *content)
{
	char path[512], *p;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, path_in_root);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = 0;
		mkdir(path, 0755);
		*p = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(content, f);
	fclose(f);
}

static int make_root(void **state)
{
	snprintf(root, sizeof(root), "/tmp/ndshim-sysdll-XXXXXX");
	assert_non_null(mkdtemp(root));
	return 0;
}

static int remove_root(void **state)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

static void test_loopback(void **state)
{
	struct ifc *list;
	int n = ifc_list("", &list), lo = -1;

	assert_true(n > 0);
	for (int i = 0; i < n; i++)
		if (!strcmp(list[i].name, "lo"))
			lo = i;
	assert_true(lo >= 0);
	assert_int_equal(list[lo].type, IFC_TYPE_LOOPBACK);
	assert_int_equal(list[lo].mac_len, 0);
	assert_true(list[lo].index > 0);
	bool found = false;
	for (unsigned int k = 0; k < list[lo].naddrs; k++)
		if (list[lo].addrs[k].family == 4 && !memcmp(list[lo].addrs[k].addr, "\x7f\0\0\1", 4)) {
			found = true;
			assert_int_equal(list[lo].addrs[k].prefix, 8);
		}
	assert_true(found);
	/* In index order. */
	for (int i = 1; i < n; i++)
		assert_true(list[i - 1].index < list[i].index);
	struct ifc_addr dest = { .family = 4, .addr = { 127, 0, 0, 1 } };
	assert_int_equal(ifc_best_index(&dest), list[lo].index);
	ifc_free(list, n);
}

static void test_names(void **state)
{
	char buf[64];
	unsigned int type, index;

	ifc_luid_name(IFC_TYPE_ETHERNET, 32768, buf, sizeof(buf));
	assert_string_equal(buf, "ethernet_32768");
	ifc_luid_name(IFC_TYPE_LOOPBACK, 1, buf, sizeof(buf));
	assert_string_equal(buf, "loopback_1");
	ifc_luid_name(IFC_TYPE_INFINIBAND, 4, buf, sizeof(buf));
	assert_string_equal(buf, "iftype199_4");
	assert_true(ifc_parse_luid_name("iftype199_4", &type, &index));
	assert_int_equal(type, IFC_TYPE_INFINIBAND);
	assert_int_equal(index, 4);
	assert_true(ifc_parse_luid_name("Wireless_7", &type, &index));
	assert_int_equal(type, IFC_TYPE_WIRELESS);
	assert_int_equal(index, 7);
	assert_false(ifc_parse_luid_name("ethernet_", &type, &index));
	assert_false(ifc_parse_luid_name("ethernet_x1", &type, &index));
	assert_false(ifc_parse_luid_name("eth0", &type, &index));
	assert_false(ifc_parse_luid_name("bogus_1", &type, &index));
}

static void test_dns(void **state)
{
	struct ifc_addr a[4];

	put("etc/resolv.conf", "# comment\nsearch example.org\nnameserver 10.1.2.3\n"
			       "nameserver fe80::1%eth0\nnameserver bogus\noptions ndots:1\n");
	assert_int_equal(ifc_dns_servers(root, a, 4), 2);
	assert_int_equal(a[0].family, 4);
	assert_memory_equal(a[0].addr, "\x0a\x01\x02\x03", 4);
	assert_int_equal(a[1].family, 6);
	assert_int_equal(a[1].addr[0], 0xfe);
	assert_int_equal(a[1].addr[15], 1);
	assert_int_equal(ifc_dns_servers(root, a, 1), 1);
}

/* The gateways come from sysroot's proc/net: lo gets an invented
 * default route there. */
static void test_gateways(void **state)
{
	struct ifc *list;
	int n, lo = -1;

	put("proc/net/route", "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"
			      "lo\t00000000\t0102000A\t0003\t0\t0\t0\t00000000\t0\t0\t0\n"
			      "lo\t0000000A\t00000000\t0001\t0\t0\t0\t000000FF\t0\t0\t0\n");
	put("proc/net/ipv6_route", "00000000000000000000000000000000 00 00000000000000000000000000000000 00 "
				   "fe800000000000000000000000000001 00000400 00000001 00000000 00000003 lo\n");
	n = ifc_list(root, &list);
	assert_true(n > 0);
	for (int i = 0; i < n; i++)
		if (!strcmp(list[i].name, "lo"))
			lo = i;
	assert_true(lo >= 0);
	assert_true(list[lo].has_gw4);
	assert_memory_equal(list[lo].gw4.addr, "\x0a\x00\x02\x01", 4);
	assert_true(list[lo].has_gw6);
	assert_int_equal(list[lo].gw6.addr[0], 0xfe);
	assert_int_equal(list[lo].gw6.addr[15], 1);
	/* No sysfs under root: the link facts are unknown, not invented. */
	assert_int_equal(list[lo].mtu, 0);
	ifc_free(list, n);
}

static void test_power(void **state)
{
	PROCESSOR_POWER_INFORMATION p;

	put("cpu/cpu0/cpufreq/cpuinfo_max_freq", "3600000\n");
	put("cpu/cpu0/cpufreq/scaling_cur_freq", "1200000\n");
	put("cpu/cpu0/cpufreq/scaling_max_freq", "3000000\n");
	put("cpu/cpu0/cpuidle/state0/name", "POLL\n");
	put("cpu/cpu0/cpuidle/state1/name", "C1\n");
	put("cpu/cpu0/cpuidle/state2/name", "C6\n");
	put("cpu/cpu1/online", "1\n");
	char cpu_root[300];
	snprintf(cpu_root, sizeof(cpu_root), "%s/cpu", root);
	powrprof_cpu_info(cpu_root, 0, 2000, &p);
	assert_int_equal(p.MaxMhz, 3600);
	assert_int_equal(p.CurrentMhz, 1200);
	assert_int_equal(p.MhzLimit, 3000);
	assert_int_equal(p.MaxIdleState, 2);
	assert_int_equal(p.CurrentIdleState, 0);
	/* Without cpufreq or cpuidle: /proc/cpuinfo's figure for all. */
	powrprof_cpu_info(cpu_root, 1, 2000, &p);
	assert_int_equal(p.MaxMhz, 2000);
	assert_int_equal(p.CurrentMhz, 2000);
	assert_int_equal(p.MhzLimit, 2000);
	assert_int_equal(p.MaxIdleState, 0);
}

static void test_pdh(void **state)
{
	struct pdh_sample x;

	put("proc/stat", "cpu  100 20 30 400 50 6 7 8 9 10\ncpu0 1 2 3 4 5 6 7 8 9 10\n");
	put("proc/meminfo", "MemTotal:       16000000 kB\nMemFree:  1000 kB\nMemAvailable:    8000000 kB\n");
	pdh_read_sample(root, PDH_KIND_CPU, -1, &x);
	assert_true(x.valid);
	/* user..steal; idle (400) and iowait (50) are not busy */
	assert_int_equal(x.total, 100 + 20 + 30 + 400 + 50 + 6 + 7 + 8);
	assert_int_equal(x.busy, 100 + 20 + 30 + 6 + 7 + 8);
	pdh_read_sample(root, PDH_KIND_CPU, 0, &x);
	assert_true(x.valid);
	assert_int_equal(x.total, 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8);
	assert_int_equal(x.busy, 1 + 2 + 3 + 6 + 7 + 8);
	pdh_read_sample(root, PDH_KIND_CPU, 1, &x);
	assert_false(x.valid);
	pdh_read_sample(root, PDH_KIND_MEM_AVAILABLE, -1, &x);
	assert_true(x.valid);
	assert_int_equal(x.value, 8000000ull * 1024);
	put("proc/meminfo", "MemTotal: 16 kB\n");
	pdh_read_sample(root, PDH_KIND_MEM_AVAILABLE, -1, &x);
	assert_false(x.valid);
}

/* Two certificates made for this test with openssl: "ndshim test CA"
 * (serial 01:02:03:04:05, valid 2026-11-28 08:39:24 to 2048-10-23
 * 08:39:24 UTC, extended key usage serverAuth and clientAuth) and
 * "ndshim no EKU" (serial 07, no extended key usage), with text around
 * them as in a bundle. */
static const char bundle[] = "# a comment line\n"
	"-----BEGIN CERTIFICATE-----\n"
	"MIIBlzCCAT2gAwIBAgIFAQIDBAUwCgYIKoZIzj0EAwIwGTEXMBUGA1UEAwwObmRz\n"
	"aGltIHRlc3QgQ0EwHhcNMjYxMTI4MDgzOTI0WhcNNDgxMDIzMDgzOTI0WjAZMRcw\n"
	"FQYDVQQDDA5uZHNoaW0gdGVzdCBDQTBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IA\n"
	"BIqqVk6jCUTdvE0hPoNA9K8U1HhBHHz3KYP0FeETF/11aFji2qLLfz6xnc6YZE88\n"
	"XdKHu1f82fRApeHEA+VG64ajcjBwMB0GA1UdDgQWBBRd7IC11lZCzKmsHUUZbNPP\n"
	"bk8/wjAfBgNVHSMEGDAWgBRd7IC11lZCzKmsHUUZbNPPbk8/wjAPBgNVHRMBAf8E\n"
	"BTADAQH/MB0GA1UdJQQWMBQGCCsGAQUFBwMBBggrBgEFBQcDAjAKBggqhkjOPQQD\n"
	"AgNIADBFAiBbOKZpl/9qu6n/vu+gxlwJ13bgkTC2KP/zPCGYX8TtNwIhAP3Gv726\n"
	"sSy+tM2W2Ysp+G5SRF50NcbvF1ZK5qBYWgHG\n"
	"-----END CERTIFICATE-----\n"
	"garbage between\n"
	"-----BEGIN CERTIFICATE-----\n"
	"MIIBcTCCARigAwIBAgIBBzAKBggqhkjOPQQDAjAYMRYwFAYDVQQDDA1uZHNoaW0g\n"
	"bm8gRUtVMB4XDTI2MTEyODA4MzkyMVoXDTM2MTEyNTA4MzkyMVowGDEWMBQGA1UE\n"
	"AwwNbmRzaGltIG5vIEVLVTBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABP+nWMNu\n"
	"pa9nKqseOzC5qC6hPl9GrzIzMmffr9AredDQsyr/sGxBUgxfGlvZnLbvr+npENcg\n"
	"Bm93/vOndt6Xfs+jUzBRMB0GA1UdDgQWBBSHdijIMLc14n5rHaEhxf2x9v+q5DAf\n"
	"BgNVHSMEGDAWgBSHdijIMLc14n5rHaEhxf2x9v+q5DAPBgNVHRMBAf8EBTADAQH/\n"
	"MAoGCCqGSM49BAMCA0cAMEQCIDyyT/8HyKzobULthrZBoYpqFNbeUkl0+kkbPHau\n"
	"6lkzAiBsOc9lLmXLPS/MvcUbNnVN+XI5T+RvHiWdsl/fTv61Rg==\n"
	"-----END CERTIFICATE-----\n"
	"-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n";

static void test_certs(void **state)
{
	struct cert **certs;
	unsigned int n = cert_read_pem(bundle, sizeof(bundle) - 1, &certs);
	const CERT_INFO *info;
	BYTE usage_buf[256];
	CERT_ENHKEY_USAGE *usage = (CERT_ENHKEY_USAGE *)usage_buf;
	DWORD size;
	FILETIME t;

	/* The third block is Base64 but not a certificate: skipped. */
	assert_int_equal(n, 2);
	info = certs[0]->ctx.pCertInfo;
	assert_int_equal(info->dwVersion, CERT_V3);
	assert_int_equal(info->SerialNumber.cbData, 5);
	assert_memory_equal(info->SerialNumber.pbData, "\x05\x04\x03\x02\x01", 5); /* little-endian */
	assert_string_equal(info->SignatureAlgorithm.pszObjId, "1.2.840.10045.4.3.2");
	assert_string_equal(info->SubjectPublicKeyInfo.Algorithm.pszObjId, "1.2.840.10045.2.1");
	assert_int_equal(info->SubjectPublicKeyInfo.PublicKey.cbData, 65);
	assert_int_equal(info->SubjectPublicKeyInfo.PublicKey.pbData[0], 0x04);
	assert_int_equal(((uint64_t)info->NotBefore.dwHighDateTime << 32 | info->NotBefore.dwLowDateTime),
			 0x1dd7f13f86d4600ull);
	assert_int_equal(((uint64_t)info->NotAfter.dwHighDateTime << 32 | info->NotAfter.dwLowDateTime),
			 0x1f60d81611d4600ull);
	assert_int_equal(info->Issuer.cbData, info->Subject.cbData);
	assert_memory_equal(info->Issuer.pbData, info->Subject.pbData, info->Subject.cbData);
	assert_int_equal(info->cExtension, 4);
	assert_string_equal(info->rgExtension[2].pszObjId, "2.5.29.19");
	assert_true(info->rgExtension[2].fCritical);
	assert_false(info->rgExtension[3].fCritical);

	t.dwHighDateTime = 0x1dd7f13;
	t.dwLowDateTime = 0;
	assert_int_equal(CertVerifyTimeValidity(&t, (CERT_INFO *)info), -1);
	t.dwHighDateTime = 0x1e00000;
	assert_int_equal(CertVerifyTimeValidity(&t, (CERT_INFO *)info), 0);
	t.dwHighDateTime = 0x1f70000;
	assert_int_equal(CertVerifyTimeValidity(&t, (CERT_INFO *)info), 1);

	size = 0;
	assert_true(CertGetEnhancedKeyUsage(&certs[0]->ctx, 0, NULL, &size));
	assert_true(size <= sizeof(usage_buf));
	DWORD small = size - 1;
	assert_false(CertGetEnhancedKeyUsage(&certs[0]->ctx, 0, usage, &small));
	assert_int_equal(GetLastError(), ERROR_MORE_DATA);
	assert_true(CertGetEnhancedKeyUsage(&certs[0]->ctx, 0, usage, &size));
	assert_int_equal(usage->cUsageIdentifier, 2);
	assert_string_equal(usage->rgpszUsageIdentifier[0], "1.3.6.1.5.5.7.3.1");
	assert_string_equal(usage->rgpszUsageIdentifier[1], "1.3.6.1.5.5.7.3.2");

	/* No extension: every use, said by CRYPT_E_NOT_FOUND. */
	size = sizeof(usage_buf);
	SetLastError(0);
	assert_true(CertGetEnhancedKeyUsage(&certs[1]->ctx, 0, usage, &size));
	assert_int_equal(usage->cUsageIdentifier, 0);
	assert_int_equal(GetLastError(), (DWORD)CRYPT_E_NOT_FOUND);
	assert_int_equal(certs[1]->ctx.pCertInfo->SerialNumber.pbData[0], 7);

	cert_free(certs[0]);
	cert_free(certs[1]);
	free(certs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_loopback),
		cmocka_unit_test(test_names),
		cmocka_unit_test_setup_teardown(test_dns, make_root, remove_root),
		cmocka_unit_test_setup_teardown(test_gateways, make_root, remove_root),
		cmocka_unit_test_setup_teardown(test_power, make_root, remove_root),
		cmocka_unit_test_setup_teardown(test_pdh, make_root, remove_root),
		cmocka_unit_test(test_certs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
