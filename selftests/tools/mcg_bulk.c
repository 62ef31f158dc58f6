// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Joins or leaves many groups quickly through libibmcg, for the failover
 * tests: mcg_bulk {join|leave} DEV PORT COUNT OWNER [FIRST]
 * acts on MGIDs ff12:401b:ffff::FIRST .. FIRST+COUNT-1 (FIRST default
 * 0x1000), creating them on join. Prints "joined N" or "left N"; exits 1
 * on the first failure, with the kernel's message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibmcg.h"

int main(int argc, char **argv)
{
	struct ibmcg_join_args args = { .create = true };
	unsigned long i, count, first = 0x1000;
	struct ibmcg *h;
	uint8_t mgid[16] = { 0xff, 0x12, 0x40, 0x1b, 0xff, 0xff };
	uint32_t port;
	bool join;
	int err;

	if (argc < 6 || (strcmp(argv[1], "join") && strcmp(argv[1], "leave"))) {
		fprintf(stderr,
			"usage: mcg_bulk {join|leave} DEV PORT COUNT OWNER [FIRST]\n");
		return 2;
	}
	join = !strcmp(argv[1], "join");
	port = strtoul(argv[3], NULL, 0);
	count = strtoul(argv[4], NULL, 0);
	args.owner = argv[5];
	if (argc > 6)
		first = strtoul(argv[6], NULL, 0);

	h = ibmcg_alloc();
	if (!h || ibmcg_connect(h)) {
		fprintf(stderr, "mcg_bulk: cannot talk to ib_mcgroups\n");
		return 1;
	}
	for (i = 0; i < count; i++) {
		unsigned long n = first + i;

		mgid[12] = n >> 24;
		mgid[13] = n >> 16;
		mgid[14] = n >> 8;
		mgid[15] = n;
		if (join)
			err = ibmcg_join(h, argv[2], port, mgid, &args, NULL);
		else
			err = ibmcg_leave(h, argv[2], port, mgid, args.owner, 0,
					  NULL);
		if (err) {
			fprintf(stderr, "mcg_bulk: group %lu: %s\n", i,
				ibmcg_strerror(h, err));
			ibmcg_close(h);
			return 1;
		}
	}
	printf("%s %lu\n", join ? "joined" : "left", count);
	ibmcg_close(h);
	return 0;
}
