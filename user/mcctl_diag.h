/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * mcctl diag: why does a port that joined a group receive nothing?
 *
 * Gathering (mcctl_diag.c: netlink, sysfs, procfs, the SA through umad in
 * mcctl_sa.c) fills one struct diag_facts per port; diag_evaluate() turns
 * the facts into the checklist without any I/O, so that the unit tests can
 * feed it made-up facts; print_diag_port() prints it, text or JSON.
 */
#ifndef MCCTL_DIAG_H
#define MCCTL_DIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ibmcg.h"

enum diag_res {
	DIAG_PASS,
	DIAG_WARN,	/* works, but worth a look */
	DIAG_SKIP,	/* not checked: detail says why */
	DIAG_FAIL,	/* broken: fix says what to do */
};

/*
 * The exit status of a diag that ran and found a check FAILed; 1 is a
 * diag that could not run (no such port, netlink error), 2 a usage error.
 */
#define EXIT_DIAG_FAIL	3

#define DIAG_TEXT	256
#define DIAG_MAX_CHECKS	10
#define DIAG_MAX_PKEYS	256

struct diag_result {
	const char *check;		/* "port", "sm", "hold", ... */
	enum diag_res res;
	char detail[DIAG_TEXT];
	char fix[DIAG_TEXT];		/* "" if none */
};

/* What the SA said about the group (InfiniBand). */
enum diag_sa {
	DIAG_SA_NOT_QUERIED,	/* sa_why says why */
	DIAG_SA_MEMBER,		/* the port's record: sa_rec */
	DIAG_SA_NOT_MEMBER,	/* the group exists, the port is no member */
	DIAG_SA_NO_GROUP,	/* no MCMemberRecord for the MGID */
	DIAG_SA_TIMEOUT,	/* no answer */
	DIAG_SA_ERROR,		/* MAD status sa_status, or sa_why */
};

struct diag_sa_rec {
	uint16_t mlid;
	uint32_t qkey;
	uint16_t pkey;
	uint8_t mtu;			/* enum ib_mtu, selector stripped */
	uint8_t rate;			/* enum ib_rate, selector stripped */
	uint8_t sl;
	uint8_t tclass;
	uint32_t flow_label;
	uint8_t join_state;
	bool join_state_known;		/* false: an untrusted request, the
					 * SA hides JoinState
					 */
	uint8_t port_gid[IBMCG_GID_LEN];
};

/* IGMP (IPv4 group) or MLD (IPv6) membership of the port's netdev. */
enum diag_mc {
	DIAG_MC_UNKNOWN,	/* mc_why says why */
	DIAG_MC_PRESENT,
	DIAG_MC_ABSENT,
	DIAG_MC_NO_NETDEV,	/* the netdev is not in our network namespace */
};

/* IPoIB on the port (InfiniBand), in our network namespace. */
enum diag_ipoib {
	DIAG_IPOIB_NONE,	/* no IPoIB interface wants the group */
	DIAG_IPOIB_BCAST,	/* the group is ipoib_dev's broadcast group */
	DIAG_IPOIB_MCAST,	/* ipoib_dev has it among its multicast addresses */
};

struct diag_facts {
	char dev[IBMCG_DEV_NAME_MAX];
	uint32_t port;
	uint8_t mgid[IBMCG_GID_LEN];

	/* sysfs (or PORT_GET) */
	uint8_t link_layer;		/* enum ib_mcg_link_layer */
	uint8_t port_state;		/* 1 DOWN .. 5 ACTIVE_DEFER, 0 unknown */
	bool have_lids;
	uint32_t lid, sm_lid;
	unsigned int port_rate;		/* tenths of Gb/s, 0 unknown */
	uint8_t port_mtu;		/* enum ib_mtu, 0 unknown */
	bool pkeys_known;
	size_t npkeys;
	uint16_t pkeys[DIAG_MAX_PKEYS];	/* non-zero entries, table order */
	uint16_t pkey_index[DIAG_MAX_PKEYS];
	char netdev[IBMCG_IFNAME_MAX];	/* RoCE, "" unknown */

