// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcctl diag: the checklist from collected facts, its output, and the
 * parsers of /proc/net/igmp{,6} and sysfs; no other I/O. See mcctl_diag.h.
 */
#include <arpa/inet.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "json_print.h"
#include "mcctl_args.h"
#include "mcctl_diag.h"

#define PORT_ACTIVE	4
#define RECEIVING	(IB_MCG_JOIN_FULL | IB_MCG_JOIN_NON_MEMBER)

static const char *const port_state_names[] = {
	"unknown", "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER",
};

static const char * const res_names[] = {
	[DIAG_PASS] = "PASS", [DIAG_WARN] = "WARN",
	[DIAG_SKIP] = "SKIP", [DIAG_FAIL] = "FAIL",
};

const char *diag_res_name(enum diag_res res)
{
	return res <= DIAG_FAIL ? res_names[res] : "?";
}

struct ctx {
	const struct diag_facts *f;
	struct diag_result *r;
	size_t n, max;
	char group[IBMCG_MGID_STRLEN];
	char devport[IBMCG_DEV_NAME_MAX + 12];
};

static struct diag_result *add(struct ctx *c, const char *check,
			       enum diag_res res, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static struct diag_result *add(struct ctx *c, const char *check,
			       enum diag_res res, const char *fmt, ...)
{
	static struct diag_result dummy;
	struct diag_result *r;
	va_list ap;

	r = c->n < c->max ? &c->r[c->n++] : &dummy;
	memset(r, 0, sizeof(*r));
	r->check = check;
	r->res = res;
	va_start(ap, fmt);
	vsnprintf(r->detail, sizeof(r->detail), fmt, ap);
	va_end(ap);
	return r;
}

static void fix(struct diag_result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void fix(struct diag_result *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->fix, sizeof(r->fix), fmt, ap);
	va_end(ap);
}

static void append(struct diag_result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void append(struct diag_result *r, const char *fmt, ...)
{
	size_t len = strlen(r->detail);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->detail + len, sizeof(r->detail) - len, fmt, ap);
	va_end(ap);
}

static void append_fix(struct diag_result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void append_fix(struct diag_result *r, const char *fmt, ...)
{
	size_t len = strlen(r->fix);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->fix + len, sizeof(r->fix) - len, fmt, ap);
	va_end(ap);
}

static bool is_ib(const struct diag_facts *f)
{
	return f->link_layer == IB_MCG_LINK_LAYER_INFINIBAND;
}

static bool is_roce(const struct diag_facts *f)
{
	return f->link_layer == IB_MCG_LINK_LAYER_ETHERNET;
}

static bool port_active(const struct diag_facts *f)
{
	return f->port_state == PORT_ACTIVE;
}

static const char *ll_name(uint8_t ll)
{
	const char *s = ibmcg_link_layer_name(ll);

	if (ll == IB_MCG_LINK_LAYER_INFINIBAND)
		return "InfiniBand";
	if (ll == IB_MCG_LINK_LAYER_ETHERNET)
		return "Ethernet";
	return s ? s : "unknown";
}

static void check_port(struct ctx *c)
{
	const struct diag_facts *f = c->f;
	const char *st = f->port_state < 6 ? port_state_names[f->port_state] :
					     "unknown";
	struct diag_result *r;

	if (port_active(f)) {
		r = add(c, "port", DIAG_PASS, "ACTIVE, link layer %s",
			ll_name(f->link_layer));
		if (is_roce(f) && f->netdev[0])
			snprintf(r->detail + strlen(r->detail),
				 sizeof(r->detail) - strlen(r->detail),
				 ", netdev %s", f->netdev);
		return;
	}
	if (!f->port_state) {
		add(c, "port", DIAG_WARN, "state unknown, link layer %s",
		    ll_name(f->link_layer));
		return;
	}
	r = add(c, "port", DIAG_FAIL, "state %s, link layer %s", st,
		ll_name(f->link_layer));
	if (is_roce(f))
		fix(r, "bring the network device up: ip link set %s up, and check its carrier (cable, switch port)",
		    f->netdev[0] ? f->netdev : "NETDEV");
	else if (f->port_state == 1)
		fix(r, "the physical link is down: check the cable and the switch port (ibstat %s %u)",
		    f->dev, f->port);
	else
		fix(r, "the subnet manager has not activated the port: start or check the SM (opensm; sminfo)");
}

static void check_sm(struct ctx *c)
{
	const struct diag_facts *f = c->f;
	struct diag_result *r;

	if (!f->have_lids) {
		add(c, "sm", DIAG_SKIP, "LIDs of the port unknown");
		return;
	}
	if (!f->sm_lid || !f->lid) {
		r = add(c, "sm", DIAG_FAIL, "%s is 0: no subnet manager has configured the port",
			!f->sm_lid ? "SM LID" : "port LID");
		fix(r, "run a subnet manager on the fabric (opensm) and check it with sminfo");
		return;
	}
	add(c, "sm", DIAG_PASS, "LID %u, SM LID %u", f->lid, f->sm_lid);
}

static void holders_text(const struct ibmcg_group *g, char *buf, size_t len)
{
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < g->nholders && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s", i ? ", " : "",
				ibmcg_group_holder(g, i)->owner);
	if (off >= len && len > 4)
		strcpy(buf + len - 4, "...");
}

