// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcctl output: one function per object, text and JSON from the same calls.
 */
#include <inttypes.h>
#include <string.h>
#include <time.h>

#include "mcctl.h"

#define NAME_BUF	24

/* An enum's name, or "unknown(N)" for values newer than this tool. */
static const char *name_or_num(const char *name, unsigned int v, char *buf)
{
	if (name)
		return name;
	snprintf(buf, NAME_BUF, "unknown(%u)", v);
	return buf;
}

static void print_dev_port(const char *dev, uint32_t dev_index,
			   bool has_index, uint32_t port)
{
	print_string(PRINT_ANY, "dev", "%s", dev);
	if (has_index)
		print_uint(PRINT_JSON, "dev_index", NULL, dev_index);
	print_uint(PRINT_ANY, "port", "/%u", port);
}

static void print_group_addr(const uint8_t mgid[IBMCG_GID_LEN])
{
	char buf[IBMCG_MGID_STRLEN];

	print_string(PRINT_ANY, "group", " group %s",
		     ibmcg_mgid_format(mgid, buf, sizeof(buf)));
}

static void print_mgid(const struct ibmcg_group *g)
{
	print_group_addr(g->mgid);
}

#define HAS(g, a)	IBMCG_HAS(g, IB_MCG_A_##a)

/* Time left of a lingering group: "12.3s", "4m05s", "2h03m04s". */
static void print_linger_left(uint32_t ms)
{
	unsigned int s = ms / 1000;

	print_uint(PRINT_JSON, "linger_left_ms", NULL, ms);
	if (s < 60)
		print_fp(" linger_left %u.%us", s, ms % 1000 / 100);
	else if (s < 3600)
		print_fp(" linger_left %um%02us", s / 60, s % 60);
	else
		print_fp(" linger_left %uh%02um%02us", s / 3600, s / 60 % 60,
			 s % 60);
}

/*
 * The group's holders: the kernel's count, which includes those a caller
 * without CAP_NET_ADMIN is not shown (only its own are listed).
 */
static unsigned int holder_count(const struct ibmcg_group *g)
{
	if (ibmcg_group_has(g, IB_MCG_A_HOLDER_COUNT) &&
	    g->holder_count > g->nholders)
		return g->holder_count;
	return (unsigned int)g->nholders;
}

static void print_state(const struct ibmcg_group *g, bool reason)
{
	char buf[NAME_BUF];

	print_string(PRINT_ANY, "state", " state %s",
		     name_or_num(ibmcg_state_name(g->state), g->state, buf));
	/* Said in text where it differs: a lingering group re-joining. */
	if (HAS(g, LINK_STATE)) {
		const char *ls = name_or_num(ibmcg_state_name(g->link_state),
					     g->link_state, buf);

		print_string(PRINT_JSON, "link_state", NULL, ls);
		if (g->state == IB_MCG_STATE_LINGERING &&
		    g->link_state != IB_MCG_STATE_JOINED)
			print_fp(" (%s)", ls);
	}
	if (reason)
		print_string(PRINT_ANY, "reason", " reason %s",
			     name_or_num(ibmcg_reason_name(g->reason),
					 g->reason, buf));
	if (g->error) {
		print_uint(PRINT_ANY, "error", " error %u", g->error);
		print_fp(" (%s)", strerror(g->error));
	}
	if (HAS(g, LINGER_LEFT_MS))
		print_linger_left(g->linger_left_ms);
}

/* The group's linger time, as join takes it: "2m", "30s", "1500ms". */
static void print_linger(const struct ibmcg_group *g)
{
	uint32_t ms = g->linger_ms;

	if (!HAS(g, LINGER_MS))
		return;
	print_uint(PRINT_JSON, "linger_ms", NULL, ms);
	if (!ms)
		return;
	if (ms % 60000 == 0)
		print_fp(" linger %um", ms / 60000);
	else if (ms % 1000 == 0)
		print_fp(" linger %us", ms / 1000);
	else
		print_fp(" linger %ums", ms);
}

static void print_join_state(const char *key, const char *fmt, uint8_t js)
{
	char buf[IBMCG_JOIN_STATE_STRLEN];

	print_string(PRINT_ANY, key, fmt,
		     ibmcg_join_state_format(js, buf, sizeof(buf)));
}

/* "owner:state[,bound]" in text. */
/*
 * OWNER(STATE[,bound]): an owner may contain any printable character but
 * a space, a join state has no parenthesis, so the text splits at the
 * last '(' (job:42(full) is owner job:42).
 */
