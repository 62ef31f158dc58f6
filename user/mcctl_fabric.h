/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * mcctl fabric: the SA's multicast groups (MCMemberRecords), and how this
 * port's memberships there compare with what ib_mcgroups holds.
 *
 * Gathering (mcctl_fabric.c: netlink; mcctl_sa.c: the SA through umad)
 * fills plain arrays; fabric_groups() and fabric_classify() turn them into
 * the report without any I/O, so that the unit tests can feed them
 * made-up records.
 */
#ifndef MCCTL_FABRIC_H
#define MCCTL_FABRIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ibmcg.h"

/*
 * Exit status of a fabric report that found lost or stale memberships
 * (without --reconcile); 1 is an error, 2 a usage error. A reconcile that
 * carried out every action exits 0.
 */
#define EXIT_FABRIC_LOST	4	/* lost, no stale */
#define EXIT_FABRIC_STALE	5	/* stale, no lost */
#define EXIT_FABRIC_BOTH	6	/* lost and stale */

/* The multicast LID space, IBA 4.1: 0xC000..0xFFFE. */
#define FABRIC_MLID_FIRST	0xc000
#define FABRIC_MLID_SPACE	(0xfffe - 0xc000 + 1)

/* One MCMemberRecord of the SA's table, host byte order. */
struct fabric_rec {
	uint8_t mgid[IBMCG_GID_LEN];
	uint8_t port_gid[IBMCG_GID_LEN];	/* zero if untrusted */
	uint16_t mlid;
	uint16_t pkey;
	uint32_t qkey;
	uint8_t join_state;			/* zero if untrusted */
	bool proxy;
};

/* One group of the SA, aggregated from its records. */
struct fabric_group {
	uint8_t mgid[IBMCG_GID_LEN];
	uint16_t mlid;
	uint16_t pkey;
	unsigned int members;		/* records: ports (trusted table) */
	uint8_t join_state;		/* union of the members' */
};

/* A group ib_mcgroups holds on the port. */
struct fabric_held {
	uint8_t mgid[IBMCG_GID_LEN];
	uint8_t join_state;		/* union of the holders' */
	uint8_t state;			/* enum ib_mcg_state */
};

enum fabric_class {
	FABRIC_OK,	/* held here, and the port is a member at the SA */
	FABRIC_LOST,	/* held and joined here, no (or a partial) member at
			 * the SA: --reconcile re-joins it
			 */
	FABRIC_JOINING,	/* held, not joined yet (joining, retry-wait,
			 * detached): the module is on it
			 */
	FABRIC_STALE,	/* the port's GID is a member at the SA, nothing
			 * here holds it: --reconcile deletes the member
			 */
	FABRIC_KERNEL,	/* the same, but an IPoIB-format MGID (signature
			 * 0x401B/0x601B), which the kernel's own IPoIB or
			 * rdma_cm may hold: reported, never deleted
			 */
	FABRIC_NCLASS,
};

struct fabric_item {
	enum fabric_class cls;
	uint8_t mgid[IBMCG_GID_LEN];
	uint8_t held_js;		/* 0 if not held */
	uint8_t state;			/* ib_mcgroups state, 0 if not held */
	uint8_t sa_js;			/* the port's JoinState at the SA */
	bool at_sa;
	uint16_t mlid;			/* at the SA, 0 if absent */
	uint8_t sa_port_gid[IBMCG_GID_LEN];	/* the member's, as the SA
						 * has it (the Delete names it)
						 */
};

const char *fabric_class_name(enum fabric_class c);

/* Same port: the SA matches a member by its GUID, the low 8 bytes. */
bool fabric_same_port(const uint8_t a[IBMCG_GID_LEN],
		      const uint8_t b[IBMCG_GID_LEN]);
/* An MGID of the IPoIB mapping (RFC 4391/4392): signature 0x401B/0x601B. */
bool fabric_mgid_ipoib(const uint8_t mgid[IBMCG_GID_LEN]);

/*
 * The SA's groups, in the order first seen: every MGID of @grecs (an
 * untrusted GetTable: one record per group, a group without members
 * too) and of @mrecs (a trusted GetTable: one record per member; NULL
 * when untrusted), whose records count as members. *out is malloc'ed
 * (free()), NULL when there are none. Returns the number, -ENOMEM.
 */
long fabric_groups(const struct fabric_rec *grecs, size_t ng,
		   const struct fabric_rec *mrecs, size_t nm,
		   struct fabric_group **out);
/* Distinct MLIDs of the groups. */
size_t fabric_mlids_used(const struct fabric_group *g, size_t n);

/*
 * This port's memberships: every held group and every record with the
 * port's GID, one item each, held groups first (in their order), then
 * the records not held. *out is malloc'ed; returns the number, -ENOMEM.
 * counts (may be NULL) gets the number per class.
 */
long fabric_classify(const struct fabric_rec *recs, size_t nrecs,
		     const uint8_t port_gid[IBMCG_GID_LEN],
		     const struct fabric_held *held, size_t nheld,
		     struct fabric_item **out,
		     size_t counts[FABRIC_NCLASS]);
/* The exit status of a report with these counts (no reconcile). */
int fabric_exit_status(const size_t counts[FABRIC_NCLASS]);

/* mcctl_sa.c: the SA of a port, through its umad device. */
struct fabric_sa;
/* NULL with why (size whylen) filled if the port's SA cannot be reached. */
struct fabric_sa *fabric_sa_open(const char *dev, uint32_t port, char *why,
				 size_t whylen);
void fabric_sa_close(struct fabric_sa *sa);
/* The port's GID (subnet prefix and GUID) and its SM's LID. */
void fabric_sa_port(const struct fabric_sa *sa, uint8_t gid[IBMCG_GID_LEN],
		    uint16_t *sm_lid);
/*
 * SA answers: 0 with *status the MAD status (0 success), or -ETIMEDOUT
 * (no answer), or another -errno.
 * GetTable(MCMemberRecord), every record; smkey non-zero makes it a
 * trusted request (PortGID and JoinState are given only then). *recs is
 * malloc'ed.
 */
int fabric_sa_mcm_table(struct fabric_sa *sa, uint64_t smkey,
			struct fabric_rec **recs, size_t *n,
			uint16_t *status);
/* Delete(MCMemberRecord) of this port's membership: MGID, PortGID, JoinState. */
int fabric_sa_mcm_delete(struct fabric_sa *sa, const uint8_t mgid[IBMCG_GID_LEN],
			 const uint8_t port_gid[IBMCG_GID_LEN],
			 uint8_t join_state, uint16_t *status);
/*
 * The fabric's multicast forwarding capacity: the smallest
 * MulticastFDBCap of the SA's SwitchInfoRecords (entries from 0xC000).
 * 0 with *cap 0 when the SA has no such records.
 */
int fabric_sa_mfdb_cap(struct fabric_sa *sa, uint64_t smkey, uint32_t *cap,
		       uint16_t *status);

#endif /* MCCTL_FABRIC_H */
