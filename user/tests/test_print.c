// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Unit tests of mcctl's printers: text and JSON output of fake groups,
 * ports and events, captured with open_memstream().
 */
#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include <json-c/json.h>

/* Builds groups and ports itself: the library's whole structures. */
#include "ibmcg_priv.h"
#include "mcctl.h"
#include "ktap.h"

static struct ibmcg_holder fake_holders[] = {
	{ .owner = "job:42", .join_state = IB_MCG_JOIN_FULL,
	  .flags = IB_MCG_F_BOUND, .nl_portid = 4242, .age_ms = 12345 },
	{ .owner = "admin", .join_state = IB_MCG_JOIN_SENDONLY_NON_MEMBER,
	  .age_ms = 3723000 },
};

#define A(x)	(1ULL << IB_MCG_A_##x)

static void fake_group(struct ibmcg_group *g, bool record)
{
	memset(g, 0, sizeof(*g));
	g->present[0] = A(DEV_NAME) | A(DEV_INDEX) | A(PORT) | A(MGID) |
		     A(STATE) | A(REASON) | A(ERROR) | A(JOIN_STATE) |
		     A(BACKEND) | A(HOLDERS);
	strcpy(g->dev_name, "mlx5_0");
	g->dev_index = 3;
	g->port = 1;
	ibmcg_mgid_parse("239.1.1.1", g->mgid, NULL);
	g->state = IB_MCG_STATE_JOINED;
	g->reason = IB_MCG_REASON_JOIN;
	g->join_state = IB_MCG_JOIN_FULL | IB_MCG_JOIN_SENDONLY_NON_MEMBER;
	g->backend = IB_MCG_BACKEND_ROCE;
	g->nholders = 2;
	g->holders = fake_holders;
	if (!record)
		return;
	g->present[0] |= A(MLID) | A(QKEY) | A(PKEY) | A(MTU) | A(RATE) | A(SL) |
		      A(FLOW_LABEL) | A(TCLASS) | A(HOP_LIMIT) | A(PORT_GID) |
		      A(SGID_INDEX);
	g->mlid = 0;
	g->qkey = IB_MCG_DEFAULT_QKEY;
	g->pkey = 0xffff;
	g->mtu = 4;
	g->rate = 16;
	g->sl = 0;
	g->flow_label = 0;
	g->tclass = 0;
	g->hop_limit = 64;
	ibmcg_mgid_parse("ff0e::1", g->port_gid, NULL);	/* any GID */
	g->port_gid[0] = 0xfe;
	g->port_gid[1] = 0x80;
	g->sgid_index = 3;
}

static void fake_port(struct ibmcg_port *p, uint32_t groups, uint32_t max)
{
	memset(p, 0, sizeof(*p));
	p->present[0] = A(DEV_NAME) | A(DEV_INDEX) | A(PORT) | A(LINK_LAYER) |
		     A(PORT_STATE) | A(BACKEND) | A(NETDEV) | A(IFINDEX) |
		     A(MAX_MCAST_GRP) | A(GROUPS) | A(HOLDER_COUNT) |
		     A(JOINS) | A(LEAVES) | A(JOIN_ERRORS);
	strcpy(p->dev_name, "rxe0");
	p->dev_index = 2;
	p->port = 1;
	p->link_layer = IB_MCG_LINK_LAYER_ETHERNET;
	p->port_state = 4;
	p->backend = IB_MCG_BACKEND_ROCE;
	strcpy(p->netdev, "veth0");
	p->ifindex = 9;
	p->max_mcast_grp = max;
	p->max_mcast_qp_attach = 56;
	p->max_total_mcast_qp_attach = 458752;
	p->groups = groups;
	p->holder_count = 30;
	p->joins = 45;
	p->leaves = 33;
	p->join_errors = 1;
}

/* Capture what a printer writes. */
struct capture {
	FILE *fp;
	char *buf;
	size_t len;
};

static void cap_start(struct capture *c, bool json, bool pretty)
{
	c->buf = NULL;
	c->fp = open_memstream(&c->buf, &c->len);
	json_print_init(c->fp, json, pretty);
}

static const char *cap_end(struct capture *c)
{
	EXPECT(json_print_end() == 0);
	fclose(c->fp);
	return c->buf;
}

static json_object *parse_json(const char *s)
{
	json_object *o = json_tokener_parse(s);

	EXPECT(o != NULL);
	return o;
}

static const char *jstr(json_object *o, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v))
		return "(missing)";
	return json_object_get_string(v);
}

static int64_t jint(json_object *o, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v))
		return -12345;
	return json_object_get_int64(v);
}

static void group_line_text(void)
{
	struct ibmcg_group g;
	struct capture c;

	fake_group(&g, false);
	cap_start(&c, false, false);
	print_group_line(&g);
	EXPECT_STR(cap_end(&c),
		   "mlx5_0/1 group 239.1.1.1 state joined join_state full,sendonly"
		   " holders 2 job:42(full,bound) admin(sendonly)\n");
	free(c.buf);
}

static void group_line_json(void)
{
	struct ibmcg_group g;
	struct capture c;

	fake_group(&g, false);
	cap_start(&c, true, false);
	open_json_array(NULL);
	print_group_line(&g);
	print_group_line(&g);
	close_json_array();
	EXPECT_STR(cap_end(&c),
		   "[{\"dev\":\"mlx5_0\",\"dev_index\":3,\"port\":1,"
		   "\"group\":\"239.1.1.1\",\"state\":\"joined\","
		   "\"join_state\":\"full,sendonly\",\"holder_count\":2,"
		   "\"holders\":[{\"owner\":\"job:42\",\"join_state\":\"full\","
		   "\"bound\":true},{\"owner\":\"admin\","
		   "\"join_state\":\"sendonly\",\"bound\":false}]},"
		   "{\"dev\":\"mlx5_0\",\"dev_index\":3,\"port\":1,"
		   "\"group\":\"239.1.1.1\",\"state\":\"joined\","
		   "\"join_state\":\"full,sendonly\",\"holder_count\":2,"
		   "\"holders\":[{\"owner\":\"job:42\",\"join_state\":\"full\","
		   "\"bound\":true},{\"owner\":\"admin\","
		   "\"join_state\":\"sendonly\",\"bound\":false}]}]\n");
	free(c.buf);
}

static void group_detail_text(void)
{
	struct ibmcg_group g;
	struct capture c;

	fake_group(&g, true);
	cap_start(&c, false, false);
	print_group_detail(&g);
	EXPECT_STR(cap_end(&c),
		   "mlx5_0/1 group 239.1.1.1 state joined reason join"
		   " join_state full,sendonly backend roce\n"
		   "    mgid ::ffff:239.1.1.1 mlid 0x0000 qkey 0x01234567"
		   " pkey 0xffff mtu 2048 rate 100Gbps sl 0 flow_label 0x00000"
		   " tclass 0 hop_limit 64\n"
		   "    port_gid fe80::1 sgid_index 3\n"
		   "    holder job:42 join_state full bound portid 4242"
		   " age 12.345s\n"
		   "    holder admin join_state sendonly age 1h02m03s\n");
	free(c.buf);
}

