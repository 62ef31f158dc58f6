/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * libibmcg internals, shared by its .c files and the host unit tests.
 * Not installed.
 *
 * Symbols: a function or variable of the library is static, or public
 * (declared in ibmcg.h, listed in libibmcg.map), or internal and named
 * ibmcg__*: the library is built with -fvisibility=hidden, so internals
 * are hidden in libibmcg.so, and in libibmcg.a, which applications link
 * whole, they stay in the library's own namespace. tests/test_symbols.sh
 * checks it with nm and readelf.
 */
#ifndef IBMCG_PRIV_H
#define IBMCG_PRIV_H

#include "ibmcg_nl.h"

/* The private fields of struct ibmcg_group and ibmcg_port: "present", the
 * bitmap of the attributes received, and a group's array of holders.
 */
#define IBMCG_BUILDING_LIBRARY
#include "ibmcg.h"

#define IBMCG_ATTR_WORDS	IBMCG_ATTR_WORDS_

static inline void ibmcg_attr_set(uint64_t *present, unsigned int attr)
{
	present[attr / 64] |= 1ULL << (attr % 64);
}

static inline bool ibmcg_attr_test(const uint64_t *present, unsigned int attr)
{
	return attr / 64 < IBMCG_ATTR_WORDS &&
	       (present[attr / 64] & (1ULL << (attr % 64)));
}

#define IBMCG_ERRMSG_MAX	256
/* ibmcg__recv_replies(): the dump was interrupted by a concurrent change. */
#define IBMCG_DUMP_INTR		1

struct ibmcg {
	int fd;				/* requests; owns BOUND holds; or -1 */
	int ev_fd;			/* notifications, once subscribed */
	uint32_t portid;		/* fd's netlink port id */
	uint32_t seq;			/* the last request's sequence number */
	int family;			/* genl family id, -1 until connected */
	int version;			/* the kernel's IB_MCG_GENL_VERSION */
	int maxattr;			/* the family's CTRL_ATTR_MAXATTR */
	bool dump_intr;			/* the last dump was inconsistent */
	int events_grp;			/* "events" multicast group id */
	void *rxbuf;
	size_t rxcap;
	char errmsg[IBMCG_ERRMSG_MAX];
};

/* The reply to IB_MCG_CMD_OWNER_RELEASE. */
struct ibmcg_release_reply {
	char owner[IB_MCG_OWNER_MAX + 1];
	uint32_t holds_dropped;
	size_t n;
	struct ibmcg_released *released;	/* ibmcg_released_free() */
};

typedef int (*ibmcg_msg_cb)(const struct nlmsghdr *nlh, void *arg);

/* join_wait.c: the notifications of one group a JOIN waits for. */
struct ibmcg_join_watch {
	uint64_t id;			/* IB_MCG_A_GROUP_ID */
	uint64_t hold_id;		/* IB_MCG_HOLDER_A_ID, 0 if unknown */
	bool seen;			/* last is valid */
	struct ibmcg_group last;	/* its latest notification */
	bool refused;			/* the hold was refused: */
	uint8_t refused_reason;		/* its HOLDER_DEL_NTF's reason */
	uint32_t refused_error;		/* and error */
};

int ibmcg__msg_group_id(const struct nlmsghdr *nlh, uint64_t *id);
int ibmcg__msg_hold_id(const struct nlmsghdr *nlh, uint64_t *id);
unsigned int ibmcg__join_wait_ms(void);
long long ibmcg__now_ms(void);
/* A non-blocking socket subscribed to the events group, or -errno. */
int ibmcg__join_watch_open(struct ibmcg *h);
void ibmcg__join_watch_feed(struct ibmcg *h, struct ibmcg_join_watch *w,
			   void *buf, int len);
int ibmcg__join_watch_result(struct ibmcg *h, struct ibmcg_join_watch *w,
			    struct ibmcg_group *g);
int ibmcg__join_wait(struct ibmcg *h, int fd, uint64_t id, uint64_t hold_id,
		    struct ibmcg_group *g);

/*
 * The requests, on objects the caller provides (stack or arrays of the
 * library's own sizes): nl.c. The public functions (api.c) and those of
 * LIBIBMCG_1 (compat.c) wrap them. args is whole (size checked).
 */
int ibmcg__join_rec(struct ibmcg *h, const char *dev, uint32_t port,
		   const uint8_t mgid[IBMCG_GID_LEN],
		   const struct ibmcg_join_args *args, struct ibmcg_group *out);
int ibmcg__leave_rec(struct ibmcg *h, const char *dev, uint32_t port,
		    const uint8_t mgid[IBMCG_GID_LEN], const char *owner,
		    uint8_t join_state, struct ibmcg_group *out);
int ibmcg__owner_release_rec(struct ibmcg *h, const char *owner,
			    const char *dev, uint32_t port,
			    struct ibmcg_released **out, size_t *n,
			    uint32_t *holds_dropped);
int ibmcg__group_get_rec(struct ibmcg *h, const char *dev, uint32_t port,
			const uint8_t mgid[IBMCG_GID_LEN],
			struct ibmcg_group *out);
int ibmcg__rejoin_rec(struct ibmcg *h, const char *dev, uint32_t port,
		     const uint8_t mgid[IBMCG_GID_LEN], struct ibmcg_group *out);
int ibmcg__group_dump_rec(struct ibmcg *h, const char *dev, uint32_t port,
			 bool brief, struct ibmcg_group **groups, size_t *n);
int ibmcg__port_get_rec(struct ibmcg *h, const char *dev, uint32_t port,
		       struct ibmcg_port *out);
int ibmcg__port_dump_rec(struct ibmcg *h, const char *dev,
			struct ibmcg_port **ports, size_t *n);

/* decode.c */
void ibmcg__group_clear(struct ibmcg_group *g);	/* frees its holders */
int ibmcg__parse_group(const struct nlmsghdr *nlh, struct ibmcg_group *g);
int ibmcg__parse_port(const struct nlmsghdr *nlh, struct ibmcg_port *p);
int ibmcg__parse_owner_release(const struct nlmsghdr *nlh,
			      struct ibmcg_release_reply *r);
int ibmcg__merge_owner_release(struct ibmcg_release_reply *acc,
			      struct ibmcg_release_reply *part);
int ibmcg__parse_ack(struct ibmcg *h, const struct nlmsghdr *nlh);
const char *ibmcg__attr_name(unsigned int attr);

/* nl.c */
int ibmcg__set_errmsg(struct ibmcg *h, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
ssize_t ibmcg__recv_dgram(struct ibmcg *h, int fd, bool retry_eintr);
int ibmcg__recv_replies(struct ibmcg *h, int fd, uint32_t seq,
		       ibmcg_msg_cb cb, void *arg);
int ibmcg__parse_events(struct ibmcg *h, void *buf, int len,
		       ibmcg_event_cb cb, void *arg);

#endif /* IBMCG_PRIV_H */