static const char *reason_fix(const struct diag_facts *f, uint8_t reason)
{
	switch (reason) {
	case IB_MCG_REASON_TIMEOUT:
		return "the SA does not answer: check the subnet manager (sminfo) and the port's SM LID; ib_mcgroups retries by itself";
	case IB_MCG_REASON_SA_REJECTED:
		return "the SA refuses the join: the group may not exist (a join without create parameters does not create it) or its parameters differ; see sa_record";
	case IB_MCG_REASON_PORT_DOWN:
		return "bring the port to ACTIVE (see port); the group is joined when it is";
	case IB_MCG_REASON_PKEY_MISSING:
		return "add the group's P_Key to the port's partitions in the subnet manager (see pkey); the group is joined when it appears";
	case IB_MCG_REASON_NET_RESET:
		return "re-joining after an SM reregister; if it lasts, check the SM and mcctl stats (rejoin_pending, sa_timeouts)";
	case IB_MCG_REASON_NETDEV_DOWN:
		return "the port's network device is gone: bring it back (the group is re-attached when it returns)";
	default:
		return is_roce(f) ?
		       "see the error; leave the group and join it again" :
		       "see the error; leave the group and join it again, and check the SM";
	}
}

static void check_hold(struct ctx *c)
{
	const struct diag_facts *f = c->f;
	const struct ibmcg_group *g = f->group;
	char js[IBMCG_JOIN_STATE_STRLEN], who[96];
	const char *st, *why;
	struct diag_result *r;

	if (!f->module_loaded) {
		r = add(c, "hold", DIAG_FAIL, "the ib_mcgroups module is not loaded");
		fix(r, "modprobe ib_mcgroups; mcctl join %s %s owner NAME",
		    c->devport, c->group);
		return;
	}
	if (!g) {
		r = add(c, "hold", DIAG_FAIL, "%s is not held by ib_mcgroups on %s",
			c->group, c->devport);
		fix(r, "mcctl join %s %s owner NAME (joins by applications through rdma_cm are not shown here)",
		    c->devport, c->group);
		return;
	}
	ibmcg_join_state_format(g->join_state, js, sizeof(js));
	holders_text(g, who, sizeof(who));
	st = ibmcg_state_name(g->state);
	why = ibmcg_reason_name(g->reason);
	switch (g->state) {
	case IB_MCG_STATE_JOINED:
		if (!(g->join_state & RECEIVING)) {
			r = add(c, "hold", DIAG_FAIL,
				"joined %s only: a send-only member receives nothing (holders %s)",
				js, who);
			fix(r, "mcctl join %s %s owner NAME state full (or nonmember)",
			    c->devport, c->group);
			return;
		}
		add(c, "hold", DIAG_PASS, "joined, join_state %s, %zu holder(s): %s",
		    js, g->nholders, who);
		return;
	case IB_MCG_STATE_LINGERING:
		r = add(c, "hold", DIAG_WARN,
			"lingering without holders, released in %u ms",
			g->linger_left_ms);
		fix(r, "mcctl join %s %s owner NAME to keep it", c->devport,
		    c->group);
		return;
	case IB_MCG_STATE_JOINING:
		r = add(c, "hold", DIAG_WARN, "joining: the request is in flight");
		fix(r, "wait for the SA's answer and run mcctl diag again");
		return;
	default:
		break;
	}
	r = add(c, "hold", DIAG_FAIL, "state %s, reason %s", st ? st : "unknown",
		why ? why : "unknown");
	if (g->error)
		snprintf(r->detail + strlen(r->detail),
			 sizeof(r->detail) - strlen(r->detail),
			 ", error %u (%s)", g->error, strerror(g->error));
	snprintf(r->detail + strlen(r->detail),
		 sizeof(r->detail) - strlen(r->detail), "; holders %s", who);
	if (!port_active(f) && f->port_state)
		fix(r, "bring the port to ACTIVE first (see port); the group is joined when it is");
	else
		fix(r, "%s", reason_fix(f, g->reason));
}

/* The group's P_Key: the SA's record, else the one the hold was joined with. */
static bool group_pkey(const struct diag_facts *f, uint16_t *pkey)
{
	if (f->sa == DIAG_SA_MEMBER) {
		*pkey = f->sa_rec.pkey;
		return true;
	}
	if (f->group && IBMCG_HAS(f->group, IB_MCG_A_PKEY)) {
		*pkey = f->group->pkey;
		return true;
	}
	return false;
}