static void group_detail_json(void)
{
	json_object *o, *hs, *h0;
	struct ibmcg_group g;
	struct capture c;

	fake_group(&g, true);
	g.state = IB_MCG_STATE_RETRY_WAIT;
	g.reason = IB_MCG_REASON_TIMEOUT;
	g.error = ETIMEDOUT;
	cap_start(&c, true, false);
	print_group_detail(&g);
	o = parse_json(cap_end(&c));
	EXPECT_STR(jstr(o, "dev"), "mlx5_0");
	EXPECT(jint(o, "port") == 1);
	EXPECT_STR(jstr(o, "group"), "239.1.1.1");
	EXPECT_STR(jstr(o, "mgid"), "::ffff:239.1.1.1");
	EXPECT_STR(jstr(o, "state"), "retry-wait");
	EXPECT_STR(jstr(o, "reason"), "timeout");
	EXPECT(jint(o, "error") == ETIMEDOUT);
	EXPECT_STR(jstr(o, "backend"), "roce");
	EXPECT(jint(o, "mlid") == 0);
	EXPECT(jint(o, "qkey") == IB_MCG_DEFAULT_QKEY);
	EXPECT(jint(o, "pkey") == 0xffff);
	EXPECT(jint(o, "mtu") == 2048);
	EXPECT_STR(jstr(o, "rate"), "100Gbps");
	EXPECT(jint(o, "hop_limit") == 64);
	EXPECT_STR(jstr(o, "port_gid"), "fe80::1");
	EXPECT(jint(o, "sgid_index") == 3);
	EXPECT(jint(o, "holder_count") == 2);
	EXPECT(json_object_object_get_ex(o, "holders", &hs) &&
	       json_object_array_length(hs) == 2);
	h0 = json_object_array_get_idx(hs, 0);
	EXPECT_STR(jstr(h0, "owner"), "job:42");
	EXPECT_STR(jstr(h0, "bound"), "true");
	EXPECT(jint(h0, "portid") == 4242);
	EXPECT(jint(h0, "age_ms") == 12345);
	EXPECT(jint(json_object_array_get_idx(hs, 1), "portid") == -12345);
	json_object_put(o);
	free(c.buf);
}

static void group_detail_no_record(void)
{
	struct ibmcg_group g;
	struct capture c;

	fake_group(&g, false);
	g.state = IB_MCG_STATE_RETRY_WAIT;
	g.reason = IB_MCG_REASON_TIMEOUT;
	g.error = ETIMEDOUT;
	g.nholders = 0;
	cap_start(&c, false, false);
	print_group_detail(&g);
	EXPECT_STR(cap_end(&c),
		   "mlx5_0/1 group 239.1.1.1 state retry-wait reason timeout"
		   " error 110 (Connection timed out) join_state full,sendonly"
		   " backend roce\n"
		   "    mgid ::ffff:239.1.1.1\n");
	free(c.buf);
}

static void port_text(void)
{
	struct ibmcg_port p;
	struct capture c;

	fake_port(&p, 12, 8192);
	cap_start(&c, false, false);
	print_port(&p);
	EXPECT_STR(cap_end(&c),
		   "rxe0/1 link_layer Ethernet state ACTIVE backend roce"
		   " netdev veth0\n"
		   "    groups 12 holders 30 joins 45 leaves 33 join_errors 1"
		   " mcast_table 12/8192 (0%)\n");
	free(c.buf);
}

static void port_text_warning(void)
{
	struct ibmcg_port p;
	struct capture c;

	fake_port(&p, 8, 10);
	p.present[0] &= ~(A(NETDEV) | A(IFINDEX));
	p.netdev[0] = '\0';
	p.link_layer = IB_MCG_LINK_LAYER_INFINIBAND;
	p.backend = IB_MCG_BACKEND_IB_SA;
	cap_start(&c, false, false);
	print_port(&p);
	EXPECT_STR(cap_end(&c),
		   "rxe0/1 link_layer InfiniBand state ACTIVE backend ib-sa\n"
		   "    groups 8 holders 30 joins 45 leaves 33 join_errors 1"
		   " mcast_table 8/10 (80%) WARNING\n");
	free(c.buf);

	fake_port(&p, 7, 10);
	cap_start(&c, false, false);
	print_port(&p);
	EXPECT(!strstr(cap_end(&c), "WARNING"));
	free(c.buf);

	/* HCA reports no limit */
	fake_port(&p, 5, 0);
	cap_start(&c, false, false);
	print_port(&p);
	EXPECT(strstr(cap_end(&c), " mcast_table 5/-\n") != NULL);
	free(c.buf);
}

static void port_json(void)
{
	json_object *o, *arr, *t;
	struct ibmcg_port p;
	struct capture c;

	fake_port(&p, 0xfffffff0, 0xffffffff);	/* no overflow */
	p.joins = 1ULL << 40;
	cap_start(&c, true, false);
	open_json_array(NULL);
	print_port(&p);
	close_json_array();
	arr = parse_json(cap_end(&c));
	EXPECT(json_object_array_length(arr) == 1);
	o = json_object_array_get_idx(arr, 0);
	EXPECT_STR(jstr(o, "dev"), "rxe0");
	EXPECT(jint(o, "dev_index") == 2);
	EXPECT_STR(jstr(o, "link_layer"), "Ethernet");
	EXPECT_STR(jstr(o, "port_state"), "ACTIVE");
	EXPECT_STR(jstr(o, "netdev"), "veth0");
	EXPECT(jint(o, "ifindex") == 9);
	EXPECT(jint(o, "groups") == 0xfffffff0);
	EXPECT(jint(o, "holder_count") == 30);
	EXPECT(jint(o, "joins") == 1LL << 40);
	EXPECT(jint(o, "max_mcast_qp_attach") == 56);
	EXPECT(json_object_object_get_ex(o, "mcast_table", &t));
	EXPECT(jint(t, "used") == 0xfffffff0);
	EXPECT(jint(t, "max") == 0xffffffff);
	EXPECT(jint(t, "percent") == 99);
	EXPECT_STR(jstr(t, "warning"), "true");
	json_object_put(arr);
	free(c.buf);
}

static void event_text(void)
{
	struct ibmcg_event ev;
	struct ibmcg_group eg;
	struct ibmcg_port ep;
	struct capture c;

	memset(&ev, 0, sizeof(ev));	/* a group event */
	memset(&eg, 0, sizeof(eg));
	memset(&ep, 0, sizeof(ep));
	ev.group = &eg;
	fake_group(&eg, false);
	ev.cmd = IB_MCG_CMD_HOLDER_NEW_NTF;
	eg.nholders = 1;
	cap_start(&c, false, false);
	print_event(&ev);
	ev.cmd = IB_MCG_CMD_GROUP_DEL_NTF;
	eg.state = IB_MCG_STATE_RELEASED;
	eg.reason = IB_MCG_REASON_SOCKET_CLOSED;
	eg.nholders = 0;
	print_event(&ev);
	ev.cmd = 42;
	eg.state = 77;
	eg.present[0] &= ~A(HOLDERS);
	print_event(&ev);
	EXPECT_STR(cap_end(&c),
		   "[holder-new] mlx5_0/1 group 239.1.1.1 state joined"
		   " reason join holder job:42(full,bound)\n"
		   "[group-del] mlx5_0/1 group 239.1.1.1 state released"
		   " reason socket-closed join_state full,sendonly holders 0\n"
		   "[unknown(42)] mlx5_0/1 group 239.1.1.1 state unknown(77)"
		   " reason socket-closed join_state full,sendonly\n");
	free(c.buf);
}