static void print_holder_short(const char *name, const struct ibmcg_holder *ho)
{
	open_json_object(name);
	print_string(PRINT_ANY, "owner", "%s", ho->owner);
	print_join_state("join_state", "(%s", ho->join_state);
	print_flag(PRINT_ANY, "bound", ",bound", ho->flags & IB_MCG_F_BOUND);
	print_fp(")");
	close_json_object();
}

/* The fabric parameters of the member record, on the current line. */
static void print_record_params(const struct ibmcg_group *g)
{
	char name[NAME_BUF];

	if (HAS(g, MLID))
		print_uint(PRINT_ANY, "mlid", " mlid 0x%04x", g->mlid);
	if (HAS(g, PREV_MLID))
		print_uint(PRINT_ANY, "prev_mlid", " prev_mlid 0x%04x",
			   g->prev_mlid);
	if (HAS(g, QKEY))
		print_uint(PRINT_ANY, "qkey", " qkey 0x%08x", g->qkey);
	if (HAS(g, PKEY))
		print_uint(PRINT_ANY, "pkey", " pkey 0x%04x", g->pkey);
	if (HAS(g, MTU))
		print_uint(PRINT_ANY, "mtu", " mtu %u",
			   ibmcg_mtu_to_bytes(g->mtu));
	if (HAS(g, RATE))
		print_string(PRINT_ANY, "rate", " rate %s",
			     name_or_num(ibmcg_rate_name(g->rate), g->rate,
					 name));
	if (HAS(g, SL))
		print_uint(PRINT_ANY, "sl", " sl %u", g->sl);
	if (HAS(g, FLOW_LABEL))
		print_uint(PRINT_ANY, "flow_label", " flow_label 0x%05x",
			   g->flow_label);
	if (HAS(g, TCLASS))
		print_uint(PRINT_ANY, "tclass", " tclass %u", g->tclass);
	if (HAS(g, HOP_LIMIT))
		print_uint(PRINT_ANY, "hop_limit", " hop_limit %u",
			   g->hop_limit);
}

static void print_record(const struct ibmcg_group *g)
{
	char buf[IBMCG_MGID_STRLEN];

	print_record_params(g);
	if (HAS(g, PORT_GID) || HAS(g, SGID_INDEX))
		print_fp("\n   ");
	if (HAS(g, PORT_GID))
		print_string(PRINT_ANY, "port_gid", " port_gid %s",
			     ibmcg_gid_format(g->port_gid, buf, sizeof(buf)));
	if (HAS(g, SGID_INDEX))
		print_uint(PRINT_ANY, "sgid_index", " sgid_index %u",
			   g->sgid_index);
}

/* Joined or lingering: the membership is held, no reason to give. */
static bool state_held(uint8_t state)
{
	return state == IB_MCG_STATE_JOINED ||
	       state == IB_MCG_STATE_LINGERING;
}

void print_group_line(const struct ibmcg_group *g)
{
	size_t i;

	open_json_object(NULL);
	print_dev_port(g->dev_name, g->dev_index, HAS(g, DEV_INDEX), g->port);
	print_mgid(g);
	print_state(g, !state_held(g->state));
	print_linger(g);
	/* An InfiniBand group's record is the SA's choice: worth a look. */
	if (g->backend == IB_MCG_BACKEND_IB_SA)
		print_record_params(g);
	print_join_state("join_state", " join_state %s", g->join_state);
	print_uint(PRINT_ANY, "holder_count", " holders %u", holder_count(g));
	open_json_array("holders");
	for (i = 0; i < g->nholders; i++) {
		print_fp(" ");
		print_holder_short(NULL, ibmcg_group_holder(g, i));
	}
	close_json_array();
	close_json_object();
	print_nl();
}

static void print_age(uint64_t ms)
{
	uint64_t s = ms / 1000;

	print_u64(PRINT_JSON, "age_ms", NULL, ms);
	if (s < 60)
		print_fp(" age %" PRIu64 ".%03us", s, (unsigned int)(ms % 1000));
	else if (s < 3600)
		print_fp(" age %" PRIu64 "m%02us", s / 60,
			 (unsigned int)(s % 60));
	else if (s < 86400)
		print_fp(" age %" PRIu64 "h%02um%02us", s / 3600,
			 (unsigned int)(s / 60 % 60), (unsigned int)(s % 60));
	else
		print_fp(" age %" PRIu64 "d%02uh%02um", s / 86400,
			 (unsigned int)(s / 3600 % 24),
			 (unsigned int)(s / 60 % 60));
}

