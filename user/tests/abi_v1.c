// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A binary of the LIBIBMCG_1 ABI (libibmcg 0.2.0): its calls bind to the
 * @LIBIBMCG_1 versions of the functions whose types changed, as those of
 * a program linked then do. Built by test_abi.sh against the shared
 * library; its undefined symbols and its results are checked there.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ibmcg_priv.h"
#include "compat_v1.h"

#define V1(ret, name, args)						\
	ret name##_old args;						\
	__asm__(".symver " #name "_old, " #name "@LIBIBMCG_1")

V1(int, ibmcg_join, (struct ibmcg *h, const char *dev, uint32_t port,
		     const uint8_t *mgid,
		     const struct ibmcg_join_args_v1 *args,
		     struct ibmcg_group_v1 *out));
V1(int, ibmcg_group_get, (struct ibmcg *h, const char *dev, uint32_t port,
			  const uint8_t *mgid, struct ibmcg_group_v1 *out));
V1(void, ibmcg_groups_free, (struct ibmcg_group_v1 *groups, size_t n));
V1(void, ibmcg_group_free, (struct ibmcg_group_v1 *g));
V1(int, ibmcg_event_recv, (struct ibmcg *h, ibmcg_event_cb_v1 cb,
			   void *arg));

int main(void)
{
	struct ibmcg_join_args_v1 a = { .owner = "job:1" };
	struct ibmcg_group_v1 g;
	uint8_t mgid[IBMCG_GID_LEN] = { 0xff, 0x12 };
	struct ibmcg *h = ibmcg_alloc();

	if (!h)
		return 1;
	memset(&g, 0x5a, sizeof(g));
	/* a 0.2.0 caller's arguments have no size: still accepted */
	printf("join_v1 %d\n", ibmcg_join_old(h, "simhca0", 1, mgid, &a, &g));
	printf("join_v1_out_cleared %d\n", !g.holders && !g.present);
	printf("get_v1 %d\n", ibmcg_group_get_old(h, "simhca0", 1, mgid, &g));
	printf("event_v1 %d\n", ibmcg_event_recv_old(h, NULL, NULL));
	ibmcg_group_free_old(&g);
	ibmcg_groups_free_old(NULL, 0);
	ibmcg_close(h);
	return 0;
}