static void event_json_lines(void)
{
	struct ibmcg_event ev;
	struct ibmcg_group eg;
	struct ibmcg_port ep;
	struct capture c;

	memset(&ev, 0, sizeof(ev));	/* a group event */
	memset(&eg, 0, sizeof(eg));
	memset(&ep, 0, sizeof(ep));
	ev.group = &eg;
	fake_group(&eg, false);
	ev.cmd = IB_MCG_CMD_HOLDER_DEL_NTF;
	eg.nholders = 1;
	cap_start(&c, true, false);
	print_event(&ev);
	ev.cmd = IB_MCG_CMD_GROUP_NEW_NTF;
	print_event(&ev);
	/* one JSON document per line */
	EXPECT_STR(cap_end(&c),
		   "{\"event\":\"holder-del\",\"dev\":\"mlx5_0\",\"dev_index\":3,"
		   "\"port\":1,\"group\":\"239.1.1.1\",\"state\":\"joined\","
		   "\"reason\":\"join\",\"holder\":{\"owner\":\"job:42\","
		   "\"join_state\":\"full\",\"bound\":true}}\n"
		   "{\"event\":\"group-new\",\"dev\":\"mlx5_0\",\"dev_index\":3,"
		   "\"port\":1,\"group\":\"239.1.1.1\",\"state\":\"joined\","
		   "\"reason\":\"join\",\"join_state\":\"full,sendonly\","
		   "\"holder_count\":1}\n");
	free(c.buf);
}

static void json_escaping(void)
{
	struct ibmcg_holder ho = { .owner = "we\"ird\\ow/ner", .join_state = 1 };
	json_object *arr, *hs;
	struct ibmcg_group g;
	struct capture c;
	const char *out;

	fake_group(&g, false);
	g.holders = &ho;
	g.nholders = 1;
	cap_start(&c, true, false);
	open_json_array(NULL);
	print_group_line(&g);
	close_json_array();
	out = cap_end(&c);
	EXPECT(strstr(out, "\"we\\\"ird\\\\ow/ner\"") != NULL);
	arr = parse_json(out);
	json_object_object_get_ex(json_object_array_get_idx(arr, 0),
				  "holders", &hs);
	EXPECT_STR(jstr(json_object_array_get_idx(hs, 0), "owner"),
		   "we\"ird\\ow/ner");
	json_object_put(arr);
	free(c.buf);
}

static void json_pretty(void)
{
	struct ibmcg_group g;
	struct capture c;
	const char *out;
	json_object *o;

	fake_group(&g, true);
	cap_start(&c, true, true);
	print_group_detail(&g);
	out = cap_end(&c);
	EXPECT(!strncmp(out, "{\n  \"dev\": \"mlx5_0\",\n", 21));
	o = parse_json(out);
	EXPECT(jint(o, "qkey") == IB_MCG_DEFAULT_QKEY);
	json_object_put(o);
	free(c.buf);
}

/* A document with every kind of value, nested and empty containers. */
static void every_kind_document(void)
{
	open_json_array(NULL);
	open_json_object(NULL);
	print_string(PRINT_ANY, "dev", NULL, "mlx5_0/\"q\"\\\t\x01");
	print_uint(PRINT_ANY, "port", NULL, 4294967295U);
	print_u64(PRINT_ANY, "joins", NULL, UINT64_MAX);
	print_flag(PRINT_ANY, "bound", NULL, true);
	print_flag(PRINT_ANY, "linger", NULL, false);
	open_json_object("empty");
	close_json_object();
	open_json_array("none");
	close_json_array();
	open_json_array("holders");
	print_uint(PRINT_ANY, NULL, NULL, 0);
	open_json_object(NULL);
	print_string(PRINT_ANY, "owner", NULL, "job:42");
	open_json_array("deep");
	open_json_array(NULL);
	close_json_array();
	close_json_array();
	close_json_object();
	close_json_array();
	close_json_object();
	open_json_object(NULL);
	close_json_object();
	close_json_array();
}

/*
 * -p writes what json-c wrote when mcctl printed through it (pretty,
 * spaced, "/" not escaped): a document with every kind of value, nested
 * containers, empty ones and escapes, against json-c's serialization of
 * the same document parsed back.
 */
static void json_pretty_as_json_c(void)
{
	const int flags = JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
			  JSON_C_TO_STRING_NOSLASHESCAPE;
	struct capture c;
	json_object *o;
	char *plain;

	cap_start(&c, true, false);
	every_kind_document();
	plain = strdup(cap_end(&c));
	free(c.buf);

	cap_start(&c, true, true);
	every_kind_document();
	cap_end(&c);

	o = parse_json(plain);
	if (o) {
		char *want;

		EXPECT(asprintf(&want, "%s\n",
				json_object_to_json_string_ext(o, flags)) > 0);
		EXPECT_STR(c.buf, want);
		free(want);
		json_object_put(o);
	}
	free(plain);
	free(c.buf);
}

/* A group that lost its last holder and keeps its membership for 30 s. */
static void fake_lingering(struct ibmcg_group *g, bool record)
{
	fake_group(g, record);
	g->present[0] |= A(LINGER_MS) | A(LINGER_LEFT_MS);
	g->state = IB_MCG_STATE_LINGERING;
	g->reason = IB_MCG_REASON_LEAVE;
	g->join_state = IB_MCG_JOIN_FULL;
	g->linger_ms = 30000;
	g->linger_left_ms = 12345;
	g->nholders = 0;
	g->holders = NULL;
}

static void group_line_lingering(void)
{
	struct ibmcg_group g;
	struct capture c;
	json_object *arr, *o;

	fake_lingering(&g, false);
	cap_start(&c, false, false);
	print_group_line(&g);
	EXPECT_STR(cap_end(&c),
		   "mlx5_0/1 group 239.1.1.1 state lingering linger_left 12.3s"
		   " linger 30s join_state full holders 0\n");
	free(c.buf);

	cap_start(&c, true, false);
	open_json_array(NULL);
	print_group_line(&g);
	close_json_array();
	arr = parse_json(cap_end(&c));
	o = json_object_array_get_idx(arr, 0);
	EXPECT_STR(jstr(o, "state"), "lingering");
	EXPECT(jint(o, "linger_ms") == 30000);
	EXPECT(jint(o, "linger_left_ms") == 12345);
	EXPECT(jint(o, "holder_count") == 0);
	json_object_put(arr);
	free(c.buf);
}

