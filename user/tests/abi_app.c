// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * An application of libibmcg as installed: built by test_abi.sh with
 * pkg-config's flags against <ibmcg/ibmcg.h> and the shared library.
 * Prints what the ABI rules promise, one "name value" line each.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <ibmcg/ibmcg.h>

int main(void)
{
	struct ibmcg_join_args a = IBMCG_JOIN_ARGS_INIT;
	struct ibmcg_join_args zero;
	uint8_t mgid[IBMCG_GID_LEN];
	struct ibmcg_group *g = (struct ibmcg_group *)1;
	struct ibmcg *h = ibmcg_alloc();

	if (!h)
		return 1;
	printf("version %s\n", ibmcg_version());
	printf("args_size %d\n", a.size == sizeof(a));
	if (ibmcg_mgid_parse("ff12:401b::1", mgid, NULL))
		return 1;
	a.owner = "job:1";
	memset(&zero, 0, sizeof(zero));
	zero.owner = "job:1";
	/* not connected: the arguments are checked first */
	printf("join_nosize %d\n", ibmcg_join(h, "simhca0", 1, mgid, &zero, &g));
	printf("join_nosize_out_null %d\n", g == NULL);
	printf("join_nosize_msg %d\n", !!ibmcg_errmsg(h));
	printf("join_unconnected %d\n", ibmcg_join(h, "simhca0", 1, mgid, &a, NULL));
	printf("has_null %d\n", ibmcg_group_has(NULL, IB_MCG_A_MLID));
	printf("holder_null %d\n", ibmcg_group_holder(NULL, 0) == NULL);
	ibmcg_groups_free(NULL);
	ibmcg_close(h);
	return 0;
}