/* The result of the P_Key check, which the SA check needs to know. */
static enum diag_res check_pkey(struct ctx *c)
{
	const struct diag_facts *f = c->f;
	bool missing_reason = f->group && f->group->state != IB_MCG_STATE_JOINED &&
			      f->group->reason == IB_MCG_REASON_PKEY_MISSING;
	int full = -1, limited = -1;
	struct diag_result *r;
	uint16_t pkey;
	size_t i;

	if (!f->pkeys_known) {
		add(c, "pkey", DIAG_SKIP, "the port's P_Key table is unreadable");
		return DIAG_SKIP;
	}
	if (!group_pkey(f, &pkey)) {
		if (missing_reason) {
			r = add(c, "pkey", DIAG_FAIL,
				"ib_mcgroups reports the group's P_Key missing from the port's table");
			fix(r, "add the partition to this port in the subnet manager (opensm: partitions.conf) and let it sweep");
			return DIAG_FAIL;
		}
		add(c, "pkey", DIAG_SKIP, "the group's P_Key is unknown (no SA record, never joined)");
		return DIAG_SKIP;
	}
	for (i = 0; i < f->npkeys; i++) {
		if ((f->pkeys[i] & 0x7fff) != (pkey & 0x7fff))
			continue;
		if (f->pkeys[i] & 0x8000) {
			if (full < 0)
				full = i;
		} else if (limited < 0) {
			limited = i;
		}
	}
	if (full >= 0) {
		add(c, "pkey", DIAG_PASS, "P_Key 0x%04x at index %u, full member",
		    pkey, f->pkey_index[full]);
		return DIAG_PASS;
	}
	if (limited >= 0) {
		r = add(c, "pkey", DIAG_WARN,
			"P_Key 0x%04x at index %u as 0x%04x: limited member, receives only from full members",
			pkey, f->pkey_index[limited], f->pkeys[limited]);
		fix(r, "make the port a full member of partition 0x%04x in the subnet manager if limited senders must reach it",
		    pkey & 0x7fff);
		return DIAG_WARN;
	}
	r = add(c, "pkey", DIAG_FAIL, "P_Key 0x%04x is not in the port's P_Key table (",
		pkey);
	for (i = 0; i < f->npkeys && i < 8; i++)
		append(r, "%s0x%04x", i ? " " : "", f->pkeys[i]);
	append(r, "%s)", f->npkeys > 8 ? " ..." : "");
	fix(r, "add the port to partition 0x%04x as a full member in the subnet manager (opensm partitions.conf: NAME=0x%04x: ALL=full;) and let it sweep",
	    pkey | 0x8000, pkey & 0x7fff);
	return DIAG_FAIL;
}

static void check_sa(struct ctx *c, enum diag_res pkey_res)
{
	const struct diag_facts *f = c->f;
	char js[IBMCG_JOIN_STATE_STRLEN], want[IBMCG_JOIN_STATE_STRLEN];
	char gid[IBMCG_MGID_STRLEN];
	const struct diag_sa_rec *s = &f->sa_rec;
	struct diag_result *r;
	uint8_t expect;

	switch (f->sa) {
	case DIAG_SA_NOT_QUERIED:
		add(c, "sa_record", DIAG_SKIP, "%s", f->sa_why);
		return;
	case DIAG_SA_TIMEOUT:
		r = add(c, "sa_record", DIAG_FAIL, "the SA (SM LID %u) did not answer",
			f->sm_lid);
		fix(r, "check the subnet manager: sminfo, saquery -g; is it overloaded or failing over?");
		return;
	case DIAG_SA_ERROR:
		if (f->sa_why[0])
			r = add(c, "sa_record", DIAG_FAIL, "the SA query failed: %s",
				f->sa_why);
		else
			r = add(c, "sa_record", DIAG_FAIL,
				"the SA answered with MAD status 0x%04x", f->sa_status);
		fix(r, "check the subnet manager (sminfo) and its log");
		return;
	case DIAG_SA_NO_GROUP:
		if (pkey_res == DIAG_FAIL) {
			add(c, "sa_record", DIAG_SKIP,
			    "the SA shows no record: it hides groups of partitions the port is not in (see pkey)");
			return;
		}
		r = add(c, "sa_record", DIAG_FAIL, "the SA has no MCMemberRecord for %s",
			c->group);
		if (f->group)
			fix(r, "the SA lost the group (SM restarted without a client reregister?): have the SM reregister clients, or leave and join %s again (with create parameters) so that ib_mcgroups re-creates it",
			    c->group);
		else
			fix(r, "create the group: mcctl join %s %s owner NAME create",
			    c->devport, c->group);
		return;
	case DIAG_SA_NOT_MEMBER:
		if (f->group && IBMCG_HAS(f->group, IB_MCG_A_PORT_GID))
			ibmcg_gid_format(f->group->port_gid, gid, sizeof(gid));
		else
			strcpy(gid, "the port's GID");
		r = add(c, "sa_record", DIAG_FAIL,
			"the group exists in the SA, but %s is not a member", gid);
		fix(r, "the SA dropped the membership: have the SM reregister clients, or leave and join %s again on %s",
		    c->group, c->devport);
		return;
	case DIAG_SA_MEMBER:
		break;
	}
	expect = f->group ? f->group->join_state : 0;
	ibmcg_join_state_format(s->join_state, js, sizeof(js));
	ibmcg_join_state_format(expect, want, sizeof(want));
	if (!s->join_state_known) {
		add(c, "sa_record", DIAG_PASS,
		    "member, MLID 0x%04x (JoinState not shown to an untrusted request)",
		    s->mlid);
		return;
	}
	if (expect & ~s->join_state) {
		r = add(c, "sa_record", DIAG_FAIL,
			"member with JoinState %s, but ib_mcgroups holds %s",
			js, want);
		fix(r, "leave and join the group again, or have the SM reregister clients, so that the SA gets the full join state");
		return;
	}
	add(c, "sa_record", DIAG_PASS, "member, JoinState %s, MLID 0x%04x", js,
	    s->mlid);
}