static void group_detail_lingering(void)
{
	struct ibmcg_group g;
	struct capture c;
	json_object *o;

	fake_lingering(&g, true);
	cap_start(&c, false, false);
	print_group_detail(&g);
	EXPECT_STR(cap_end(&c),
		   "mlx5_0/1 group 239.1.1.1 state lingering reason leave"
		   " linger_left 12.3s linger 30s join_state full backend roce\n"
		   "    mgid ::ffff:239.1.1.1 mlid 0x0000 qkey 0x01234567"
		   " pkey 0xffff mtu 2048 rate 100Gbps sl 0 flow_label 0x00000"
		   " tclass 0 hop_limit 64\n"
		   "    port_gid fe80::1 sgid_index 3\n");
	free(c.buf);

	cap_start(&c, true, false);
	print_group_detail(&g);
	o = parse_json(cap_end(&c));
	EXPECT_STR(jstr(o, "state"), "lingering");
	EXPECT_STR(jstr(o, "reason"), "leave");
	EXPECT(jint(o, "linger_ms") == 30000);
	EXPECT(jint(o, "linger_left_ms") == 12345);
	EXPECT(jint(o, "qkey") == IB_MCG_DEFAULT_QKEY);
	json_object_put(o);
	free(c.buf);
}

/*
 * A lingering group whose membership is being joined again (an SM
 * failover): the link state in brackets after the state, in JSON always.
 * A joined one, or a kernel that does not send it, shows none.
 */
static void group_lingering_link_state(void)
{
	struct ibmcg_group g;
	struct capture c;
	json_object *o;

	fake_lingering(&g, false);
	cap_start(&c, false, false);
	print_group_line(&g);
	EXPECT(!strstr(cap_end(&c), "lingering ("));
	free(c.buf);

	g.present[0] |= A(LINK_STATE);
	g.link_state = IB_MCG_STATE_JOINED;
	cap_start(&c, false, false);
	print_group_line(&g);
	EXPECT(!strstr(cap_end(&c), "lingering ("));
	free(c.buf);

	g.link_state = IB_MCG_STATE_RETRY_WAIT;
	cap_start(&c, false, false);
	print_group_line(&g);
	EXPECT_STR(cap_end(&c),
		   "mlx5_0/1 group 239.1.1.1 state lingering (retry-wait)"
		   " linger_left 12.3s linger 30s join_state full holders 0\n");
	free(c.buf);

	cap_start(&c, true, false);
	print_group_detail(&g);
	o = parse_json(cap_end(&c));
	EXPECT_STR(jstr(o, "state"), "lingering");
	EXPECT_STR(jstr(o, "link_state"), "retry-wait");
	json_object_put(o);
	free(c.buf);
}

static void group_linger_time(void)
{
	static const struct {
		uint32_t ms;
		const char *text;
	} cases[] = {
		{ 1500, " linger 1500ms" }, { 1000, " linger 1s" },
		{ 120000, " linger 2m" }, { 90000, " linger 90s" },
		{ IB_MCG_LINGER_MAX_MS, " linger 1440m" },
	};
	struct ibmcg_group g;
	struct capture c;
	json_object *o;
	const char *out;
	size_t i;

	/* joined: the linger time only, no time left */
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fake_group(&g, false);
		g.present[0] |= A(LINGER_MS);
		g.linger_ms = cases[i].ms;
		cap_start(&c, false, false);
		print_group_line(&g);
		out = cap_end(&c);
		EXPECT(strstr(out, cases[i].text) != NULL);
		EXPECT(strstr(out, "linger_left") == NULL);
		if (!strstr(out, cases[i].text))
			ktap_print_str("out", out);
		free(c.buf);
	}

	/* none: nothing in text, 0 in JSON */
	fake_group(&g, false);
	g.present[0] |= A(LINGER_MS);
	cap_start(&c, false, false);
	print_group_detail(&g);
	EXPECT(strstr(cap_end(&c), "linger") == NULL);
	free(c.buf);
	cap_start(&c, true, false);
	print_group_detail(&g);
	o = parse_json(cap_end(&c));
	EXPECT(jint(o, "linger_ms") == 0);
	EXPECT(jint(o, "linger_left_ms") == -12345);
	json_object_put(o);
	free(c.buf);

	/* an older kernel: no key at all */
	fake_group(&g, false);
	cap_start(&c, true, false);
	print_group_detail(&g);
	o = parse_json(cap_end(&c));
	EXPECT(jint(o, "linger_ms") == -12345);
	json_object_put(o);
	free(c.buf);
}

static void linger_left_format(void)
{
	static const struct {
		uint32_t ms;
		const char *text;
	} cases[] = {
		{ 0, " linger_left 0.0s " }, { 999, " linger_left 0.9s " },
		{ 59999, " linger_left 59.9s " },
		{ 60000, " linger_left 1m00s " },
		{ 3599999, " linger_left 59m59s " },
		{ 3723000, " linger_left 1h02m03s " },
		{ IB_MCG_LINGER_MAX_MS, " linger_left 24h00m00s " },
	};
	struct ibmcg_group g;
	struct capture c;
	const char *out;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fake_lingering(&g, false);
		g.linger_left_ms = cases[i].ms;
		cap_start(&c, false, false);
		print_group_line(&g);
		out = cap_end(&c);
		if (!strstr(out, cases[i].text)) {
			ktap_case_ok = false;
			ktap_print_str("got ", out);
			ktap_print_str("want", cases[i].text);
		}
		free(c.buf);
	}
}

static void event_lingering(void)
{
	struct ibmcg_event ev;
	struct ibmcg_group eg;
	struct ibmcg_port ep;
	struct capture c;

	memset(&ev, 0, sizeof(ev));	/* a group event */
	memset(&eg, 0, sizeof(eg));
	memset(&ep, 0, sizeof(ep));
	ev.group = &eg;
	fake_lingering(&eg, false);
	ev.cmd = IB_MCG_CMD_GROUP_STATE_NTF;
	eg.linger_left_ms = 30000;
	cap_start(&c, false, false);
	print_event(&ev);
	ev.cmd = IB_MCG_CMD_GROUP_DEL_NTF;
	eg.present[0] &= ~A(LINGER_LEFT_MS);
	eg.state = IB_MCG_STATE_RELEASED;
	eg.reason = IB_MCG_REASON_LINGER_EXPIRED;
	print_event(&ev);
	ev.cmd = IB_MCG_CMD_HOLDER_DEL_NTF;
	eg.state = IB_MCG_STATE_JOINED;
	eg.reason = IB_MCG_REASON_OWNER_RELEASE;
	eg.holders = fake_holders;
	eg.nholders = 1;
	print_event(&ev);
	EXPECT_STR(cap_end(&c),
		   "[group-state] mlx5_0/1 group 239.1.1.1 state lingering"
		   " reason leave linger_left 30.0s join_state full holders 0\n"
		   "[group-del] mlx5_0/1 group 239.1.1.1 state released"
		   " reason linger-expired join_state full holders 0\n"
		   "[holder-del] mlx5_0/1 group 239.1.1.1 state joined"
		   " reason owner-release holder job:42(full,bound)\n");
	free(c.buf);
}

static void fake_port_limits(struct ibmcg_port *p, uint32_t max_groups,
			     uint32_t max_owner_holds)
{
	fake_port(p, 12, 8192);
	p->present[0] |= A(LINGER_HITS) | A(LINGER_EXPIRED) | A(MAX_GROUPS) |
		      A(MAX_OWNER_HOLDS);
	p->linger_hits = 7;
	p->linger_expired = 1ULL << 40;
	p->max_groups = max_groups;
	p->max_owner_holds = max_owner_holds;
}

