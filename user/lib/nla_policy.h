/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The decoders' attribute policies (decode.c). Not installed; apart from
 * ibmcg_nl.h, so that the unit tests, which build messages with libnl,
 * can include ibmcg_priv.h without these names clashing with libnl's.
 */
#ifndef IBMCG_NLA_POLICY_H
#define IBMCG_NLA_POLICY_H

#include <stdint.h>
#include <linux/netlink.h>

/*
 * The attribute types of a decoding policy, and the policy: the names
 * the kernel's netlink code uses for the same things (include/net/
 * netlink.h). minlen, if not 0, replaces the type's own minimum length;
 * maxlen, if not 0, is the most a value may have.
 */
enum {
	NLA_UNSPEC,
	NLA_U8,
	NLA_U16,
	NLA_U32,
	NLA_U64,
	NLA_STRING,
	NLA_FLAG,
	NLA_MSECS,
	NLA_NESTED,
	NLA_TYPE_MAX = NLA_NESTED,
};

struct nla_policy {
	uint16_t type;
	uint16_t minlen;
	uint16_t maxlen;
};

/* The room an attribute of @payload bytes takes in a message. */
static inline int nla_total_size(int payload)
{
	return NLA_ALIGN(NLA_HDRLEN + payload);
}

#endif /* IBMCG_NLA_POLICY_H */
