// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcctl diag GROUP [DEV/PORT]: gather the facts of each port (sysfs,
 * ib_mcgroups over netlink, the SA, /proc/net/igmp{,6}) and print the
 * checklist diag_evaluate() makes of them. Everything here works
 * unprivileged except the SA query, which needs the port's umad device.
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_VERBS
#include <infiniband/verbs.h>
#endif

#include "mcctl.h"
#include "mcctl_dl.h"
#include "mcctl_args.h"
#include "mcctl_diag.h"

const struct cmd_usage diag_usage = {
	"mcctl diag GROUP [ DEV/PORT ]\n", W_GROUP,
	"exit status: 0 no check failed, 3 a check failed (FAIL),\n"
	"1 diag could not run, 2 usage error\n",
};

#define SYS_IB	"/sys/class/infiniband"
#define SYS_NET	"/sys/class/net"
#define ARPHRD_INFINIBAND	32

struct diag_port {
	char dev[IBMCG_DEV_NAME_MAX];
	uint32_t port;
};

static int read_line(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The first line of a (sysfs) file, without its newline; -errno. */
static int read_line(char *buf, size_t len, const char *fmt, ...)
{
	char path[512];
	va_list ap;
	FILE *fp;
	char *nl;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	fp = fopen(path, "r");
	if (!fp)
		return -errno;
	if (!fgets(buf, len, fp)) {
		int err = ferror(fp) ? -EIO : -ENODATA;

		fclose(fp);
		return err;
	}
	fclose(fp);
	nl = strchr(buf, '\n');
	if (nl)
		*nl = '\0';
	return 0;
}

static bool port_exists(const char *dev, uint32_t port)
{
	char buf[64];

	return !read_line(buf, sizeof(buf), SYS_IB "/%s/ports/%u/state", dev,
			  port);
}

static void sysfs_facts(struct diag_facts *f)
{
	char buf[128];
	unsigned int i;

	if (!read_line(buf, sizeof(buf), SYS_IB "/%s/ports/%u/state", f->dev,
		       f->port))
		f->port_state = atoi(buf);
	if (!read_line(buf, sizeof(buf), SYS_IB "/%s/ports/%u/link_layer",
		       f->dev, f->port)) {
		if (!strcmp(buf, "InfiniBand"))
			f->link_layer = IB_MCG_LINK_LAYER_INFINIBAND;
		else if (!strcmp(buf, "Ethernet"))
			f->link_layer = IB_MCG_LINK_LAYER_ETHERNET;
	}
	if (!read_line(buf, sizeof(buf), SYS_IB "/%s/ports/%u/lid", f->dev,
		       f->port)) {
		f->lid = strtoul(buf, NULL, 0);
		if (!read_line(buf, sizeof(buf), SYS_IB "/%s/ports/%u/sm_lid",
			       f->dev, f->port)) {
			f->sm_lid = strtoul(buf, NULL, 0);
			f->have_lids = true;
		}
	}
	if (!read_line(buf, sizeof(buf), SYS_IB "/%s/ports/%u/rate", f->dev,
		       f->port))
		f->port_rate = diag_parse_rate(buf);
	for (i = 0; i < 65536; i++) {
		if (read_line(buf, sizeof(buf), SYS_IB "/%s/ports/%u/pkeys/%u",
			      f->dev, f->port, i))
			break;
		f->pkeys_known = true;
		if (!(strtoul(buf, NULL, 0) & 0x7fff) ||
		    f->npkeys == DIAG_MAX_PKEYS)
			continue;
		f->pkey_index[f->npkeys] = i;
		f->pkeys[f->npkeys++] = strtoul(buf, NULL, 0);
	}
	if (!read_line(buf, sizeof(buf), SYS_IB "/%s/ports/%u/gid_attrs/ndevs/0",
		       f->dev, f->port) && strlen(buf) < sizeof(f->netdev))
		strcpy(f->netdev, buf);
}

/*
 * The port's active MTU: on RoCE from the netdev's MTU, as the kernel
 * computes it; on InfiniBand only libibverbs knows it (and only for
 * devices with a user-space provider).
 */
static void mtu_facts(struct diag_facts *f)
{
	char buf[32];

	if (f->link_layer == IB_MCG_LINK_LAYER_ETHERNET) {
		if (f->netdev[0] &&
		    !read_line(buf, sizeof(buf), "/sys/class/net/%s/mtu",
			       f->netdev))
			f->port_mtu = diag_roce_mtu(strtoul(buf, NULL, 10));
		return;
	}
#ifdef HAVE_VERBS
	{
		struct ibv_device **list;
		struct ibv_port_attr pa;
		struct ibv_context *ctx;
		int i, n;

		if (!mcctl_dl_verbs())
			return;
		list = ibv_get_device_list(&n);
		for (i = 0; list && i < n; i++) {
			if (strcmp(ibv_get_device_name(list[i]), f->dev))
				continue;
			ctx = ibv_open_device(list[i]);
			if (!ctx)
				break;
			memset(&pa, 0, sizeof(pa));
			if (!ibv_query_port(ctx, f->port, &pa))
				f->port_mtu = pa.active_mtu;
			ibv_close_device(ctx);
			break;
		}
		if (list)
			ibv_free_device_list(list);
	}
#endif
}

static void mc_facts(struct diag_facts *f)
{
	bool v4 = ibmcg__mgid_is_ipv4(f->mgid);
	const char *path = v4 ? "/proc/net/igmp" : "/proc/net/igmp6";
	FILE *fp;
	int n;

	if (!f->netdev[0]) {
		snprintf(f->mc_why, sizeof(f->mc_why),
			 "the port's network device is unknown");
		return;
	}
	fp = fopen(path, "r");
	if (!fp) {
		snprintf(f->mc_why, sizeof(f->mc_why), "cannot read %s: %s",
			 path, strerror(errno));
		return;
	}
	n = v4 ? diag_igmp_users(fp, f->netdev, f->mgid) :
		 diag_igmp6_users(fp, f->netdev, f->mgid);
	fclose(fp);
	if (n < 0) {
		f->mc = DIAG_MC_NO_NETDEV;
	} else if (n > 0) {
		f->mc = DIAG_MC_PRESENT;
		f->mc_users = n;
	} else {
		f->mc = DIAG_MC_ABSENT;
	}
}

static void sa_facts(struct diag_facts *f)
{
	const uint8_t *gid = NULL;

	if (f->port_state != 4) {
		snprintf(f->sa_why, sizeof(f->sa_why), "the port is not ACTIVE");
		return;
	}
	if (f->have_lids && !f->sm_lid) {
		snprintf(f->sa_why, sizeof(f->sa_why), "no SM LID to send to");
		return;
	}
	if (f->group && IBMCG_HAS(f->group, IB_MCG_A_PORT_GID))
		gid = f->group->port_gid;
	diag_sa_query(f, gid);
}

/*
 * The IPoIB interface of the port (in our network namespace) that joins
 * the group: one whose hardware address has the port's GID (the last 16
 * of its 20 bytes) and whose broadcast address, or one of its multicast
 * addresses (/proc/net/dev_mcast), has the MGID. IPoIB joins its other
 * groups with its broadcast group's parameters: the SA's record of that.
 */
static void ipoib_facts(struct diag_facts *f)
{
	uint8_t gid[IBMCG_GID_LEN], addr[IBMCG_GID_LEN];
	uint8_t bcast[IBMCG_GID_LEN];
	struct diag_facts *t;
	struct dirent *de;
	char buf[128];
	FILE *fp;
	DIR *d;

	f->ipoib_complete = -1;
	if (read_line(buf, sizeof(buf), SYS_IB "/%s/ports/%u/gids/0", f->dev,
		      f->port) || inet_pton(AF_INET6, buf, gid) != 1)
		return;
	d = opendir(SYS_NET);
	if (!d)
		return;
	while (f->ipoib == DIAG_IPOIB_NONE && (de = readdir(d))) {
		const char *n = de->d_name;

		if (n[0] == '.' || strlen(n) >= sizeof(f->ipoib_dev))
			continue;
		if (read_line(buf, sizeof(buf), SYS_NET "/%s/type", n) ||
		    atoi(buf) != ARPHRD_INFINIBAND ||
		    read_line(buf, sizeof(buf), SYS_NET "/%s/address", n) ||
		    diag_hwaddr_mgid(buf, addr) || memcmp(addr, gid, 16) ||
		    read_line(buf, sizeof(buf), SYS_NET "/%s/broadcast", n) ||
		    diag_hwaddr_mgid(buf, bcast))
			continue;
		if (!memcmp(bcast, f->mgid, 16)) {
			f->ipoib = DIAG_IPOIB_BCAST;
		} else {
			fp = fopen("/proc/net/dev_mcast", "r");
			if (fp && diag_dev_mcast_has(fp, n, f->mgid) > 0)
				f->ipoib = DIAG_IPOIB_MCAST;
			if (fp)
				fclose(fp);
		}
		if (f->ipoib != DIAG_IPOIB_NONE) {
			strcpy(f->ipoib_dev, n);
			memcpy(f->ipoib_bcast, bcast, sizeof(bcast));
		}
	}
	closedir(d);
	if (f->ipoib == DIAG_IPOIB_NONE)
		return;

	/* CONFIG_INFINIBAND_IPOIB_DEBUG, debugfs mounted, root */
	snprintf(buf, sizeof(buf), "/sys/kernel/debug/ipoib/%s_mcg",
		 f->ipoib_dev);
	fp = fopen(buf, "r");
	if (fp) {
		f->ipoib_complete = diag_ipoib_mcg_complete(fp, f->mgid);
		fclose(fp);
	}

	if (f->ipoib != DIAG_IPOIB_MCAST)
		return;
	if (f->port_state != 4 || (f->have_lids && !f->sm_lid)) {
		snprintf(f->ipoib_why, sizeof(f->ipoib_why),
			 "the port is not ACTIVE or has no SM");
		return;
	}
	t = calloc(1, sizeof(*t));
	if (!t) {
		snprintf(f->ipoib_why, sizeof(f->ipoib_why), "out of memory");
		return;
	}
	snprintf(t->dev, sizeof(t->dev), "%s", f->dev);
	t->port = f->port;
	memcpy(t->mgid, f->ipoib_bcast, sizeof(t->mgid));
	diag_sa_query(t, gid);
	if (t->sa == DIAG_SA_MEMBER) {
		f->ipoib_rec = t->sa_rec;
		f->ipoib_rec_known = true;
	} else if (t->sa_why[0]) {
		snprintf(f->ipoib_why, sizeof(f->ipoib_why), "%s", t->sa_why);
	} else {
		snprintf(f->ipoib_why, sizeof(f->ipoib_why),
			 "the SA has no record of the port in it");
	}
	free(t);
}

/* Fill f for one port; h may be NULL (module not loaded). */
static int gather(struct ibmcg *h, struct diag_facts *f,
		  struct ibmcg_group **g)
{
	struct ibmcg_port *p;
	int err;

	sysfs_facts(f);
	f->module_loaded = h != NULL;
	if (h) {
		err = ibmcg_port_get(h, f->dev, f->port, &p);
		if (!err) {
			f->port_known = true;
			f->max_mcast_grp = p->max_mcast_grp;
			f->groups = p->groups;
			if (p->netdev[0])
				strcpy(f->netdev, p->netdev);
			if (!f->port_state)
				f->port_state = p->port_state;
			if (!f->link_layer)
				f->link_layer = p->link_layer;
			ibmcg_port_free(p);
		}
		err = ibmcg_group_get(h, f->dev, f->port, f->mgid, g);
		if (!err)
			f->group = *g;
		else if (err != -ENOENT)
			return err;
	}
	mtu_facts(f);
	if (f->link_layer == IB_MCG_LINK_LAYER_INFINIBAND) {
		sa_facts(f);
		if (f->group)
			ipoib_facts(f);
	}
	else if (f->link_layer == IB_MCG_LINK_LAYER_ETHERNET)
		mc_facts(f);
	return 0;
}

static int add_port(struct diag_port **ports, size_t *n, const char *dev,
		    uint32_t port)
{
	struct diag_port *p;
	size_t i;

	for (i = 0; i < *n; i++)
		if (!strcmp((*ports)[i].dev, dev) && (*ports)[i].port == port)
			return 0;
	p = realloc(*ports, (*n + 1) * sizeof(**ports));
	if (!p)
		return -ENOMEM;
	*ports = p;
	snprintf(p[*n].dev, sizeof(p[*n].dev), "%s", dev);
	p[*n].port = port;
	(*n)++;
	return 0;
}

/* Every port in sysfs, for when ib_mcgroups is not loaded. */
static int sysfs_ports(struct diag_port **ports, size_t *n)
{
	struct dirent *de;
	DIR *d;
	uint32_t port;
	int err = 0;

	d = opendir(SYS_IB);
	if (!d)
		return 0;
	while (!err && (de = readdir(d))) {
		if (de->d_name[0] == '.' ||
		    strlen(de->d_name) >= IBMCG_DEV_NAME_MAX)
			continue;
		for (port = 1; !err && port_exists(de->d_name, port); port++)
			err = add_port(ports, n, de->d_name, port);
	}
	closedir(d);
	return err;
}

/* The ports holding mgid, or else every port. */
static int find_ports(struct ibmcg *h, const uint8_t *mgid,
		      struct diag_port **ports, size_t *n)
{
	struct ibmcg_group **groups;
	struct ibmcg_port **pl;
	size_t i, ng, np;
	int err;

	if (!h)
		return sysfs_ports(ports, n);
	err = ibmcg_group_dump(h, NULL, 0, &groups, &ng);
	if (err)
		return err;
	for (i = 0; !err && i < ng; i++)
		if (!memcmp(groups[i]->mgid, mgid, IBMCG_GID_LEN))
			err = add_port(ports, n, groups[i]->dev_name,
				       groups[i]->port);
	ibmcg_groups_free(groups);
	if (err || *n)
		return err;
	err = ibmcg_port_dump(h, NULL, &pl, &np);
	if (err)
		return err;
	for (i = 0; !err && i < np; i++)
		err = add_port(ports, n, pl[i]->dev_name, pl[i]->port);
	ibmcg_ports_free(pl);
	return err;
}

static int diag_err(struct ibmcg *h, int err, const char *what)
{
	const char *msg = h ? ibmcg_errmsg(h) : NULL;

	fprintf(stderr, "mcctl: %s: %s\n", what, msg ? msg : strerror(-err));
	return EXIT_FAILURE;
}

int cmd_diag(int argc, char **argv)
{
	struct diag_result res[DIAG_MAX_CHECKS];
	char dev[IBMCG_DEV_NAME_MAX] = "";
	struct diag_port *ports = NULL;
	uint8_t mgid[IBMCG_GID_LEN];
	struct ibmcg *h = NULL;
	size_t i, n = 0, nres;
	bool failed = false;
	const char *why;
	uint32_t port = 0;
	int err, ret = 0;

	if (argc < 1)
		return usage_err("mcctl: expected diag GROUP [ DEV/PORT ]");
	if (ibmcg_mgid_parse(argv[0], mgid, &why))
		return usage_err("mcctl: invalid group '%s': %s", argv[0], why);
	if (argc > 2)
		return unknown_param(argv[2]);
	if (argc == 2) {
		err = parse_devport(argv[1], dev, &port, false);
		if (err)
			return err;
		if (!port_exists(dev, port)) {
			fprintf(stderr, "mcctl: no port %s/%u\n", dev, port);
			return EXIT_FAILURE;
		}
	}

	h = ibmcg_alloc();
	if (!h)
		return diag_err(NULL, -ENOMEM, "diag");
	err = ibmcg_connect(h);
	if (err == -ENOENT) {		/* not loaded: a check says so */
		ibmcg_close(h);
		h = NULL;
	} else if (err) {
		ret = diag_err(h, err, "cannot reach ib_mcgroups");
		goto out;
	}

	err = dev[0] ? add_port(&ports, &n, dev, port) :
		       find_ports(h, mgid, &ports, &n);
	if (err) {
		ret = diag_err(h, err, "cannot list the ports");
		goto out;
	}
	if (!n) {
		fprintf(stderr, "mcctl: no RDMA ports\n");
		ret = EXIT_FAILURE;
		goto out;
	}

	open_json_array(NULL);
	for (i = 0; i < n; i++) {
		struct diag_facts *f = calloc(1, sizeof(*f));
		struct ibmcg_group *g = NULL;

		if (!f) {
			ret = diag_err(h, -ENOMEM, "diag");
			break;
		}
		snprintf(f->dev, sizeof(f->dev), "%s", ports[i].dev);
		f->port = ports[i].port;
		memcpy(f->mgid, mgid, sizeof(mgid));
		err = gather(h, f, &g);
		if (err) {
			free(f);
			ret = diag_err(h, err, "cannot query ib_mcgroups");
			break;
		}
		nres = diag_evaluate(f, res, DIAG_MAX_CHECKS);
		failed |= diag_overall(res, nres) == DIAG_FAIL;
		print_diag_port(f, res, nres);
		ibmcg_group_free(g);
		free(f);
	}
	close_json_array();
	err = json_print_end();
	if (err && !ret) {
		fprintf(stderr, "mcctl: cannot write output: %s\n",
			strerror(-err));
		ret = EXIT_FAILURE;
	}
	if (!ret && failed)
		ret = EXIT_DIAG_FAIL;
out:
	free(ports);
	ibmcg_close(h);
	return ret;
}