static void print_holder_detail(const struct ibmcg_holder *ho)
{
	bool bound = ho->flags & IB_MCG_F_BOUND;

	open_json_object(NULL);
	print_fp("\n    ");
	print_string(PRINT_ANY, "owner", "holder %s", ho->owner);
	print_join_state("join_state", " join_state %s", ho->join_state);
	print_uint(PRINT_JSON, "flags", NULL, ho->flags);
	print_flag(PRINT_ANY, "bound", " bound", bound);
	if (bound || ho->nl_portid)
		print_uint(PRINT_ANY, "portid", " portid %u", ho->nl_portid);
	print_age(ho->age_ms);
	close_json_object();
}

static void print_group_body(const struct ibmcg_group *g)
{
	char buf[IBMCG_MGID_STRLEN];
	char name[NAME_BUF];
	size_t i;

	print_dev_port(g->dev_name, g->dev_index, HAS(g, DEV_INDEX), g->port);
	print_mgid(g);
	print_state(g, true);
	print_linger(g);
	print_join_state("join_state", " join_state %s", g->join_state);
	print_string(PRINT_ANY, "backend", " backend %s",
		     name_or_num(ibmcg_backend_name(g->backend), g->backend,
				 name));
	print_fp("\n   ");
	print_string(PRINT_ANY, "mgid", " mgid %s",
		     ibmcg_gid_format(g->mgid, buf, sizeof(buf)));
	print_record(g);
	print_uint(PRINT_JSON, "holder_count", NULL, holder_count(g));
	open_json_array("holders");
	for (i = 0; i < g->nholders; i++)
		print_holder_detail(ibmcg_group_holder(g, i));
	close_json_array();
}

void print_group_detail(const struct ibmcg_group *g)
{
	open_json_object(NULL);
	print_group_body(g);
	close_json_object();
	print_nl();
}

void print_join_reply(const struct ibmcg_group *g, bool sa_assigned)
{
	char buf[IBMCG_MGID_STRLEN];

	open_json_object(NULL);
	if (sa_assigned)
		print_string(PRINT_ANY, "assigned_mgid", "assigned mgid %s\n",
			     ibmcg_gid_format(g->mgid, buf, sizeof(buf)));
	print_group_body(g);
	close_json_object();
	print_nl();
}

static void print_mcast_table(uint32_t used, uint32_t max)
{
	unsigned int pct = max ? (uint64_t)used * 100 / max : 0;
	bool warn = max && (uint64_t)used * 100 >= (uint64_t)max *
							 MCCTL_MCAST_WARN_PCT;

	open_json_object("mcast_table");
	print_uint(PRINT_ANY, "used", " mcast_table %u", used);
	if (max) {
		print_uint(PRINT_ANY, "max", "/%u", max);
		print_uint(PRINT_ANY, "percent", " (%u%%)", pct);
	} else {
		print_uint(PRINT_JSON, "max", NULL, 0);
		print_fp("/-");
	}
	print_flag(PRINT_ANY, "warning", " WARNING", warn);
	close_json_object();
}

/*
 * A module limit, " KEY N": a number, or "none" (JSON: 0) when there is
 * none.
 */
static void print_limit(const char *key, uint32_t v)
{
	print_uint(PRINT_JSON, key, NULL, v);
	if (v)
		print_fp(" %s %u", key, v);
	else
		print_fp(" %s none", key);
}

static bool has_rejoin_stats(const struct ibmcg_port *p)
{
	return HAS(p, SM_REREGISTERS) || HAS(p, LAST_SM_LID) ||
	       HAS(p, REJOIN_WAVES) || HAS(p, REJOIN_PENDING) ||
	       HAS(p, LAST_REJOIN_WAVE_MS) || HAS(p, GROUP_REJOINS) ||
	       HAS(p, REJOIN_FAILURES) || HAS(p, SA_TIMEOUTS) ||
	       HAS(p, MLID_CHANGES);
}

