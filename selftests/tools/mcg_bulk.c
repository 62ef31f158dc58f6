// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Joins or leaves many groups quickly through libibmcg, for the failover
 * and bulk tests:
 *
 *   mcg_bulk {join|leave} DEV PORT COUNT OWNER [FIRST]
 *	acts on MGIDs ff12:401b:ffff::FIRST .. FIRST+COUNT-1 (FIRST default
 *	0x1000), creating them on join. Prints "joined N" or "left N".
 *   mcg_bulk owners DEV PORT COUNT PREFIX [FIRST]
 *	joins the one group ff12:401b:ffff::FIRST as the COUNT owners
 *	PREFIX0 .. PREFIX<COUNT-1>. Prints "joined N".
 *   mcg_bulk churn DEV PORT COUNT OWNER [FIRST [ROUNDS]]
 *	ROUNDS times (default 1000000) joins then leaves the COUNT groups
 *	from FIRST, to change groups while something else reads them.
 *   mcg_bulk rejoin DEV PORT COUNT - [FIRST]
 *	asks the module to re-join the COUNT groups from FIRST (REJOIN, as
 *	mcctl fabric --reconcile does); prints "rejoined N", or on the first
 *	refusal the kernel's message, as mcctl prints it.
 *   mcg_bulk abuse DEV PORT COUNT OWNER [FIRST [SECONDS]]
 *	what a hostile user without CAP_NET_ADMIN may do, for SECONDS
 *	(default 60): joins the COUNT groups from FIRST with bound holds,
 *	by MGID only (no create parameters), leaves the first half of them
 *	and closes the socket (the rest go with it), over and over; every
 *	error is ignored. Runs at nice 19. Prints "rounds N joins J".
 *   mcg_bulk hold DEV PORT COUNT OWNER [FIRST]
 *	joins the COUNT groups from FIRST with bound holds, prints
 *	"joined N" and waits to be killed (the holds go with its socket).
 *
 * MCG_BULK_JOIN_STATE in the environment (an IB_MCG_JOIN_* value, e.g. 8
 * for send-only full) sets the join state of joins (default: full).
 * MCG_BULK_SIGNATURE (16 bits) replaces the MGIDs' 0x401b, e.g. 0x1234
 * for groups OpenSM creates with any Q_Key (no IPoIB signature).
 * MCG_BULK_NOCREATE=1 joins without create parameters, as a user without
 * CAP_NET_ADMIN must (RoCE groups need none).
 *
 * Exits 1 on the first failure, with the kernel's message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ibmcg.h"

static unsigned long signature = 0x401b;

static void set_mgid(uint8_t mgid[16], unsigned long n)
{
	static const uint8_t base[16] = { 0xff, 0x12, 0x40, 0x1b, 0xff, 0xff };

	memcpy(mgid, base, 16);
	mgid[2] = signature >> 8;
	mgid[3] = signature;
	mgid[12] = n >> 24;
	mgid[13] = n >> 16;
	mgid[14] = n >> 8;
	mgid[15] = n;
}

/* mcg_bulk abuse: see the top of this file. */
static int do_abuse(const char *dev, uint32_t port, unsigned long count,
		    struct ibmcg_join_args *args, unsigned long first,
		    unsigned long seconds)
{
	unsigned long i, rounds = 0, joins = 0;
	time_t end = time(NULL) + seconds;
	uint8_t mgid[16];
	struct ibmcg *h;

	args->create = false;
	args->flags = IB_MCG_F_BOUND;
	/* the SA's share is measured, not the CPU's */
	if (nice(19) == -1)
		perror("mcg_bulk: nice");
	while (time(NULL) < end) {
		h = ibmcg_alloc();
		if (!h || ibmcg_connect(h)) {
			fprintf(stderr, "mcg_bulk: cannot talk to ib_mcgroups\n");
			return 1;
		}
		for (i = 0; i < count; i++) {
			set_mgid(mgid, first + i);
			if (!ibmcg_join(h, dev, port, mgid, args, NULL))
				joins++;
		}
		for (i = 0; i < count / 2; i++) {
			set_mgid(mgid, first + i);
			ibmcg_leave(h, dev, port, mgid, args->owner, 0, NULL);
		}
		ibmcg_close(h);
		rounds++;
	}
	printf("rounds %lu joins %lu\n", rounds, joins);
	return 0;
}