static void port_limits_text(void)
{
	struct ibmcg_port p;
	struct capture c;

	fake_port_limits(&p, 1000, 0);
	cap_start(&c, false, false);
	print_port(&p);
	EXPECT_STR(cap_end(&c),
		   "rxe0/1 link_layer Ethernet state ACTIVE backend roce"
		   " netdev veth0\n"
		   "    groups 12 holders 30 joins 45 leaves 33 join_errors 1"
		   " mcast_table 12/8192 (0%)\n"
		   "    linger_hits 7 linger_expired 1099511627776"
		   " max_groups 1000 max_owner_holds none\n");
	free(c.buf);

	fake_port_limits(&p, 0, 4294967295U);
	cap_start(&c, false, false);
	print_port(&p);
	EXPECT(strstr(cap_end(&c),
		      " max_groups none max_owner_holds 4294967295\n") != NULL);
	free(c.buf);
}

static void port_limits_json(void)
{
	json_object *arr, *o;
	struct ibmcg_port p;
	struct capture c;

	fake_port_limits(&p, 2, 0);
	cap_start(&c, true, false);
	open_json_array(NULL);
	print_port(&p);
	close_json_array();
	arr = parse_json(cap_end(&c));
	o = json_object_array_get_idx(arr, 0);
	EXPECT(jint(o, "linger_hits") == 7);
	EXPECT(jint(o, "linger_expired") == 1LL << 40);
	EXPECT(jint(o, "max_groups") == 2);
	EXPECT(jint(o, "max_owner_holds") == 0);
	json_object_put(arr);
	free(c.buf);

	/* an older kernel: no limits, not "none" */
	fake_port(&p, 1, 100);
	cap_start(&c, true, false);
	open_json_array(NULL);
	print_port(&p);
	close_json_array();
	arr = parse_json(cap_end(&c));
	o = json_object_array_get_idx(arr, 0);
	EXPECT(jint(o, "max_groups") == -12345);
	EXPECT(jint(o, "linger_hits") == -12345);
	json_object_put(arr);
	free(c.buf);
}

static struct ibmcg_released fake_released[3];
static struct ibmcg_released *const fake_released_p[] = {
	&fake_released[0], &fake_released[1], &fake_released[2], NULL,
};

static struct ibmcg_released fake_released[] = {
	{ .dev_name = "mlx5_0", .dev_index = 3, .port = 1,
	  .mgid = { [10] = 0xff, [11] = 0xff, 239, 10, 0, 1 },
	  .join_state = IB_MCG_JOIN_FULL | IB_MCG_JOIN_SENDONLY_FULL,
	  .state = IB_MCG_STATE_RELEASED },
	{ .dev_name = "mlx5_0", .dev_index = 3, .port = 1,
	  .mgid = { [10] = 0xff, [11] = 0xff, 239, 10, 0, 2 },
	  .join_state = IB_MCG_JOIN_FULL, .state = IB_MCG_STATE_JOINED },
	{ .dev_name = "mlx5_1", .dev_index = 0, .port = 2,
	  .mgid = { 0xff, 0x0e, [15] = 0xa3 },
	  .join_state = IB_MCG_JOIN_FULL, .state = IB_MCG_STATE_LINGERING },
};

static void owner_release_text(void)
{
	struct capture c;

	cap_start(&c, false, false);
	print_owner_release("job:42", 4, fake_released_p, 3);
	EXPECT_STR(cap_end(&c),
		   "mlx5_0/1 group 239.10.0.1 dropped full,sendonly-full"
		   " state released\n"
		   "mlx5_0/1 group 239.10.0.2 dropped full state joined\n"
		   "mlx5_1/2 group ff0e::a3 dropped full state lingering\n"
		   "released 4 hold(s) of owner job:42\n");
	free(c.buf);

	cap_start(&c, false, false);
	print_owner_release("nobody", 0, NULL, 0);
	EXPECT_STR(cap_end(&c), "owner nobody holds nothing\n");
	free(c.buf);
}

static void owner_release_json(void)
{
	json_object *o, *gs, *g0, *g2;
	struct capture c;

	cap_start(&c, true, false);
	print_owner_release("job:42", 4, fake_released_p, 3);
	o = parse_json(cap_end(&c));
	EXPECT_STR(jstr(o, "owner"), "job:42");
	EXPECT(jint(o, "holds_dropped") == 4);
	EXPECT(json_object_object_get_ex(o, "groups", &gs) &&
	       json_object_array_length(gs) == 3);
	g0 = json_object_array_get_idx(gs, 0);
	EXPECT_STR(jstr(g0, "dev"), "mlx5_0");
	EXPECT(jint(g0, "dev_index") == 3);
	EXPECT(jint(g0, "port") == 1);
	EXPECT_STR(jstr(g0, "group"), "239.10.0.1");
	EXPECT_STR(jstr(g0, "dropped"), "full,sendonly-full");
	EXPECT_STR(jstr(g0, "state"), "released");
	g2 = json_object_array_get_idx(gs, 2);
	EXPECT(jint(g2, "dev_index") == 0);
	EXPECT_STR(jstr(g2, "group"), "ff0e::a3");
	EXPECT_STR(jstr(g2, "state"), "lingering");
	json_object_put(o);
	free(c.buf);

	/* nothing held: the same object, empty, on one line */
	cap_start(&c, true, false);
	print_owner_release("nobody", 0, NULL, 0);
	EXPECT_STR(cap_end(&c),
		   "{\"owner\":\"nobody\",\"holds_dropped\":0,\"groups\":[]}\n");
	free(c.buf);
}

static void empty_list(void)
{
	struct capture c;

	cap_start(&c, true, false);
	open_json_array(NULL);
	close_json_array();
	EXPECT_STR(cap_end(&c), "[]\n");
	free(c.buf);

	cap_start(&c, false, false);
	open_json_array(NULL);
	close_json_array();
	EXPECT_STR(cap_end(&c), "");
	free(c.buf);
}

static void unknown_enums(void)
{
	struct ibmcg_port p;
	struct capture c;

	fake_port(&p, 1, 100);
	p.link_layer = 9;
	p.port_state = 9;
	p.backend = 9;
	cap_start(&c, false, false);
	print_port(&p);
	EXPECT(!strncmp(cap_end(&c),
			"rxe0/1 link_layer unknown(9) state unknown(9)"
			" backend unknown(9) ", 65));
	free(c.buf);
}

/* An InfiniBand group on simhca0/1, as the SA created it. */
static void fake_ib_group(struct ibmcg_group *g, bool joined)
{
	memset(g, 0, sizeof(*g));
	g->present[0] = A(DEV_NAME) | A(DEV_INDEX) | A(PORT) | A(MGID) |
		     A(STATE) | A(REASON) | A(ERROR) | A(JOIN_STATE) |
		     A(BACKEND) | A(HOLDERS);
	strcpy(g->dev_name, "simhca0");
	g->dev_index = 5;
	g->port = 1;
	ibmcg_mgid_parse("ff12:a01b:fe80::1:0", g->mgid, NULL);
	g->join_state = IB_MCG_JOIN_FULL;
	g->backend = IB_MCG_BACKEND_IB_SA;
	g->holders = fake_holders;
	g->nholders = 1;
	if (!joined) {
		g->state = IB_MCG_STATE_RETRY_WAIT;
		g->reason = IB_MCG_REASON_TIMEOUT;
		g->error = ETIMEDOUT;
		return;
	}
	g->state = IB_MCG_STATE_JOINED;
	g->reason = IB_MCG_REASON_JOIN;
	g->present[0] |= A(MLID) | A(QKEY) | A(PKEY) | A(MTU) | A(RATE) | A(SL) |
		      A(FLOW_LABEL) | A(TCLASS) | A(HOP_LIMIT) | A(PORT_GID) |
		      A(SGID_INDEX);
	g->mlid = 0xc004;
	g->qkey = 0x11111111;
	g->pkey = 0x8001;
	g->mtu = 5;
	g->rate = 3;
	g->sl = 7;
	g->flow_label = 0x12345;
	g->tclass = 0xb8;
	g->hop_limit = 2;
	ibmcg_mgid_parse("ff0e::2", g->port_gid, NULL);	/* any GID */
	g->port_gid[0] = 0xfe;
	g->port_gid[1] = 0x80;
	g->sgid_index = 0;
}