/* InfiniBand: SM reregisters and the re-join waves that follow them. */
static void print_rejoin_stats(const struct ibmcg_port *p)
{
	if (!has_rejoin_stats(p))
		return;
	print_fp("\n   ");
	if (HAS(p, SM_REREGISTERS))
		print_u64(PRINT_ANY, "sm_reregisters",
			  " sm_reregisters %" PRIu64, p->sm_reregisters);
	if (HAS(p, LAST_SM_LID))
		print_uint(PRINT_ANY, "last_sm_lid", " last_sm_lid %u",
			   p->last_sm_lid);
	if (HAS(p, REJOIN_WAVES))
		print_u64(PRINT_ANY, "rejoin_waves", " rejoin_waves %" PRIu64,
			  p->rejoin_waves);
	if (HAS(p, REJOIN_PENDING))
		print_uint(PRINT_ANY, "rejoin_pending", " rejoin_pending %u",
			   p->rejoin_pending);
	if (HAS(p, LAST_REJOIN_WAVE_MS))
		print_uint(PRINT_ANY, "last_rejoin_wave_ms",
			   " last_rejoin_wave_ms %u", p->last_rejoin_wave_ms);
	if (HAS(p, GROUP_REJOINS))
		print_u64(PRINT_ANY, "group_rejoins",
			  " group_rejoins %" PRIu64, p->group_rejoins);
	if (HAS(p, REJOIN_FAILURES))
		print_u64(PRINT_ANY, "rejoin_failures",
			  " rejoin_failures %" PRIu64, p->rejoin_failures);
	if (HAS(p, SA_TIMEOUTS))
		print_u64(PRINT_ANY, "sa_timeouts", " sa_timeouts %" PRIu64,
			  p->sa_timeouts);
	if (HAS(p, MLID_CHANGES))
		print_u64(PRINT_ANY, "mlid_changes", " mlid_changes %" PRIu64,
			  p->mlid_changes);
}

void print_port(const struct ibmcg_port *p)
{
	char name[NAME_BUF];

	open_json_object(NULL);
	print_dev_port(p->dev_name, p->dev_index, HAS(p, DEV_INDEX), p->port);
	print_string(PRINT_ANY, "link_layer", " link_layer %s",
		     name_or_num(ibmcg_link_layer_name(p->link_layer),
				 p->link_layer, name));
	print_string(PRINT_ANY, "port_state", " state %s",
		     name_or_num(ibmcg_port_state_name(p->port_state),
				 p->port_state, name));
	print_string(PRINT_ANY, "backend", " backend %s",
		     name_or_num(ibmcg_backend_name(p->backend), p->backend,
				 name));
	if (p->netdev[0])
		print_string(PRINT_ANY, "netdev", " netdev %s", p->netdev);
	if (IBMCG_HAS(p, IB_MCG_A_IFINDEX))
		print_uint(PRINT_JSON, "ifindex", NULL, p->ifindex);
	if (HAS(p, LID))
		print_uint(PRINT_ANY, "lid", " lid %u", p->lid);
	if (HAS(p, SM_LID))
		print_uint(PRINT_ANY, "sm_lid", " sm_lid %u", p->sm_lid);
	print_fp("\n   ");
	print_uint(PRINT_ANY, "groups", " groups %u", p->groups);
	print_uint(PRINT_ANY, "holder_count", " holders %u", p->holder_count);
	print_u64(PRINT_ANY, "joins", " joins %" PRIu64, p->joins);
	print_u64(PRINT_ANY, "leaves", " leaves %" PRIu64, p->leaves);
	print_u64(PRINT_ANY, "join_errors", " join_errors %" PRIu64,
		  p->join_errors);
	print_uint(PRINT_JSON, "max_mcast_grp", NULL, p->max_mcast_grp);
	print_uint(PRINT_JSON, "max_mcast_qp_attach", NULL,
		   p->max_mcast_qp_attach);
	print_uint(PRINT_JSON, "max_total_mcast_qp_attach", NULL,
		   p->max_total_mcast_qp_attach);
	print_mcast_table(p->groups, p->max_mcast_grp);
	if (HAS(p, LINGER_HITS) || HAS(p, LINGER_EXPIRED) ||
	    HAS(p, MAX_GROUPS) || HAS(p, MAX_OWNER_HOLDS))
		print_fp("\n   ");
	if (HAS(p, LINGER_HITS))
		print_u64(PRINT_ANY, "linger_hits", " linger_hits %" PRIu64,
			  p->linger_hits);
	if (HAS(p, LINGER_EXPIRED))
		print_u64(PRINT_ANY, "linger_expired",
			  " linger_expired %" PRIu64, p->linger_expired);
	if (HAS(p, MAX_GROUPS))
		print_limit("max_groups", p->max_groups);
	if (HAS(p, MAX_OWNER_HOLDS))
		print_limit("max_owner_holds", p->max_owner_holds);
	print_rejoin_stats(p);
	close_json_object();
	print_nl();
}

/*
 * A port notification. A re-join wave starts: how many groups are to be
 * re-joined, and the SM now in charge (after a failover, a new LID). It
 * ends: waves completed so far, and how long this one took.
 */