int main(int argc, char **argv)
{
	struct ibmcg_join_args args = { .size = sizeof(args), .create = true };
	unsigned long i, r, count, rounds = 1, first = 0x1000, bad = 0;
	bool join, owners = false, churn = false, hold = false, rejoin;
	bool abuse;
	char owner[IB_MCG_OWNER_MAX + 1];
	const char *mode = argc > 1 ? argv[1] : "";
	struct ibmcg *h;
	uint8_t mgid[16];
	uint32_t port;
	int err = 0;

	if (argc < 6 || (strcmp(mode, "join") && strcmp(mode, "leave") &&
			 strcmp(mode, "owners") && strcmp(mode, "churn") &&
			 strcmp(mode, "hold") && strcmp(mode, "rejoin") &&
			 strcmp(mode, "abuse"))) {
		fprintf(stderr,
			"usage: mcg_bulk {join|leave|owners|churn|hold|rejoin|abuse} DEV PORT COUNT OWNER [FIRST [ROUNDS]]\n");
		return 2;
	}
	join = strcmp(mode, "leave") != 0;
	owners = !strcmp(mode, "owners");
	churn = !strcmp(mode, "churn");
	hold = !strcmp(mode, "hold");
	rejoin = !strcmp(mode, "rejoin");
	abuse = !strcmp(mode, "abuse");
	if (hold)
		args.flags = IB_MCG_F_BOUND;
	if (getenv("MCG_BULK_NOCREATE"))
		args.create = false;
	port = strtoul(argv[3], NULL, 0);
	count = strtoul(argv[4], NULL, 0);
	args.owner = argv[5];
	if (argc > 6)
		first = strtoul(argv[6], NULL, 0);
	if (getenv("MCG_BULK_JOIN_STATE"))
		args.join_state = strtoul(getenv("MCG_BULK_JOIN_STATE"), NULL,
					  0);
	if (getenv("MCG_BULK_SIGNATURE"))
		signature = strtoul(getenv("MCG_BULK_SIGNATURE"), NULL, 0);
	if (churn)
		rounds = argc > 7 ? strtoul(argv[7], NULL, 0) : 1000000;
	if (abuse)
		return do_abuse(argv[2], port, count, &args, first,
				argc > 7 ? strtoul(argv[7], NULL, 0) : 60);

	h = ibmcg_alloc();
	if (!h || ibmcg_connect(h)) {
		fprintf(stderr, "mcg_bulk: cannot talk to ib_mcgroups\n");
		return 1;
	}
	for (r = 0; r < rounds && !err; r++) {
		for (i = 0; i < count && !err; i++) {
			set_mgid(mgid, owners ? first : first + i);
			if (owners) {
				snprintf(owner, sizeof(owner), "%s%lu", argv[5],
					 i);
				args.owner = owner;
			}
			if (rejoin)
				err = ibmcg_rejoin(h, argv[2], port, mgid,
						   NULL);
			else if (join)
				err = ibmcg_join(h, argv[2], port, mgid, &args,
						 NULL);
			else
				err = ibmcg_leave(h, argv[2], port, mgid,
						  args.owner, 0, NULL);
			bad = i;
		}
		for (i = 0; churn && i < count && !err; i++) {
			set_mgid(mgid, first + i);
			err = ibmcg_leave(h, argv[2], port, mgid, args.owner,
					  0, NULL);
			bad = i;
		}
	}
	if (err) {
		/* the index of the group that failed (the loops go on to 0) */
		fprintf(stderr, "mcg_bulk: group %lu: %s\n", bad,
			ibmcg_strerror(h, err));
		ibmcg_close(h);
		return 1;
	}
	printf("%s %lu\n", rejoin ? "rejoined" : join ? "joined" : "left",
	       count);
	fflush(stdout);
	while (hold)
		pause();
	ibmcg_close(h);
	return 0;
}
