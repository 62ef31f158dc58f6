// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcctl fabric [DEV/PORT] [reconcile] [smkey KEY]: the SA's multicast
 * groups as the SA has them (GetTable of every MCMemberRecord, through the
 * port's umad device), the MLIDs they use against what the fabric can
 * forward, and this port's memberships there against what ib_mcgroups
 * holds: ok, lost, stale (see enum fabric_class). With reconcile, lost
 * groups are joined again by the module (REJOIN) and this port's stale
 * memberships are deleted at the SA (Delete with this port's GID only),
 * each action printed.
 *
 * The groups come from an untrusted GetTable, one record per group (a
 * group without members too, as OpenSM's IPoIB broadcast group). The SA
 * gives its members' PortGIDs and JoinStates only to a trusted request,
 * one with the SA's SM_Key (opensm's default is 1; "smkey KEY" for
 * another), one record per member. A key the SA refuses, or ignores as
 * OpenSM does (the request times out), leaves the group list without
 * members, and no classification (exit status 1).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcctl.h"
#include "mcctl_args.h"
#include "mcctl_fabric.h"

const struct cmd_usage fabric_usage = {
	"mcctl fabric [ DEV/PORT ] [ --reconcile ] [ -j ] [ smkey KEY ]\n", 0,
	"the SA's groups and this port's memberships: ok, lost, stale;\n"
	"--reconcile re-joins lost groups and deletes the port's stale members;\n"
	"exit status: 0 all ok (or reconciled), 4 lost, 5 stale, 6 both,\n"
	"1 error, 2 usage error\n",
};

#define OPENSM_SA_KEY		1ULL
#define SA_STATUS_REQ_DENIED	7	/* class status, MAD status bits 8..15 */

struct fabric_opts {
	char dev[IBMCG_DEV_NAME_MAX];	/* "" every InfiniBand port */
	uint32_t port;
	bool reconcile;
	uint64_t smkey;
};

static const char *gid_str(const uint8_t *gid, char *buf)
{
	return ibmcg_gid_format(gid, buf, IBMCG_MGID_STRLEN);
}

static const char *js_str(uint8_t js, char *buf)
{
	if (!js)
		return "none";
	return ibmcg_join_state_format(js, buf, IBMCG_JOIN_STATE_STRLEN);
}

static void sa_err(const char *dev, uint32_t port, const char *what, int rc,
		   uint16_t status)
{
	if (rc == -ETIMEDOUT)
		fprintf(stderr, "mcctl: %s/%u: the SA did not answer %s\n",
			dev, port, what);
	else if (rc)
		fprintf(stderr, "mcctl: %s/%u: %s: %s\n", dev, port, what,
			strerror(-rc));
	else
		fprintf(stderr, "mcctl: %s/%u: the SA refused %s: MAD status 0x%04x\n",
			dev, port, what, status);
}

static void print_groups(const struct fabric_group *g, size_t n,
			 bool trusted)
{
	char mgid[IBMCG_MGID_STRLEN], js[IBMCG_JOIN_STATE_STRLEN];
	size_t i;

	open_json_array("groups");
	for (i = 0; i < n; i++) {
		open_json_object(NULL);
		print_string(PRINT_ANY, "mgid", "  group %s",
			     gid_str(g[i].mgid, mgid));
		print_uint(PRINT_ANY, "mlid", " mlid 0x%04x", g[i].mlid);
		print_uint(PRINT_ANY, "pkey", " pkey 0x%04x", g[i].pkey);
		if (trusted) {
			print_uint(PRINT_ANY, "members", " members %u",
				   g[i].members);
			print_string(PRINT_ANY, "join_state", " join %s",
				     js_str(g[i].join_state, js));
		}
		print_nl();
		close_json_object();
	}
	close_json_array();
}

static void print_items(const struct fabric_item *it, size_t n)
{
	char mgid[IBMCG_MGID_STRLEN], js[IBMCG_JOIN_STATE_STRLEN];
	const char *state;
	size_t i;

	open_json_array("memberships");
	for (i = 0; i < n; i++) {
		open_json_object(NULL);
		print_string(PRINT_ANY, "class", "  %-7s",
			     fabric_class_name(it[i].cls));
		print_string(PRINT_ANY, "mgid", " %s",
			     gid_str(it[i].mgid, mgid));
		if (it[i].state) {
			state = ibmcg_state_name(it[i].state);
			print_string(PRINT_ANY, "held", " held %s",
				     js_str(it[i].held_js, js));
			print_string(PRINT_ANY, "state", " state %s",
				     state ? state : "?");
		}
		if (it[i].at_sa) {
			print_string(PRINT_ANY, "sa_join_state", " sa %s",
				     js_str(it[i].sa_js, js));
			print_uint(PRINT_ANY, "mlid", " mlid 0x%04x",
				   it[i].mlid);
		} else {
			print_fp(" sa none");
		}
		print_nl();
		close_json_object();
	}
	close_json_array();
}

static void print_counts(const size_t counts[FABRIC_NCLASS])
{
	char fmt[32];
	int c;

	open_json_object("counts");
	print_fp("  summary");
	for (c = 0; c < FABRIC_NCLASS; c++) {
		snprintf(fmt, sizeof(fmt), " %s %%u", fabric_class_name(c));
		print_uint(PRINT_ANY, fabric_class_name(c), fmt, counts[c]);
	}
	print_nl();
	close_json_object();
}

/* One action of reconcile, printed; false if it failed. */
static bool print_action(const char *action, const uint8_t *mgid,
			 const char *result, bool ok)
{
	char buf[IBMCG_MGID_STRLEN];

	open_json_object(NULL);
	print_string(PRINT_ANY, "action", "  %-7s", action);
	print_string(PRINT_ANY, "mgid", " %s", gid_str(mgid, buf));
	print_flag(PRINT_JSON, "ok", NULL, ok);
	print_string(PRINT_ANY, "result", ": %s", result);
	print_nl();
	close_json_object();
	return ok;
}

/* Lost: the module joins it again (REJOIN), keeping the holders. */
static bool rejoin_lost(struct ibmcg *h, const char *dev, uint32_t port,
			const struct fabric_item *it)
{
	struct ibmcg_group *g;
	char res[128];
	const char *msg, *state;
	int err;

	err = ibmcg_rejoin(h, dev, port, it->mgid, &g);
	if (err) {
		msg = ibmcg_errmsg(h);
		if (err == -EOPNOTSUPP && !msg)
			msg = "the ib_mcgroups module is too old to re-join on request";
		return print_action("rejoin", it->mgid,
				    msg ? msg : strerror(-err), false);
	}
	state = ibmcg_state_name(g->state);
	snprintf(res, sizeof(res), "requested, state %s",
		 state ? state : "?");
	ibmcg_group_free(g);
	return print_action("rejoin", it->mgid, res, true);
}

/*
 * Stale: an SA Delete of exactly this port's member record (its MGID,
 * the PortGID the SA has for this port, its JoinState). Never another
 * port's: the classification only makes stale items of records with the
 * port's GUID, and that is checked once more here.
 */
static bool delete_stale(struct fabric_sa *sa, const uint8_t *port_gid,
			 const struct fabric_item *it)
{
	char res[64];
	uint16_t status;
	int rc;

	if (!fabric_same_port(it->sa_port_gid, port_gid) || !it->sa_js)
		return print_action("delete", it->mgid,
				    "not this port's record", false);
	rc = fabric_sa_mcm_delete(sa, it->mgid, it->sa_port_gid, it->sa_js,
				  &status);
	if (rc == -ETIMEDOUT)
		return print_action("delete", it->mgid,
				    "the SA did not answer", false);
	if (rc)
		return print_action("delete", it->mgid, strerror(-rc), false);
	if (status) {
		snprintf(res, sizeof(res), "the SA refused: MAD status 0x%04x",
			 status);
		return print_action("delete", it->mgid, res, false);
	}
	return print_action("delete", it->mgid, "deleted", true);
}

/* The groups ib_mcgroups holds on the port (SA-assigned ones keyed). */
static int held_groups(struct ibmcg *h, const char *dev, uint32_t port,
		       struct fabric_held **out, size_t *nout)
{
	static const uint8_t zero[IBMCG_GID_LEN];
	struct ibmcg_group **groups;
	struct fabric_held *held;
	size_t i, n;
	int err;

	*nout = 0;
	err = ibmcg_group_dump(h, dev, port, &groups, &n);
	if (err)
		return err;
	held = calloc(n ? n : 1, sizeof(*held));
	if (!held) {
		ibmcg_groups_free(groups);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		if (!memcmp(groups[i]->mgid, zero, IBMCG_GID_LEN))
			continue;	/* waits for its MGID: joining */
		memcpy(held[*nout].mgid, groups[i]->mgid, IBMCG_GID_LEN);
		held[*nout].join_state = groups[i]->join_state;
		held[*nout].state = groups[i]->state;
		(*nout)++;
	}
	ibmcg_groups_free(groups);
	*out = held;
	return 0;
}

/*
 * The SA's member records (a trusted GetTable, SM_Key @smkey) into *recs.
 * An SA with another key refuses the request (simhca used to) or, as
 * OpenSM does, ignores it: either way the report goes on untrusted
 * (false), with the groups but no members. *ret is set on another error.
 */
static bool members_table(struct fabric_sa *sa, const char *dev,
			  uint32_t port, uint64_t smkey,
			  struct fabric_rec **recs, size_t *n, int *ret)
{
	uint16_t status = 0;
	int rc;

	*ret = 0;
	rc = fabric_sa_mcm_table(sa, smkey, recs, n, &status);
	if (!rc && !status)
		return true;
	free(*recs);
	*recs = NULL;
	*n = 0;
	if (rc == -ETIMEDOUT || (!rc && status >> 8 == SA_STATUS_REQ_DENIED)) {
		fprintf(stderr,
			"mcctl: %s/%u: the SA %s SM_Key 0x%llx: members and this port's memberships are unknown (smkey KEY)\n",
			dev, port, rc ? "did not answer a request with" : "refused",
			(unsigned long long)smkey);
		return false;
	}
	sa_err(dev, port, "GetTable(MCMemberRecord)", rc, status);
	*ret = EXIT_FAILURE;
	return false;
}

/*
 * One port: the report, and the actions of reconcile. Returns the exit
 * status of the port: 0, 1 (error), or EXIT_FABRIC_* (without reconcile).
 */
static int fabric_port(struct ibmcg *h, const char *dev, uint32_t port,
		       const struct fabric_opts *o)
{
	size_t nrecs = 0, ngrecs = 0, nheld = 0, counts[FABRIC_NCLASS] = {0}, i;
	char why[256], buf[IBMCG_MGID_STRLEN];
	struct fabric_group *groups = NULL;
	struct fabric_item *items = NULL;
	struct fabric_held *held = NULL;
	struct fabric_rec *recs = NULL, *grecs = NULL;
	uint8_t port_gid[IBMCG_GID_LEN];
	struct fabric_sa *sa;
	uint16_t sm_lid, status;
	uint32_t cap = 0;
	bool trusted, ok = true;
	long ng = 0, ni = 0;
	int rc, ret = 0;

	sa = fabric_sa_open(dev, port, why, sizeof(why));
	if (!sa) {
		fprintf(stderr, "mcctl: %s/%u: %s\n", dev, port, why);
		return EXIT_FAILURE;
	}
	fabric_sa_port(sa, port_gid, &sm_lid);
	rc = held_groups(h, dev, port, &held, &nheld);
	if (rc) {
		ret = mcctl_kernel_err(rc, "no such device or port");
		goto out;
	}
	/* The groups: one record each, those without members too. */
	rc = fabric_sa_mcm_table(sa, 0, &grecs, &ngrecs, &status);
	if (rc || status) {
		sa_err(dev, port, "GetTable(MCMemberRecord)", rc, status);
		ret = EXIT_FAILURE;
		goto out;
	}
	/* Their members: a record each, only for a trusted request. */
	trusted = o->smkey && members_table(sa, dev, port, o->smkey, &recs,
					    &nrecs, &ret);
	if (ret)
		goto out;
	ng = fabric_groups(grecs, ngrecs, recs, nrecs, &groups);
	if (ng < 0) {
		ret = mcctl_kernel_err(ng, NULL);
		goto out;
	}
	/* No SwitchInfoRecords (or an error): the capacity is unknown. */
	if (fabric_sa_mfdb_cap(sa, trusted ? o->smkey : 0, &cap, &status) ||
	    status)
		cap = 0;

	open_json_object(NULL);
	print_string(PRINT_ANY, "dev", "%s", dev);
	print_uint(PRINT_ANY, "port", "/%u", port);
	print_string(PRINT_ANY, "port_gid", " port_gid %s",
		     gid_str(port_gid, buf));
	print_uint(PRINT_ANY, "sm_lid", " sm_lid %u", sm_lid);
	print_flag(PRINT_JSON, "trusted", NULL, trusted);
	print_nl();
	print_uint(PRINT_ANY, "sa_groups", "  sa groups %u", ng);
	print_uint(PRINT_ANY, "mlids_used", " mlids %u",
		   fabric_mlids_used(groups, ng));
	if (cap)
		print_uint(PRINT_ANY, "mlid_capacity", " of %u",
			   cap < FABRIC_MLID_SPACE ? cap : FABRIC_MLID_SPACE);
	else
		print_fp(" of unknown capacity");
	print_uint(PRINT_ANY, "mlid_space", " (mlid space %u)",
		   FABRIC_MLID_SPACE);
	print_nl();
	print_groups(groups, ng, trusted);

	if (!trusted) {
		close_json_object();
		ret = EXIT_FAILURE;
		goto out;
	}
	ni = fabric_classify(recs, nrecs, port_gid, held, nheld, &items,
			     counts);
	if (ni < 0) {
		close_json_object();
		ret = mcctl_kernel_err(ni, NULL);
		goto out;
	}
	print_items(items, ni);
	print_counts(counts);
	if (o->reconcile) {
		open_json_array("actions");
		for (i = 0; i < (size_t)ni; i++) {
			if (items[i].cls == FABRIC_LOST)
				ok &= rejoin_lost(h, dev, port, &items[i]);
			else if (items[i].cls == FABRIC_STALE)
				ok &= delete_stale(sa, port_gid, &items[i]);
		}
		close_json_array();
		ret = ok ? 0 : EXIT_FAILURE;
	} else {
		ret = fabric_exit_status(counts);
	}
	close_json_object();
out:
	free(items);
	free(groups);
	free(recs);
	free(grecs);
	free(held);
	fabric_sa_close(sa);
	return ret;
}

/* The worse of two exit statuses: errors, then lost+stale, lost, stale. */
static int worse(int a, int b)
{
	if (a == EXIT_FAILURE || b == EXIT_FAILURE)
		return EXIT_FAILURE;
	if ((a == EXIT_FABRIC_LOST && b == EXIT_FABRIC_STALE) ||
	    (a == EXIT_FABRIC_STALE && b == EXIT_FABRIC_LOST))
		return EXIT_FABRIC_BOTH;
	return a > b ? a : b;
}

static int parse_fabric(int argc, char **argv, struct fabric_opts *o)
{
	bool json = false;
	uint32_t key;

	memset(o, 0, sizeof(*o));
	o->smkey = OPENSM_SA_KEY;
	for (; argc > 0; argc--, argv++) {
		if (!strcmp(*argv, "--reconcile") ||
		    ibmcg__matches(*argv, "reconcile")) {
			o->reconcile = true;
		} else if (!strcmp(*argv, "-j") || !strcmp(*argv, "--json")) {
			json = true;
		} else if (ibmcg__matches(*argv, "smkey")) {
			if (argc < 2)
				return usage_err("mcctl: smkey needs a value");
			argc--, argv++;
			if (ibmcg__parse_u32(*argv, &key))
				return usage_err("mcctl: bad smkey '%s'",
						 *argv);
			o->smkey = key;
		} else if (strchr(*argv, '/') && !o->dev[0]) {
			if (parse_devport(*argv, o->dev, &o->port, false))
				return EXIT_USAGE;
		} else {
			return unknown_param(*argv);
		}
	}
	if (json && !is_json_context())
		json_print_init(stdout, true, false);
	return 0;
}

int cmd_fabric(int argc, char **argv)
{
	struct ibmcg_port **ports = NULL, *one = NULL;
	struct fabric_opts o;
	struct ibmcg *h;
	size_t i, n = 0, nib = 0;
	int err, ret = 0;

	err = parse_fabric(argc, argv, &o);
	if (err)
		return err;
	h = mcctl_handle(&err);
	if (!h)
		return err;
	if (o.dev[0]) {
		err = ibmcg_port_get(h, o.dev, o.port, &one);
		ports = &one;
		n = 1;
	} else {
		err = ibmcg_port_dump(h, NULL, &ports, &n);
	}
	if (err) {
		if (!o.dev[0])
			ibmcg_ports_free(ports);
		return mcctl_kernel_err(err, "no such device or port");
	}

	open_json_array(NULL);
	for (i = 0; i < n; i++) {
		if (ports[i]->backend != IB_MCG_BACKEND_IB_SA) {
			if (o.dev[0]) {
				fprintf(stderr,
					"mcctl: %s/%u is not an InfiniBand port: fabric reads the InfiniBand SA\n",
					o.dev, o.port);
				ret = EXIT_FAILURE;
			}
			continue;
		}
		nib++;
		ret = worse(ret, fabric_port(h, ports[i]->dev_name,
					     ports[i]->port, &o));
	}
	close_json_array();
	if (o.dev[0])
		ibmcg_port_free(one);
	else
		ibmcg_ports_free(ports);
	if (!o.dev[0] && !nib) {
		fprintf(stderr, "mcctl: no InfiniBand port\n");
		ret = EXIT_FAILURE;
	}
	err = mcctl_finish_output();
	return err ? err : ret;
}