	/* ib_mcgroups */
	bool module_loaded;
	bool port_known;		/* PORT_GET answered */
	uint32_t max_mcast_grp;
	uint32_t groups;
	const struct ibmcg_group *group;	/* NULL: not held */

	/* the SA */
	enum diag_sa sa;
	uint16_t sa_status;
	char sa_why[DIAG_TEXT / 2];
	struct diag_sa_rec sa_rec;

	/* IPoIB: its parameters are those of its broadcast group */
	enum diag_ipoib ipoib;
	char ipoib_dev[IBMCG_IFNAME_MAX];
	uint8_t ipoib_bcast[IBMCG_GID_LEN];	/* ipoib_dev's broadcast MGID */
	bool ipoib_rec_known;		/* ipoib_rec is the SA's record of it */
	struct diag_sa_rec ipoib_rec;
	char ipoib_why[DIAG_TEXT / 2];	/* why ipoib_rec is unknown */
	int ipoib_complete;		/* debugfs _mcg: 1 joined, 0 not,
					 * -1 unknown
					 */

	/* IGMP / MLD */
	enum diag_mc mc;
	unsigned int mc_users;
	char mc_why[DIAG_TEXT / 2];
};

/* The checklist of one port; returns the number of results. */
size_t diag_evaluate(const struct diag_facts *f, struct diag_result *r,
		     size_t max);
/* The worst result: FAIL > WARN > PASS; SKIP counts as PASS. */
enum diag_res diag_overall(const struct diag_result *r, size_t n);
const char *diag_res_name(enum diag_res res);
void print_diag_port(const struct diag_facts *f, const struct diag_result *r,
		     size_t n);

/*
 * Parsers of what the gathering reads, kept here to be testable.
 * diag_igmp_users(): users of the IPv4 group on dev in /proc/net/igmp text,
 * -1 if dev is not listed (another network namespace), 0 if not joined.
 * diag_igmp6_users(): the same for /proc/net/igmp6 and an IPv6 group;
 * -1 if dev has no entry at all (every up IPv6 device has ff02::1).
 */
int diag_igmp_users(FILE *fp, const char *dev, const uint8_t mgid[16]);
int diag_igmp6_users(FILE *fp, const char *dev, const uint8_t mgid[16]);
/*
 * IPoIB: diag_hwaddr_mgid() takes the MGID (the last 16 bytes) of a
 * 20-byte IPoIB hardware address as sysfs prints it (xx:xx:...), 0 or -1.
 * diag_dev_mcast_has(): 1 if dev has the MGID among its multicast
 * addresses in /proc/net/dev_mcast text (20 bytes, hex without colons),
 * 0 if not. diag_ipoib_mcg_complete(): IPoIB's debugfs <dev>_mcg text:
 * 1 if its join of the MGID completed, 0 if not, -1 if it is not listed.
 */
int diag_hwaddr_mgid(const char *s, uint8_t mgid[16]);
int diag_dev_mcast_has(FILE *fp, const char *dev, const uint8_t mgid[16]);
int diag_ipoib_mcg_complete(FILE *fp, const uint8_t mgid[16]);
/* sysfs "rate": "100 Gb/sec (4X EDR)" -> 1000 (tenths of Gb/s), 0 if not */
unsigned int diag_parse_rate(const char *s);
/* enum ib_mtu of a RoCE port on a netdev of this MTU, 0 if too small */
int diag_roce_mtu(unsigned int netdev_mtu);
/* tenths of Gb/s of an enum ib_rate, 0 if unknown */
unsigned int diag_ib_rate_tenths(uint8_t rate);

/* mcctl_sa.c: ask the SA for the MCMemberRecord; fills f->sa*. */
void diag_sa_query(struct diag_facts *f, const uint8_t port_gid[16]);

#endif /* MCCTL_DIAG_H */