static void ib_group_line(void)
{
	struct ibmcg_group g;
	struct capture c;
	json_object *arr, *o;

	/* list: an InfiniBand group's record on its line */
	fake_ib_group(&g, true);
	cap_start(&c, false, false);
	print_group_line(&g);
	EXPECT_STR(cap_end(&c),
		   "simhca0/1 group ff12:a01b:fe80::1:0 state joined"
		   " mlid 0xc004 qkey 0x11111111 pkey 0x8001 mtu 4096"
		   " rate 10Gbps sl 7 flow_label 0x12345 tclass 184 hop_limit 2"
		   " join_state full holders 1 job:42(full,bound)\n");
	free(c.buf);

	/* not joined: why, and the error */
	fake_ib_group(&g, false);
	cap_start(&c, false, false);
	print_group_line(&g);
	EXPECT_STR(cap_end(&c),
		   "simhca0/1 group ff12:a01b:fe80::1:0 state retry-wait"
		   " reason timeout error 110 (Connection timed out)"
		   " join_state full holders 1 job:42(full,bound)\n");
	free(c.buf);

	/* joining: the reason, no error yet */
	g.state = IB_MCG_STATE_JOINING;
	g.reason = IB_MCG_REASON_NET_RESET;
	g.error = 0;
	cap_start(&c, false, false);
	print_group_line(&g);
	EXPECT(strstr(cap_end(&c), " state joining reason net-reset"
			       " join_state full ") != NULL);
	free(c.buf);

	fake_ib_group(&g, true);
	cap_start(&c, true, false);
	open_json_array(NULL);
	print_group_line(&g);
	fake_ib_group(&g, false);
	g.reason = IB_MCG_REASON_PKEY_MISSING;
	g.error = ENOENT;
	print_group_line(&g);
	close_json_array();
	arr = parse_json(cap_end(&c));
	o = json_object_array_get_idx(arr, 0);
	EXPECT_STR(jstr(o, "state"), "joined");
	EXPECT_STR(jstr(o, "reason"), "(missing)");
	EXPECT(jint(o, "mlid") == 0xc004);
	EXPECT(jint(o, "pkey") == 0x8001);
	EXPECT(jint(o, "mtu") == 4096);
	EXPECT_STR(jstr(o, "rate"), "10Gbps");
	EXPECT(jint(o, "sl") == 7);
	EXPECT(jint(o, "flow_label") == 0x12345);
	EXPECT(jint(o, "tclass") == 0xb8);
	EXPECT(jint(o, "hop_limit") == 2);
	EXPECT_STR(jstr(o, "port_gid"), "(missing)");	/* show only */
	o = json_object_array_get_idx(arr, 1);
	EXPECT_STR(jstr(o, "state"), "retry-wait");
	EXPECT_STR(jstr(o, "reason"), "pkey-missing");
	EXPECT(jint(o, "error") == ENOENT);
	EXPECT(jint(o, "mlid") == -12345);
	json_object_put(arr);
	free(c.buf);

	/* RoCE lines are as they were: no record */
	fake_group(&g, true);
	cap_start(&c, false, false);
	print_group_line(&g);
	EXPECT(strstr(cap_end(&c), "mlid") == NULL);
	free(c.buf);
}

static void ib_group_detail(void)
{
	struct ibmcg_group g;
	struct capture c;

	fake_ib_group(&g, true);
	cap_start(&c, false, false);
	print_group_detail(&g);
	EXPECT_STR(cap_end(&c),
		   "simhca0/1 group ff12:a01b:fe80::1:0 state joined reason join"
		   " join_state full backend ib-sa\n"
		   "    mgid ff12:a01b:fe80::1:0 mlid 0xc004 qkey 0x11111111"
		   " pkey 0x8001 mtu 4096 rate 10Gbps sl 7 flow_label 0x12345"
		   " tclass 184 hop_limit 2\n"
		   "    port_gid fe80::2 sgid_index 0\n"
		   "    holder job:42 join_state full bound portid 4242"
		   " age 12.345s\n");
	free(c.buf);

	fake_ib_group(&g, false);
	g.reason = IB_MCG_REASON_SA_REJECTED;
	g.error = EINVAL;
	g.nholders = 0;
	cap_start(&c, false, false);
	print_group_detail(&g);
	EXPECT_STR(cap_end(&c),
		   "simhca0/1 group ff12:a01b:fe80::1:0 state retry-wait"
		   " reason sa-rejected error 22 (Invalid argument)"
		   " join_state full backend ib-sa\n"
		   "    mgid ff12:a01b:fe80::1:0\n");
	free(c.buf);
}

static void join_reply_assigned(void)
{
	const char *want = "assigned mgid ff12:a01b:fe80::1:0\n"
			   "simhca0/1 group ff12:a01b:fe80::1:0 state joined ";
	struct ibmcg_group g;
	struct capture c;
	json_object *o;
	const char *out;

	fake_ib_group(&g, true);
	g.nholders = 0;
	cap_start(&c, false, false);
	print_join_reply(&g, true);
	out = cap_end(&c);
	if (strncmp(out, want, strlen(want))) {
		ktap_case_ok = false;
		ktap_print_str("got ", out);
		ktap_print_str("want", want);
	}
	free(c.buf);

	/* a named group: the same as show */
	cap_start(&c, false, false);
	print_join_reply(&g, false);
	out = cap_end(&c);
	EXPECT(!strncmp(out, "simhca0/1 group ", 16));
	EXPECT(strstr(out, "assigned") == NULL);
	free(c.buf);

	cap_start(&c, true, false);
	print_join_reply(&g, true);
	o = parse_json(cap_end(&c));
	EXPECT_STR(jstr(o, "assigned_mgid"), "ff12:a01b:fe80::1:0");
	EXPECT_STR(jstr(o, "mgid"), "ff12:a01b:fe80::1:0");
	EXPECT(jint(o, "mlid") == 0xc004);
	json_object_put(o);
	free(c.buf);

	cap_start(&c, true, false);
	print_join_reply(&g, false);
	o = parse_json(cap_end(&c));
	EXPECT_STR(jstr(o, "assigned_mgid"), "(missing)");
	json_object_put(o);
	free(c.buf);
}