static void print_port_event(const struct ibmcg_event *ev)
{
	const struct ibmcg_port *p = ev->port;

	print_dev_port(p->dev_name, p->dev_index, HAS(p, DEV_INDEX), p->port);
	if (ev->cmd == IB_MCG_CMD_REJOIN_WAVE_START_NTF) {
		if (HAS(p, REJOIN_PENDING))
			print_uint(PRINT_ANY, "rejoin_pending", " pending %u",
				   p->rejoin_pending);
		if (HAS(p, SM_LID))
			print_uint(PRINT_ANY, "sm_lid", " sm_lid %u",
				   p->sm_lid);
		return;
	}
	if (HAS(p, REJOIN_WAVES))
		print_u64(PRINT_ANY, "rejoin_waves", " waves %" PRIu64,
			  p->rejoin_waves);
	if (HAS(p, LAST_REJOIN_WAVE_MS))
		print_uint(PRINT_ANY, "last_rejoin_wave_ms",
			   " last_rejoin_wave_ms %u", p->last_rejoin_wave_ms);
}

void format_timestamp(const struct timespec *ts, char *buf, size_t len)
{
	char date[32], z[8] = "", off[8] = "";
	struct tm tm;

	localtime_r(&ts->tv_sec, &tm);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S", &tm);
	/* +hhmm to +hh:mm */
	if (strftime(z, sizeof(z), "%z", &tm) == 5)
		snprintf(off, sizeof(off), "%.3s:%.2s", z, z + 3);
	snprintf(buf, len, "%s.%06ld%s", date, ts->tv_nsec / 1000, off);
}

void print_event(const struct ibmcg_event *ev)
{
	print_event_ts(ev, NULL);
}

void print_event_ts(const struct ibmcg_event *ev, const char *timestamp)
{
	const struct ibmcg_group *g = ev->group;
	bool holder_ev = ev->cmd == IB_MCG_CMD_HOLDER_NEW_NTF ||
			 ev->cmd == IB_MCG_CMD_HOLDER_DEL_NTF;
	uint16_t old_mlid, new_mlid;
	char name[NAME_BUF];

	open_json_object(NULL);
	if (timestamp)
		print_string(PRINT_ANY, "timestamp", "[%s] ", timestamp);
	/* The SA gave the group another MLID: both, on a line of its own. */
	if (ibmcg_event_mlid_change(ev, NULL, &old_mlid, &new_mlid)) {
		print_string(PRINT_ANY, "event", "[%s] ", "mlid-changed");
		print_dev_port(g->dev_name, g->dev_index, HAS(g, DEV_INDEX),
			       g->port);
		print_mgid(g);
		print_uint(PRINT_ANY, "mlid", " mlid 0x%04x", new_mlid);
		print_uint(PRINT_ANY, "prev_mlid", " (was 0x%04x)", old_mlid);
		close_json_object();
		print_nl();
		return;
	}
	print_string(PRINT_ANY, "event", "[%s] ",
		     name_or_num(ibmcg_event_name(ev->cmd), ev->cmd, name));
	if (ev->port) {
		print_port_event(ev);
		close_json_object();
		print_nl();
		return;
	}
	print_dev_port(g->dev_name, g->dev_index, HAS(g, DEV_INDEX), g->port);
	print_mgid(g);
	print_state(g, true);
	if (holder_ev && g->nholders) {
		print_fp(" holder ");
		print_holder_short("holder", ibmcg_group_holder(g, 0));
	} else {
		print_join_state("join_state", " join_state %s",
				 g->join_state);
		if (IBMCG_HAS(g, IB_MCG_A_HOLDERS))
			print_uint(PRINT_ANY, "holder_count", " holders %u",
				   (unsigned int)g->nholders);
	}
	close_json_object();
	print_nl();
}

void print_owner_release(const char *owner, uint32_t holds_dropped,
			 struct ibmcg_released *const *rel, size_t n)
{
	char name[NAME_BUF];
	size_t i;

	open_json_object(NULL);
	print_string(PRINT_JSON, "owner", NULL, owner);
	print_uint(PRINT_JSON, "holds_dropped", NULL, holds_dropped);
	open_json_array("groups");
	for (i = 0; i < n; i++) {
		const struct ibmcg_released *r = rel[i];

		open_json_object(NULL);
		print_dev_port(r->dev_name, r->dev_index,
			       true, r->port);
		print_group_addr(r->mgid);
		print_join_state("dropped", " dropped %s", r->join_state);
		print_string(PRINT_ANY, "state", " state %s",
			     name_or_num(ibmcg_state_name(r->state), r->state,
					 name));
		close_json_object();
		print_nl();
	}
	close_json_array();
	if (holds_dropped)
		print_fp("released %u hold(s) of owner %s\n", holds_dropped,
			 owner);
	else
		print_fp("owner %s holds nothing\n", owner);
	close_json_object();
}