unsigned int diag_ib_rate_tenths(uint8_t rate)
{
	static const unsigned short t[] = {
		[2] = 25, [3] = 100, [4] = 300, [5] = 50, [6] = 200,
		[7] = 400, [8] = 600, [9] = 800, [10] = 1200, [11] = 140,
		[12] = 560, [13] = 1120, [14] = 1680, [15] = 250,
		[16] = 1000, [17] = 2000, [18] = 3000, [19] = 280, [20] = 500,
		[21] = 4000, [22] = 6000,
	};

	return rate < sizeof(t) / sizeof(t[0]) ? t[rate] : 0;
}

static void check_params(struct ctx *c)
{
	const struct diag_facts *f = c->f;
	const struct ibmcg_group *g = f->group;
	const struct diag_sa_rec *s = &f->sa_rec;
	unsigned int rate = diag_ib_rate_tenths(s->rate);
	struct diag_result *r;

	if (f->sa != DIAG_SA_MEMBER) {
		add(c, "params", DIAG_SKIP, "no SA record to compare");
		return;
	}
	if (g && IBMCG_HAS(g, IB_MCG_A_QKEY) && g->qkey != s->qkey) {
		r = add(c, "params", DIAG_FAIL,
			"the SA's Q_Key 0x%08x differs from the hold's 0x%08x",
			s->qkey, g->qkey);
		fix(r, "the group was re-created with other parameters: leave it, join it again with qkey 0x%08x, and use the SA's Q_Key in applications",
		    g->qkey);
		return;
	}
	if (g && IBMCG_HAS(g, IB_MCG_A_MLID) && g->mlid != s->mlid) {
		r = add(c, "params", DIAG_FAIL,
			"the SA's MLID 0x%04x differs from the hold's 0x%04x: QPs attached to the old MLID receive nothing",
			s->mlid, g->mlid);
		fix(r, "leave and join the group again, then re-attach the applications' QPs with the new MLID");
		return;
	}
	if (f->port_mtu && s->mtu > f->port_mtu) {
		r = add(c, "params", DIAG_FAIL,
			"the group's MTU %d is larger than the port's active MTU %d",
			ibmcg_mtu_to_bytes(s->mtu),
			ibmcg_mtu_to_bytes(f->port_mtu));
		fix(r, "re-create the group with an MTU every member supports (mcctl join ... create mtu %d), or raise the port's MTU",
		    ibmcg_mtu_to_bytes(f->port_mtu));
		return;
	}
	if (f->port_rate && rate && rate > f->port_rate) {
		r = add(c, "params", DIAG_FAIL,
			"the group's rate %u.%u Gb/s is faster than the port's %u.%u Gb/s",
			rate / 10, rate % 10, f->port_rate / 10,
			f->port_rate % 10);
		fix(r, "re-create the group with a rate every member supports (mcctl join ... create rate %u)",
		    f->port_rate / 10);
		return;
	}
	r = add(c, "params", DIAG_PASS, "qkey 0x%08x", s->qkey);
	if (g && IBMCG_HAS(g, IB_MCG_A_QKEY))
		append(r, " (as held)");
	append(r, ", mtu %d", ibmcg_mtu_to_bytes(s->mtu));
	if (f->port_mtu)
		append(r, " (port %d)", ibmcg_mtu_to_bytes(f->port_mtu));
	else
		append(r, " (port MTU unknown)");
	if (rate)
		append(r, ", rate %u.%u Gb/s", rate / 10, rate % 10);
	if (rate && f->port_rate)
		append(r, " (port %u.%u)", f->port_rate / 10, f->port_rate % 10);
}

