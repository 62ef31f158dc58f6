// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The configuration file at work: "mcctl apply [--dry-run]" makes the
 * holds of the file's owners match it (the plan is libibmcg's,
 * ibmcg__conf_plan()).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcctl.h"
#include "mcctl_conf.h"

const struct cmd_usage apply_usage = {
	"mcctl apply [ --dry-run | -n | --check ]\n", 0,
	"--dry-run, -n: print the plan, change nothing;\n"
	"--check: only validate the configuration file (no module needed);\n"
	"exit status 2 if it has errors\n",
};

static void print_devport(const char *dev, uint32_t port)
{
	char buf[IBMCG_DEV_NAME_MAX + 12];

	if (port)
		snprintf(buf, sizeof(buf), "%s/%u", dev, port);
	else
		snprintf(buf, sizeof(buf), "%s", dev);
	print_string(PRINT_FP, NULL, " %s", buf);
	print_string(PRINT_JSON, "dev", NULL, dev);
	if (port)
		print_uint(PRINT_JSON, "port", NULL, port);
}

/* result: "planned", "ok" or "failed" (JSON only); error: why it failed. */
static void print_action(const struct plan_action *a, const char *result,
			 const char *error)
{
	char buf[IBMCG_MGID_STRLEN], js[IBMCG_JOIN_STATE_STRLEN];

	open_json_object(NULL);
	print_string(PRINT_ANY, "action", "%-6s", ibmcg__plan_op_name(a->op));
	if (a->entry)
		print_string(PRINT_ANY, "name", " %s", a->entry->name);
	else
		print_string(PRINT_FP, NULL, " %s", "-");
	print_devport(a->dev, a->port);
	print_string(PRINT_ANY, "group", " %s",
		     ibmcg_mgid_format(a->mgid, buf, sizeof(buf)));
	print_string(PRINT_ANY, "owner", " owner %s", a->owner);
	print_string(PRINT_ANY, "state", " state %s",
		     ibmcg_join_state_format(a->join_state, js, sizeof(js)));
	if (a->op == PLAN_UPDATE) {
		print_uint(PRINT_ANY, "linger_was_ms", " linger %u",
			   a->linger_was);
		print_uint(PRINT_ANY, "linger_ms", " -> %u ms",
			   a->args.linger_ms);
	} else if (a->op == PLAN_JOIN && a->args.set_linger) {
		print_uint(PRINT_ANY, "linger_ms", " linger %u ms",
			   a->args.linger_ms);
	}
	if (a->op == PLAN_LEAVE)
		print_string(PRINT_FP, NULL, "%s", " (not declared)");
	if (a->op == PLAN_SKIP)
		print_string(PRINT_ANY, "why", " (%s)",
			     "no such device or port");
	print_string(PRINT_JSON, "result", NULL, result);
	if (error)
		print_string(PRINT_ANY, "error", ": %s", error);
	print_nl();
	close_json_object();
}

/* Do one action; 0, or -errno with the kernel's message in *msg. */
static int do_action(struct ibmcg *h, const struct plan_action *a,
		     const char **msg)
{
	int err = 0;

	switch (a->op) {
	case PLAN_JOIN:
	case PLAN_UPDATE:
		err = ibmcg_join(h, a->dev, a->port, a->mgid, &a->args, NULL);
		break;
	case PLAN_LEAVE:
		err = ibmcg_leave(h, a->dev, a->port, a->mgid, a->owner,
				  a->join_state, NULL);
		/* Gone already (the device went away, say): nothing held. */
		if (err == -ENOENT)
			err = 0;
		break;
	case PLAN_KEEP:
	case PLAN_SKIP:
		break;
	}
	if (err)
		*msg = ibmcg_strerror(h, err);
	return err;
}

static int usage_apply(const char *arg)
{
	return usage_err("mcctl: unknown apply option '%s': expected 'mcctl apply [ --dry-run | -n | --check ]'",
			 arg);
}

/*
 * apply --check: the file alone, without the module, for configuration
 * management; a usage error (exit status 2) if it has errors.
 */
