// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Unit tests of mcctl -V's report: mcctl's version, the module's, and the
 * warning when the module speaks another protocol.
 */
#include <stdlib.h>

#include "mcctl_version.h"
#include "ibmcg.h"
#include "ktap.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static char *out, *err;

/* print_version() into two strings; its return value. */
static int report(const char *modver, int proto)
{
	size_t olen, elen;
	FILE *o, *e;
	int ret;

	free(out);
	free(err);
	o = open_memstream(&out, &olen);
	e = open_memstream(&err, &elen);
	ret = print_version(o, e, modver, proto);
	fclose(o);
	fclose(e);
	return ret;
}

#define MCCTL_LINE	"mcctl " VERSION " (ib_mcgroups protocol 2)\n"

static void not_loaded(void)
{
	EXPECT(report(NULL, 0) == 0);
	EXPECT_STR(out, MCCTL_LINE "module ib_mcgroups not loaded\n");
	EXPECT_STR(err, "");
}

static void same_protocol(void)
{
	EXPECT(IB_MCG_GENL_VERSION == 2);
	EXPECT(report("0.2.0", 2) == 0);
	EXPECT_STR(out, MCCTL_LINE "module ib_mcgroups 0.2.0 (protocol 2)\n");
	EXPECT_STR(err, "");
}

static void older_module(void)
{
	EXPECT(report("0.1.0", 1) == 1);
	EXPECT_STR(out, MCCTL_LINE "module ib_mcgroups 0.1.0 (protocol 1)\n");
	EXPECT(!strncmp(err, "mcctl: warning: the module speaks protocol 1, mcctl 2: ", 55));
	EXPECT(strstr(err, "update the module") != NULL);
}

static void newer_module(void)
{
	EXPECT(report("9.0.0", 3) == 1);
	EXPECT_STR(out, MCCTL_LINE "module ib_mcgroups 9.0.0 (protocol 3)\n");
	EXPECT(strstr(err, "mcctl: warning: the module speaks protocol 3, mcctl 2") == err);
	EXPECT(strstr(err, "update mcctl") != NULL);
}

static void protocol_unknown(void)
{
	EXPECT(report("0.2.0", 0) == 0);
	EXPECT_STR(out, MCCTL_LINE "module ib_mcgroups 0.2.0 (protocol unknown)\n");
	EXPECT_STR(err, "");
}

static const struct ktap_case cases[] = {
	KTAP_CASE(not_loaded),
	KTAP_CASE(same_protocol),
	KTAP_CASE(older_module),
	KTAP_CASE(newer_module),
	KTAP_CASE(protocol_unknown),
};

int main(void)
{
	return ktap_run(cases, ARRAY_SIZE(cases));
}