/* simhca0/1 after two SM failovers. */
static void fake_ib_port(struct ibmcg_port *p, bool rejoin)
{
	fake_port(p, 3, 1024);
	p->present[0] &= ~(A(NETDEV) | A(IFINDEX));
	p->present[0] |= A(LID) | A(SM_LID);
	strcpy(p->dev_name, "simhca0");
	p->netdev[0] = '\0';
	p->dev_index = 5;
	p->link_layer = IB_MCG_LINK_LAYER_INFINIBAND;
	p->backend = IB_MCG_BACKEND_IB_SA;
	p->lid = 7;
	p->sm_lid = 1;
	if (!rejoin)
		return;
	p->present[0] |= A(SM_REREGISTERS) | A(LAST_SM_LID) | A(REJOIN_WAVES) |
		      A(REJOIN_PENDING) | A(LAST_REJOIN_WAVE_MS) |
		      A(GROUP_REJOINS) | A(REJOIN_FAILURES) | A(SA_TIMEOUTS);
	p->sm_reregisters = 2;
	p->last_sm_lid = 9;
	p->rejoin_waves = 2;
	p->rejoin_pending = 0;
	p->last_rejoin_wave_ms = 250;
	p->group_rejoins = 6;
	p->rejoin_failures = 1;
	p->sa_timeouts = 1ULL << 33;
}

static void ib_port_stats(void)
{
	struct ibmcg_port p;
	struct capture c;
	json_object *arr, *o;

	fake_ib_port(&p, true);
	cap_start(&c, false, false);
	print_port(&p);
	EXPECT_STR(cap_end(&c),
		   "simhca0/1 link_layer InfiniBand state ACTIVE backend ib-sa"
		   " lid 7 sm_lid 1\n"
		   "    groups 3 holders 30 joins 45 leaves 33 join_errors 1"
		   " mcast_table 3/1024 (0%)\n"
		   "    sm_reregisters 2 last_sm_lid 9 rejoin_waves 2"
		   " rejoin_pending 0 last_rejoin_wave_ms 250 group_rejoins 6"
		   " rejoin_failures 1 sa_timeouts 8589934592\n");
	free(c.buf);

	/* what the kernel did not send is left out */
	fake_ib_port(&p, false);
	p.present[0] |= A(REJOIN_PENDING);
	p.rejoin_pending = 4;
	cap_start(&c, false, false);
	print_port(&p);
	EXPECT_STR(cap_end(&c),
		   "simhca0/1 link_layer InfiniBand state ACTIVE backend ib-sa"
		   " lid 7 sm_lid 1\n"
		   "    groups 3 holders 30 joins 45 leaves 33 join_errors 1"
		   " mcast_table 3/1024 (0%)\n"
		   "    rejoin_pending 4\n");
	free(c.buf);

	fake_ib_port(&p, true);
	cap_start(&c, true, false);
	open_json_array(NULL);
	print_port(&p);
	fake_port(&p, 1, 100);		/* RoCE */
	print_port(&p);
	close_json_array();
	arr = parse_json(cap_end(&c));
	o = json_object_array_get_idx(arr, 0);
	EXPECT(jint(o, "lid") == 7 && jint(o, "sm_lid") == 1);
	EXPECT(jint(o, "sm_reregisters") == 2);
	EXPECT(jint(o, "last_sm_lid") == 9);
	EXPECT(jint(o, "rejoin_waves") == 2);
	EXPECT(jint(o, "rejoin_pending") == 0);
	EXPECT(jint(o, "last_rejoin_wave_ms") == 250);
	EXPECT(jint(o, "group_rejoins") == 6);
	EXPECT(jint(o, "rejoin_failures") == 1);
	EXPECT(jint(o, "sa_timeouts") == 1LL << 33);
	o = json_object_array_get_idx(arr, 1);
	EXPECT(jint(o, "lid") == -12345);
	EXPECT(jint(o, "sm_reregisters") == -12345);
	EXPECT(jint(o, "rejoin_pending") == -12345);
	json_object_put(arr);
	free(c.buf);

	/* RoCE text is unchanged */
	fake_port(&p, 12, 8192);
	cap_start(&c, false, false);
	print_port(&p);
	EXPECT(strstr(cap_end(&c), "lid") == NULL);
	free(c.buf);
}

static void event_rejoin_wave(void)
{
	struct ibmcg_event ev;
	struct ibmcg_group eg;
	struct ibmcg_port ep;
	struct capture c;

	memset(&ev, 0, sizeof(ev));
	memset(&eg, 0, sizeof(eg));
	memset(&ep, 0, sizeof(ep));
	ev.port = &ep;
	ev.group = NULL;
	ev.cmd = IB_MCG_CMD_REJOIN_WAVE_START_NTF;
	fake_ib_port(&ep, true);
	ep.rejoin_pending = 3;
	cap_start(&c, false, false);
	print_event(&ev);
	/* a group re-joined in the wave */
	ev.port = NULL;
	ev.group = &eg;
	ev.cmd = IB_MCG_CMD_GROUP_STATE_NTF;
	fake_ib_group(&eg, true);
	eg.reason = IB_MCG_REASON_NET_RESET;
	eg.nholders = 0;
	print_event(&ev);
	memset(&eg, 0, sizeof(eg));
	ev.port = &ep;
	ev.group = NULL;
	ev.cmd = IB_MCG_CMD_REJOIN_WAVE_END_NTF;
	ep.rejoin_pending = 0;
	ep.rejoin_waves = 3;
	print_event(&ev);
	EXPECT_STR(cap_end(&c),
		   "[rejoin-wave-start] simhca0/1 pending 3 sm_lid 1\n"
		   "[group-state] simhca0/1 group ff12:a01b:fe80::1:0"
		   " state joined reason net-reset join_state full holders 0\n"
		   "[rejoin-wave-end] simhca0/1 waves 3"
		   " last_rejoin_wave_ms 250\n");
	free(c.buf);

	/* one JSON document per line, in the keys of stats */
	ev.cmd = IB_MCG_CMD_REJOIN_WAVE_START_NTF;
	fake_ib_port(&ep, false);
	ep.present[0] |= A(REJOIN_PENDING);
	ep.rejoin_pending = 3;
	cap_start(&c, true, false);
	print_event(&ev);
	EXPECT_STR(cap_end(&c),
		   "{\"event\":\"rejoin-wave-start\",\"dev\":\"simhca0\","
		   "\"dev_index\":5,\"port\":1,\"rejoin_pending\":3,"
		   "\"sm_lid\":1}\n");
	free(c.buf);
}