/* RoCE: the held record's MTU against the port's, which follows the netdev. */
static void check_params_roce(struct ctx *c)
{
	const struct diag_facts *f = c->f;
	const struct ibmcg_group *g = f->group;
	struct diag_result *r;

	if (!g || !IBMCG_HAS(g, IB_MCG_A_MTU)) {
		add(c, "params", DIAG_SKIP, "no held record to compare");
		return;
	}
	if (!f->port_mtu) {
		add(c, "params", DIAG_SKIP, "the port's active MTU is unknown");
		return;
	}
	if (g->mtu > f->port_mtu) {
		r = add(c, "params", DIAG_FAIL,
			"the held record's MTU %d is larger than the port's active MTU %d (netdev MTU lowered after the join?)",
			ibmcg_mtu_to_bytes(g->mtu),
			ibmcg_mtu_to_bytes(f->port_mtu));
		fix(r, "leave and join the group again so that its record takes the port's MTU; senders must keep datagrams within %d bytes",
		    ibmcg_mtu_to_bytes(f->port_mtu));
		return;
	}
	add(c, "params", DIAG_PASS, "mtu %d (port %d)",
	    ibmcg_mtu_to_bytes(g->mtu), ibmcg_mtu_to_bytes(f->port_mtu));
}

/* --- IPoIB ---------------------------------------------------------------- */

enum ipoib_fmt { FMT_QKEY, FMT_MTU, FMT_SL, FMT_RATE, FMT_PKEY, FMT_NUM,
		 FMT_FLOW };

/* A record field IPoIB's join gives (those of its broadcast group). */
struct ipoib_field {
	const char *name;
	enum ipoib_fmt fmt;
	bool has;		/* the hold's record has it */
	unsigned int ours, ipoib;
};

static const char *ipoib_val(enum ipoib_fmt fmt, unsigned int v, char *buf,
			     size_t len)
{
	const char *name;

	switch (fmt) {
	case FMT_QKEY:
		snprintf(buf, len, "0x%08x", v);
		break;
	case FMT_MTU:
		snprintf(buf, len, "%d", ibmcg_mtu_to_bytes(v));
		break;
	case FMT_RATE:
		name = ibmcg_rate_name(v);
		if (name)
			snprintf(buf, len, "%s", name);
		else
			snprintf(buf, len, "%u", v);
		break;
	case FMT_PKEY:
		snprintf(buf, len, "0x%04x", v);
		break;
	case FMT_FLOW:
		snprintf(buf, len, "0x%05x", v);
		break;
	default:
		snprintf(buf, len, "%u", v);
		break;
	}
	return buf;
}

static const char *ipoib_join_text(int complete)
{
	if (complete > 0)
		return "; IPoIB's join completed";
	if (!complete)
		return "; IPoIB's join has not completed";
	return "";
}

/*
 * IPoIB joins the group too. Its broadcast join gives the P_Key alone and
 * takes the group as it is; its other joins give the broadcast group's
 * Q_Key, MTU, SL, rate, P_Key, traffic class and flow label, and
 * multicast.c fails them (EINVAL, retried by IPoIB without end) when the
 * port's membership, which ours made, has others.
 */