static int check_only(void)
{
	size_t i, groups = 0, pools = 0;
	struct conf c;
	int ret;

	ret = conf_load(mcctl_config, &c);
	if (ret)
		return ret;
	for (i = 0; i < c.n; i++) {
		if (c.entries[i].kind == CONF_POOL)
			pools++;
		else
			groups++;
	}
	open_json_object(NULL);
	print_string(PRINT_ANY, "config", "%s:", c.path);
	print_flag(PRINT_JSON, "valid", NULL, true);
	print_string(PRINT_FP, NULL, " %s", "valid,");
	print_string(PRINT_ANY, "owner", " owner %s,",
		     c.owner[0] ? c.owner : IBMCG__CONF_OWNER);
	print_uint(PRINT_ANY, "groups", " %u", groups);
	print_string(PRINT_FP, NULL, "%s", groups == 1 ? " group," : " groups,");
	print_uint(PRINT_ANY, "pools", " %u", pools);
	print_string(PRINT_FP, NULL, "%s", pools == 1 ? " pool" : " pools");
	print_nl();
	close_json_object();
	ibmcg__conf_free(&c);
	return mcctl_finish_output();
}

int cmd_apply(int argc, char **argv)
{
	struct ibmcg_group **groups = NULL;
	struct ibmcg_port **ports = NULL;
	struct plan_action *acts = NULL;
	size_t i, nports = 0, ngroups = 0, n = 0, count[PLAN_SKIP + 1] = { 0 };
	size_t failed = 0;
	bool dry_run = false, check = false;
	struct ibmcg *h;
	struct conf c;
	int ret, err;

	for (; argc > 0; argc--, argv++) {
		if (!strcmp(*argv, "--dry-run") || !strcmp(*argv, "-n"))
			dry_run = true;
		else if (!strcmp(*argv, "--check"))
			check = true;
		else
			return usage_apply(*argv);
	}
	if (check && dry_run)
		return usage_err("mcctl: apply: --check or --dry-run, not both: --check only reads the file, --dry-run also the module's holds");
	if (check)
		return check_only();
	ret = conf_load(mcctl_config, &c);
	if (ret)
		return ret;
	h = mcctl_handle(&ret);
	if (!h)
		goto out;
	err = ibmcg_port_dump(h, NULL, &ports, &nports);
	if (!err)
		err = ibmcg_group_dump(h, NULL, 0, &groups, &ngroups);
	if (!err)
		err = ibmcg__conf_plan(&c, ports, nports, groups, ngroups, &acts, &n);
	if (err) {
		ret = mcctl_kernel_err(err, NULL);
		goto out;
	}

	open_json_object(NULL);
	print_string(PRINT_JSON, "config", NULL, c.path);
	print_flag(PRINT_JSON, "dry_run", NULL, dry_run);
	open_json_array("actions");
	for (i = 0; i < n; i++) {
		const char *msg = NULL;

		if (dry_run) {
			print_action(&acts[i], "planned", NULL);
		} else if (do_action(h, &acts[i], &msg)) {
			print_action(&acts[i], "failed", msg);
			failed++;
			continue;
		} else {
			print_action(&acts[i], "ok", NULL);
		}
		count[acts[i].op]++;
	}
	close_json_array();
	print_string(PRINT_FP, NULL, "%s:", dry_run ? "plan" : "apply");
	print_uint(PRINT_ANY, "join", dry_run ? " %u to join," : " %u joined,",
		   count[PLAN_JOIN]);
	print_uint(PRINT_ANY, "update",
		   dry_run ? " %u to update," : " %u updated,",
		   count[PLAN_UPDATE]);
	print_uint(PRINT_ANY, "leave", dry_run ? " %u to leave," : " %u left,",
		   count[PLAN_LEAVE]);
	print_uint(PRINT_ANY, "keep", " %u kept,", count[PLAN_KEEP]);
	print_uint(PRINT_ANY, "skip", " %u skipped", count[PLAN_SKIP]);
	print_uint(PRINT_ANY, "failed", ", %u failed", failed);
	print_nl();
	close_json_object();
	ret = mcctl_finish_output();
	if (!ret && failed)
		ret = EXIT_FAILURE;
out:
	free(acts);
	ibmcg_groups_free(groups);
	ibmcg_ports_free(ports);
	ibmcg__conf_free(&c);
	return ret;
}