/* monitor -t: ISO 8601 local time, microseconds, the UTC offset. */
static void timestamps(void)
{
	struct timespec ts = { .tv_sec = 1796290800, .tv_nsec = 123456789 };
	char *tz = getenv("TZ") ? strdup(getenv("TZ")) : NULL;
	char buf[MCCTL_TIMESTAMP_LEN];
	struct ibmcg_event ev;
	struct ibmcg_group eg;
	struct capture c;

	setenv("TZ", "UTC0", 1);
	tzset();
	format_timestamp(&ts, buf, sizeof(buf));
	EXPECT_STR(buf, "2026-12-03T09:40:00.123456+00:00");
	setenv("TZ", "IST-5:30", 1);
	tzset();
	format_timestamp(&ts, buf, sizeof(buf));
	EXPECT_STR(buf, "2026-12-03T15:10:00.123456+05:30");
	ts.tv_nsec = 999;
	setenv("TZ", "EST5", 1);
	tzset();
	format_timestamp(&ts, buf, sizeof(buf));
	EXPECT_STR(buf, "2026-12-03T04:40:00.000000-05:00");
	if (tz)
		setenv("TZ", tz, 1);
	else
		unsetenv("TZ");
	tzset();
	free(tz);

	memset(&ev, 0, sizeof(ev));
	memset(&eg, 0, sizeof(eg));
	fake_group(&eg, false);
	ev.group = &eg;
	ev.cmd = IB_MCG_CMD_HOLDER_NEW_NTF;
	eg.nholders = 1;
	cap_start(&c, false, false);
	print_event_ts(&ev, "2026-12-03T09:40:00.123456+00:00");
	EXPECT_STR(cap_end(&c),
		   "[2026-12-03T09:40:00.123456+00:00] [holder-new] mlx5_0/1"
		   " group 239.1.1.1 state joined reason join holder job:42(full,bound)\n");
	free(c.buf);
	cap_start(&c, true, false);
	print_event_ts(&ev, "2026-12-03T09:40:00.123456+00:00");
	EXPECT_STR(cap_end(&c),
		   "{\"timestamp\":\"2026-12-03T09:40:00.123456+00:00\","
		   "\"event\":\"holder-new\",\"dev\":\"mlx5_0\",\"dev_index\":3,"
		   "\"port\":1,\"group\":\"239.1.1.1\",\"state\":\"joined\","
		   "\"reason\":\"join\",\"holder\":{\"owner\":\"job:42\","
		   "\"join_state\":\"full\",\"bound\":true}}\n");
	free(c.buf);
}

/*
 * A caller without CAP_NET_ADMIN is shown only its own holders; the
 * kernel's count tells how many the group has in all.
 */
static void holders_counted_not_listed(void)
{
	struct ibmcg_group g;
	struct capture c;

	fake_group(&g, false);
	g.nholders = 1;
	g.holder_count = 3;
	g.present[0] |= A(HOLDER_COUNT);
	cap_start(&c, false, false);
	print_group_line(&g);
	EXPECT_STR(cap_end(&c),
		   "mlx5_0/1 group 239.1.1.1 state joined join_state full,sendonly"
		   " holders 3 job:42(full,bound)\n");
	free(c.buf);
	cap_start(&c, true, false);
	print_group_line(&g);
	EXPECT(strstr(cap_end(&c), "\"holder_count\":3,") != NULL);
	free(c.buf);
	/* a count below the list (an old kernel's): the list's length */
	g.holder_count = 0;
	cap_start(&c, false, false);
	print_group_line(&g);
	EXPECT(strstr(cap_end(&c), " holders 1 ") != NULL);
	free(c.buf);
}

/*
 * Plain JSON is streamed, not built with json-c: it must still be what
 * json-c would print for the same document, byte for byte.
 */
static void json_plain_as_json_c(void)
{
	static const char odd[] = "q\"b\\s/\x01\x1f\b\f\n\r\t\xc3\xa9";
	struct ibmcg_group g[2];
	struct capture c;
	json_object *o;
	const char *out, *ref;

	fake_group(&g[0], true);
	fake_group(&g[1], false);
	cap_start(&c, true, false);
	open_json_array(NULL);
	print_group_line(&g[0]);
	print_group_line(&g[1]);
	open_json_object(NULL);
	print_string(PRINT_JSON, odd, NULL, odd);
	print_flag(PRINT_JSON, "t", NULL, true);
	print_flag(PRINT_JSON, "f", NULL, false);
	print_u64(PRINT_JSON, "big", NULL, UINT64_MAX);
	print_uint(PRINT_JSON, "u", NULL, UINT32_MAX);
	open_json_array("empty");
	close_json_array();
	open_json_object("none");
	close_json_object();
	close_json_object();
	print_group_detail(&g[0]);
	close_json_array();
	out = cap_end(&c);
	o = parse_json(out);
	EXPECT(o != NULL);
	ref = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
					     JSON_C_TO_STRING_NOSLASHESCAPE);
	EXPECT(out && ref && strlen(out) == strlen(ref) + 1 &&
	       !strncmp(out, ref, strlen(ref)) && out[strlen(ref)] == '\n');
	json_object_put(o);
	free(c.buf);
}

/*
 * A document larger than the streaming buffer (64 KiB), with one value
 * larger than the buffer itself: written out in parts, the same bytes.
 */
static void json_plain_large(void)
{
	static char big[100000];
	struct capture c;
	json_object *o;
	const char *out, *ref;
	char key[16];
	int i;

	memset(big, 'b', sizeof(big) - 1);
	big[10] = '"';
	cap_start(&c, true, false);
	open_json_array(NULL);
	for (i = 0; i < 5000; i++) {
		snprintf(key, sizeof(key), "k%d", i);
		open_json_object(NULL);
		print_uint(PRINT_JSON, key, NULL, i);
		print_string(PRINT_JSON, "s", NULL, "some text");
		if (i == 2500)
			print_string(PRINT_JSON, "big", NULL, big);
		close_json_object();
	}
	close_json_array();
	out = cap_end(&c);
	EXPECT(out && strlen(out) > 3 * 65536);
	o = out ? parse_json(out) : NULL;
	EXPECT(o != NULL && json_object_array_length(o) == 5000);
	ref = o ? json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
						 JSON_C_TO_STRING_NOSLASHESCAPE)
		: NULL;
	EXPECT(out && ref && strlen(out) == strlen(ref) + 1 &&
	       !strncmp(out, ref, strlen(ref)));
	json_object_put(o);
	free(c.buf);
}

static const struct ktap_case cases[] = {
	KTAP_CASE(timestamps),
	KTAP_CASE(group_line_text),
	KTAP_CASE(group_line_json),
	KTAP_CASE(group_detail_text),
	KTAP_CASE(group_detail_json),
	KTAP_CASE(group_detail_no_record),
	KTAP_CASE(port_text),
	KTAP_CASE(port_text_warning),
	KTAP_CASE(port_json),
	KTAP_CASE(event_text),
	KTAP_CASE(event_json_lines),
	KTAP_CASE(json_escaping),
	KTAP_CASE(json_pretty),
	KTAP_CASE(json_pretty_as_json_c),
	KTAP_CASE(group_line_lingering),
	KTAP_CASE(group_detail_lingering),
	KTAP_CASE(group_lingering_link_state),
	KTAP_CASE(group_linger_time),
	KTAP_CASE(linger_left_format),
	KTAP_CASE(event_lingering),
	KTAP_CASE(port_limits_text),
	KTAP_CASE(port_limits_json),
	KTAP_CASE(owner_release_text),
	KTAP_CASE(owner_release_json),
	KTAP_CASE(empty_list),
	KTAP_CASE(unknown_enums),
	KTAP_CASE(ib_group_line),
	KTAP_CASE(ib_group_detail),
	KTAP_CASE(join_reply_assigned),
	KTAP_CASE(ib_port_stats),
	KTAP_CASE(event_rejoin_wave),
	KTAP_CASE(json_plain_as_json_c),
	KTAP_CASE(json_plain_large),
	KTAP_CASE(holders_counted_not_listed),
};

KTAP_MAIN(cases)