static void check_ipoib(struct ctx *c)
{
	const struct diag_facts *f = c->f;
	const struct ibmcg_group *g = f->group;
	const struct diag_sa_rec *b = &f->ipoib_rec;
	char v1[24], v2[24], who[48];
	struct diag_result *r;
	size_t i, bad = 0, first = 0;
	struct ipoib_field fl[] = {
		{ "Q_Key", FMT_QKEY, g && IBMCG_HAS(g, IB_MCG_A_QKEY),
		  g ? g->qkey : 0, b->qkey },
		{ "MTU", FMT_MTU, g && IBMCG_HAS(g, IB_MCG_A_MTU),
		  g ? g->mtu : 0, b->mtu },
		{ "SL", FMT_SL, g && IBMCG_HAS(g, IB_MCG_A_SL),
		  g ? g->sl : 0, b->sl },
		{ "rate", FMT_RATE, g && IBMCG_HAS(g, IB_MCG_A_RATE),
		  g ? g->rate : 0, b->rate },
		{ "P_Key", FMT_PKEY, g && IBMCG_HAS(g, IB_MCG_A_PKEY),
		  g ? g->pkey : 0, b->pkey },
		{ "traffic class", FMT_NUM, g && IBMCG_HAS(g, IB_MCG_A_TCLASS),
		  g ? g->tclass : 0, b->tclass },
		{ "flow label", FMT_FLOW,
		  g && IBMCG_HAS(g, IB_MCG_A_FLOW_LABEL),
		  g ? g->flow_label : 0, b->flow_label },
	};

	if (f->ipoib == DIAG_IPOIB_NONE || !g)
		return;
	if (!IBMCG_HAS(g, IB_MCG_A_QKEY)) {
		add(c, "ipoib", DIAG_SKIP,
		    "%s joins %s; the hold has no record to compare yet",
		    f->ipoib_dev, c->group);
		return;
	}
	if (f->ipoib == DIAG_IPOIB_BCAST) {
		unsigned int pkey = f->mgid[4] << 8 | f->mgid[5];

		if (IBMCG_HAS(g, IB_MCG_A_PKEY) && g->pkey != pkey) {
			r = add(c, "ipoib", DIAG_FAIL,
				"%s's broadcast group %s: IPoIB joins it with P_Key 0x%04x, the group has 0x%04x: multicast.c fails the join (EINVAL)",
				f->ipoib_dev, c->group, pkey, g->pkey);
			fix(r, "leave %s and join it again with pkey 0x%04x, or without create parameters",
			    c->group, pkey);
			return;
		}
		add(c, "ipoib", DIAG_PASS,
		    "%s's broadcast group: IPoIB joins it by P_Key and takes its Q_Key 0x%08x%s",
		    f->ipoib_dev, g->qkey, ipoib_join_text(f->ipoib_complete));
		return;
	}
	if (!f->ipoib_rec_known) {
		add(c, "ipoib", DIAG_SKIP,
		    "%s joins %s; its broadcast group's record is unknown: %s",
		    f->ipoib_dev, c->group, f->ipoib_why);
		return;
	}
	for (i = 0; i < sizeof(fl) / sizeof(fl[0]); i++) {
		if (!fl[i].has || fl[i].ours == fl[i].ipoib)
			continue;
		if (!bad++)
			first = i;
	}
	if (!bad) {
		r = add(c, "ipoib", f->ipoib_complete ? DIAG_PASS : DIAG_WARN,
			"%s joins %s with the same parameters (one SA membership, shared)%s",
			f->ipoib_dev, c->group,
			ipoib_join_text(f->ipoib_complete));
		if (!f->ipoib_complete)
			fix(r, "IPoIB retries a failed join with a backoff of up to 16 s: run mcctl diag again");
		return;
	}
	r = add(c, "ipoib", f->ipoib_complete > 0 ? DIAG_WARN : DIAG_FAIL,
		"%s joins %s with %s %s (its broadcast group's), the group has %s: multicast.c fails the join (EINVAL), IPoIB retries forever",
		f->ipoib_dev, c->group, fl[first].name,
		ipoib_val(fl[first].fmt, fl[first].ipoib, v1, sizeof(v1)),
		ipoib_val(fl[first].fmt, fl[first].ours, v2, sizeof(v2)));
	for (i = first + 1; i < sizeof(fl) / sizeof(fl[0]); i++)
		if (fl[i].has && fl[i].ours != fl[i].ipoib)
			append(r, "; %s %s, not %s", fl[i].name,
			       ipoib_val(fl[i].fmt, fl[i].ipoib, v1, sizeof(v1)),
			       ipoib_val(fl[i].fmt, fl[i].ours, v2, sizeof(v2)));
	append(r, "%s", ipoib_join_text(f->ipoib_complete));
	holders_text(g, who, sizeof(who));
	fix(r, "leave it (holders %s), join it again with IPoIB's parameters: mcctl join %s %s owner NAME create qkey 0x%08x pkey 0x%04x mtu %d rate %s sl %u",
	    who, c->devport, c->group, b->qkey, b->pkey,
	    ibmcg_mtu_to_bytes(b->mtu),
	    ipoib_val(FMT_RATE, b->rate, v1, sizeof(v1)), b->sl);
	if (b->tclass)
		append_fix(r, " tclass %u", b->tclass);
	if (b->flow_label)
		append_fix(r, " flow-label 0x%05x", b->flow_label);
}

static void check_table(struct ctx *c)
{
	const struct diag_facts *f = c->f;
	unsigned int pct;
	struct diag_result *r;

	if (!f->port_known) {
		add(c, "mcast_table", DIAG_SKIP, "ib_mcgroups does not report the port");
		return;
	}
	if (!f->max_mcast_grp) {
		add(c, "mcast_table", DIAG_SKIP,
		    "the HCA reports no multicast table size (max_mcast_grp 0)");
		return;
	}
	pct = (uint64_t)f->groups * 100 / f->max_mcast_grp;
	if (f->groups >= f->max_mcast_grp) {
		r = add(c, "mcast_table", DIAG_FAIL, "%u of %u groups (%u%%): the table is full",
			f->groups, f->max_mcast_grp, pct);
		fix(r, "leave unused groups (mcctl list %s); IPoIB and other users share the table",
		    c->devport);
		return;
	}
	if ((uint64_t)f->groups * 100 >= (uint64_t)f->max_mcast_grp * 80) {
		r = add(c, "mcast_table", DIAG_WARN, "%u of %u groups (%u%%)",
			f->groups, f->max_mcast_grp, pct);
		fix(r, "leave unused groups (mcctl list %s) before the table fills up",
		    c->devport);
		return;
	}
	add(c, "mcast_table", DIAG_PASS, "%u of %u groups (%u%%)", f->groups,
	    f->max_mcast_grp, pct);
}


static void check_mc(struct ctx *c)
{
	const struct diag_facts *f = c->f;
	bool v4 = ibmcg__mgid_is_ipv4(f->mgid);
	const char *name = v4 ? "igmp" : "mld", *proto = v4 ? "IGMP" : "MLD";
	struct diag_result *r;

	if (f->group && !(f->group->join_state & RECEIVING)) {
		add(c, name, DIAG_SKIP, "send-only holds take no %s membership",
		    proto);
		return;
	}
	switch (f->mc) {
	case DIAG_MC_UNKNOWN:
		add(c, name, DIAG_SKIP, "%s", f->mc_why);
		return;
	case DIAG_MC_NO_NETDEV:
		add(c, name, DIAG_SKIP, "netdev %s is not in this network namespace",
		    f->netdev);
		return;
	case DIAG_MC_PRESENT:
		add(c, name, DIAG_PASS, "%s has %s membership of %s (%u user(s))",
		    f->netdev, proto, c->group, f->mc_users);
		return;
	case DIAG_MC_ABSENT:
		break;
	}
	r = add(c, name, DIAG_FAIL, "%s has no %s membership of %s: switches do not forward the group to it",
		f->netdev, proto, c->group);
	if (f->group)
		fix(r, "leave and join the group again so that ib_mcgroups takes the membership; check that %s is up",
		    f->netdev);
	else
		fix(r, "mcctl join %s %s owner NAME", c->devport, c->group);
}

size_t diag_evaluate(const struct diag_facts *f, struct diag_result *r,
		     size_t max)
{
	struct ctx c = { .f = f, .r = r, .max = max };
	enum diag_res pkey_res = DIAG_SKIP;

	ibmcg_mgid_format(f->mgid, c.group, sizeof(c.group));
	snprintf(c.devport, sizeof(c.devport), "%s/%u", f->dev, f->port);

	check_port(&c);
	if (is_ib(f))
		check_sm(&c);
	check_hold(&c);
	if (is_ib(f)) {
		pkey_res = check_pkey(&c);
		check_sa(&c, pkey_res);
		check_params(&c);
		check_ipoib(&c);
	}
	if (is_roce(f))
		check_params_roce(&c);
	check_table(&c);
	if (is_roce(f))
		check_mc(&c);
	return c.n;
}

enum diag_res diag_overall(const struct diag_result *r, size_t n)
{
	enum diag_res worst = DIAG_PASS;
	size_t i;

	for (i = 0; i < n; i++) {
		if (r[i].res == DIAG_FAIL)
			return DIAG_FAIL;
		if (r[i].res == DIAG_WARN)
			worst = DIAG_WARN;
	}
	return worst;
}

void print_diag_port(const struct diag_facts *f, const struct diag_result *r,
		     size_t n)
{
	char group[IBMCG_MGID_STRLEN];
	size_t i;

	open_json_object(NULL);
	print_string(PRINT_ANY, "dev", "%s", f->dev);
	print_uint(PRINT_ANY, "port", "/%u", f->port);
	print_string(PRINT_ANY, "group", " group %s",
		     ibmcg_mgid_format(f->mgid, group, sizeof(group)));
	print_string(PRINT_ANY, "result", ": %s",
		     diag_res_name(diag_overall(r, n)));
	print_nl();
	open_json_array("checks");
	for (i = 0; i < n; i++) {
		open_json_object(NULL);
		print_string(PRINT_JSON, "check", NULL, r[i].check);
		print_string(PRINT_JSON, "result", NULL,
			     diag_res_name(r[i].res));
		print_string(PRINT_JSON, "detail", NULL, r[i].detail);
		if (r[i].fix[0])
			print_string(PRINT_JSON, "fix", NULL, r[i].fix);
		print_fp("  %s %-11s %s\n", diag_res_name(r[i].res),
			 r[i].check, r[i].detail);
		if (r[i].fix[0])
			print_fp("       fix: %s\n", r[i].fix);
		close_json_object();
	}
	close_json_array();
	close_json_object();
}

/* --- parsers --------------------------------------------------------------- */

int diag_igmp_users(FILE *fp, const char *dev, const uint8_t mgid[16])
{
	char line[256], name[64];
	bool in_dev = false, seen = false;
	unsigned int users;
	uint32_t want, addr;
	int users_found = 0;

	memcpy(&want, mgid + 12, 4);	/* as the kernel prints it: %08X */
	while (fgets(line, sizeof(line), fp)) {
		unsigned int idx;

		/* "3	veth0     :     2      V3", then its groups, indented */
		if (line[0] >= '0' && line[0] <= '9' &&
		    sscanf(line, "%u %63s", &idx, name) == 2) {
			char *colon = strchr(name, ':');

			if (colon)
				*colon = '\0';
			in_dev = !strcmp(name, dev);
			seen |= in_dev;
			continue;
		}
		if (in_dev && sscanf(line, " %x %u", &addr, &users) == 2 &&
		    addr == want)
			users_found = users;
	}
	return seen ? users_found : -1;
}

int diag_igmp6_users(FILE *fp, const char *dev, const uint8_t mgid[16])
{
	char line[256], name[64], hex[40], want[33];
	unsigned int idx, users;
	bool seen = false;
	int found = 0, i;

	for (i = 0; i < 16; i++)
		sprintf(want + 2 * i, "%02x", mgid[i]);
	while (fgets(line, sizeof(line), fp)) {
		if (sscanf(line, "%u %63s %39s %u", &idx, name, hex, &users) != 4 ||
		    strcmp(name, dev))
			continue;
		seen = true;
		if (!strcasecmp(hex, want))
			found = users;
	}
	return seen ? found : -1;
}

int diag_hwaddr_mgid(const char *s, uint8_t mgid[16])
{
	unsigned int b;
	int i, n;

	for (i = 0; i < 20; i++) {
		if (sscanf(s, "%2x%n", &b, &n) != 1 || n != 2)
			return -1;
		s += 2;
		if (i < 19 && *s++ != ':')
			return -1;
		if (i >= 4)
			mgid[i - 4] = b;
	}
	return *s && *s != '\n' ? -1 : 0;
}

static void hex16(const uint8_t mgid[16], char want[33])
{
	int i;

	for (i = 0; i < 16; i++)
		sprintf(want + 2 * i, "%02x", mgid[i]);
}

int diag_dev_mcast_has(FILE *fp, const char *dev, const uint8_t mgid[16])
{
	char line[256], name[64], hex[64], want[33];
	int idx, ref, global;

	hex16(mgid, want);
	while (fgets(line, sizeof(line), fp)) {
		/* "4    ib0             1     0     00ffffffff12401b..." */
		if (sscanf(line, "%d %63s %d %d %63s", &idx, name, &ref,
			   &global, hex) != 5 || strcmp(name, dev) ||
		    strlen(hex) != 40)
			continue;
		if (!strcasecmp(hex + 8, want))
			return 1;
	}
	return 0;
}

int diag_ipoib_mcg_complete(FILE *fp, const uint8_t mgid[16])
{
	unsigned int w[8];
	char line[256], yn[8];
	bool match = false;
	int i;

	while (fgets(line, sizeof(line), fp)) {
		/* "GID: ff12:401b:ffff:0:0:0:f01:203", "  complete:   yes" */
		if (sscanf(line, "GID: %x:%x:%x:%x:%x:%x:%x:%x", &w[0], &w[1],
			   &w[2], &w[3], &w[4], &w[5], &w[6], &w[7]) == 8) {
			match = true;
			for (i = 0; i < 8; i++)
				match &= mgid[2 * i] == (w[i] >> 8 & 0xff) &&
					 mgid[2 * i + 1] == (w[i] & 0xff);
			continue;
		}
		if (match && sscanf(line, " complete: %7s", yn) == 1)
			return !strcmp(yn, "yes");
	}
	return -1;
}

int diag_roce_mtu(unsigned int netdev_mtu)
{
	/* GRH, UDP, BTH, XRC and AtomicETH headers, ICRC: as iboe_get_mtu() */
	int room = (int)netdev_mtu - (40 + 8 + 12 + 4 + 28 + 4);
	int mtu;

	for (mtu = 5; mtu > 0; mtu--)
		if (room >= ibmcg_mtu_to_bytes(mtu))
			return mtu;
	return 0;
}

unsigned int diag_parse_rate(const char *s)
{
	unsigned int whole, frac = 0;
	char dot = 0;

	if (sscanf(s, "%u%c%u", &whole, &dot, &frac) >= 1 && dot == '.')
		return whole * 10 + frac % 10;
	if (sscanf(s, "%u", &whole) == 1)
		return whole * 10;
	return 0;
}
