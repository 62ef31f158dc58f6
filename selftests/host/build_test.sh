#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Host unit tests of the module's build machinery, as KTAP; the last line is
# "N passed, M failed". Needs only bash, make, gcc and tar: no kernel headers.
#
# - kernel/compat/probe.sh against fake kernel trees (generated here): a
#   Makefile that compiles "M=dir NAME.o..." with plain gcc and the tree's
#   include/, with minimal rdma/ib_verbs.h and net/genetlink.h that have or
#   lack each probed feature, or have it with another type; the generated
#   compat_autoconf.h must say exactly what the headers have. Also: one make
#   run for all probes, the cache, a broken tree, compat.h's shims
#   compiling against each variant, and its one ops table registered as
#   split ops or as genl_ops as the variant has them.
# - MLNX_OFED/DOCA-OFED detection in kernel/Makefile (print-ofa and the
#   module build's arguments) with fake /usr/src/ofa_kernel trees, and that
#   the probes see OFED's headers before the kernel's.
# - dkms.conf, make dkms-source and make dkms-tarball.
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/selftests/lib.sh"

T=$(mktemp -d "${TMPDIR:-/tmp}/mcg-build-test.XXXXXX")
defer rm -rf "$T"
export MCG_PROBE_CACHE=$T/cache
# The test runs outside any make; a make around it must not leak flags in.
unset MAKEFLAGS MAKELEVEL MFLAGS

# fake_kdir DIR ADD_RET PORT_TYPE RESV SPLIT [INFODUMP MCASTCAP GETNETDEV CQATTRS]:
# a fake kernel tree. ADD_RET: ib_client.add's return type; PORT_TYPE: the
# verbs' port number type; the others 0 (absent), 1 (present) or, for
# SPLIT, GETNETDEV and CQATTRS, "odd" (present with another type).
fake_kdir() {
	local d=$1 add=$2 port=$3 resv=$4 split=$5 infodump=${6:-0} mcastcap=${7:-0}
	local getnetdev=${8:-0} cqattrs=${9:-0} cqarg

	mkdir -p "$d/include/linux" "$d/include/rdma" "$d/include/net" \
		"$d/include/generated"
	# (recipes need tabs: no <<- here)
	cat >"$d/Makefile" <<'EOF'
# A fake kbuild: "make -C DIR M=dir NAME.o..." compiles dir/NAME.c with
# gcc and this tree's include/, plus what dir/Kbuild adds.
MAKEFLAGS += -r
srctree := $(CURDIR)
src := $(M)
LINUXINCLUDE := -I$(CURDIR)/include -include $(CURDIR)/include/linux/kconfig.h
$(shell echo "goals=[$(MAKECMDGOALS)] flags=[$(MAKEFLAGS)] ofa=[$(OFA_DIR)] symvers=[$(KBUILD_EXTRA_SYMBOLS)]" >>$(CURDIR)/make.log)
include $(M)/Kbuild
%.o: FORCE
	gcc -c -Werror $(LINUXINCLUDE) $(ccflags-y) -o $(M)/$@ $(M)/$*.c
modules:
	@echo fake modules build
clean:
FORCE:
.PHONY: modules clean FORCE
EOF
	cat >"$d/include/linux/types.h" <<-'EOF'
	#ifndef FAKE_TYPES_H
	#define FAKE_TYPES_H
	typedef unsigned char u8;
	typedef unsigned int u32;
	typedef _Bool bool;
	#define true 1
	#define false 0
	#endif
	EOF
	echo '#define static_assert(expr, msg) _Static_assert(expr, msg)' \
		>"$d/include/linux/build_bug.h"
	echo '#define WARN_ON(cond) (cond)' >"$d/include/linux/bug.h"
	printf '#define ENOMEM 12\n#define EINVAL 22\n' >"$d/include/linux/errno.h"
	cat >"$d/include/linux/slab.h" <<-'EOF'
	#include <stdlib.h>
	#define GFP_KERNEL 0
	#define kcalloc(n, size, gfp) calloc(n, size)
	#define kfree(p) free((void *)(p))
	EOF
	# hrtimer_init() and ->function, as before 6.13 (no hrtimer_setup())
	cat >"$d/include/linux/hrtimer.h" <<-'EOF'
	#include <time.h>
	enum hrtimer_mode { HRTIMER_MODE_REL = 1 };
	enum hrtimer_restart { HRTIMER_NORESTART };
	struct hrtimer { enum hrtimer_restart (*function)(struct hrtimer *); };
	void hrtimer_init(struct hrtimer *t, clockid_t clock, enum hrtimer_mode mode);
	EOF
	echo '#define CONFIG_FAKE_KCONFIG 1' >"$d/include/linux/kconfig.h"
	echo '#define FAKE_AUTOCONF 1' >"$d/include/generated/autoconf.h"
	echo '#define UTS_RELEASE "9.9.0-fake"' >"$d/include/generated/utsrelease.h"
	cat >"$d/include/rdma/ib_verbs.h" <<-EOF
	#ifndef FAKE_IB_VERBS_H
	#define FAKE_IB_VERBS_H
	#include <linux/types.h>
	struct ib_device;
	struct ib_port_attr { int state; };
	struct ib_client {
		const char *name;
		$add (*add)(struct ib_device *dev);
		void (*remove)(struct ib_device *dev, void *client_data);
	};
	struct ib_event {
		struct ib_device *device;
		union { $port port_num; } element;
		int event;
	};
	int ib_query_port(struct ib_device *device, $port port_num,
			  struct ib_port_attr *port_attr);
	struct net_device;
	struct ib_cq; struct ib_cq_init_attr; struct ib_udata; struct uverbs_attr_bundle;
	EOF
	case $getnetdev in
	1) echo "struct net_device *ib_device_get_netdev(struct ib_device *ib_dev, $port port);" ;;
	odd) echo "struct net_device *ib_device_get_netdev(struct ib_device *ib_dev, int port, int flags);" ;;
	esac >>"$d/include/rdma/ib_verbs.h"
	case $cqattrs in
	1) cqarg='struct uverbs_attr_bundle *attrs' ;;
	odd) cqarg='void *attrs' ;;
	*) cqarg='struct ib_udata *udata' ;;
	esac
	cat >>"$d/include/rdma/ib_verbs.h" <<-EOF
	struct ib_device_ops {
		int (*create_cq)(struct ib_cq *cq, const struct ib_cq_init_attr *attr,
				 $cqarg);
	};
	#endif
	EOF
	{
		echo '#ifndef FAKE_GENETLINK_H'
		echo '#define FAKE_GENETLINK_H'
		echo '#include <linux/types.h>'
		echo 'struct sk_buff; struct nlattr;'
		echo '#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))'
		echo '#define GENL_ADMIN_PERM 0x01'
		echo '#define GENL_CMD_CAP_DO 0x02'
		echo '#define GENL_CMD_CAP_DUMP 0x04'
		echo 'struct nla_policy { u8 type; };'
		echo 'struct netlink_callback { void *data; };'
		echo 'struct genl_info { struct nlattr **attrs; };'
		echo 'struct genl_ops {'
		echo '	int (*doit)(struct sk_buff *skb, struct genl_info *info);'
		echo '	int (*dumpit)(struct sk_buff *skb, struct netlink_callback *cb);'
		echo '	int (*done)(struct netlink_callback *cb);'
		echo '	const struct nla_policy *policy;'
		echo '	unsigned int maxattr;'
		echo '	u8 cmd, flags;'
		echo '};'
		# 6.2's, do and dump callbacks in a union; "odd": an ops struct
		# by that name with a doit but no dumpit or policy of its own.
		case $split in
		1) cat <<-'EOS'
		struct genl_split_ops {
			union {
				struct {
					int (*pre_doit)(void);
					int (*doit)(struct sk_buff *skb, struct genl_info *info);
					void (*post_doit)(void);
				};
				struct {
					int (*start)(struct netlink_callback *cb);
					int (*dumpit)(struct sk_buff *skb, struct netlink_callback *cb);
					int (*done)(struct netlink_callback *cb);
				};
			};
			const struct nla_policy *policy;
			unsigned int maxattr;
			u8 cmd, internal_flags, flags, validate;
		};
		EOS
		;;
		odd) echo 'struct genl_split_ops { int (*doit)(struct sk_buff *skb, struct genl_info *info); u8 cmd, flags; };' ;;
		esac
		echo 'struct genl_family {'
		echo '	const char *name;'
		[ "$resv" = 1 ] && echo '	u8 resv_start_op;'
		echo '	const struct genl_ops *ops;'
		echo '	u8 n_ops;'
		[ "$split" != 0 ] && echo '	const struct genl_split_ops *split_ops;'
		[ "$split" != 0 ] && echo '	u8 n_split_ops;'
		echo '};'
		echo 'int genl_register_family(struct genl_family *family);'
		echo 'int genl_unregister_family(const struct genl_family *family);'
		if [ "$infodump" = 1 ]; then
			echo 'struct genl_dumpit_info { struct genl_info info; };'
			echo 'static inline const struct genl_info *genl_info_dump(struct netlink_callback *cb)'
			echo '{ return &((const struct genl_dumpit_info *)cb->data)->info; }'
		else
			echo 'struct genl_dumpit_info { struct nlattr **attrs; };'
		fi
		echo 'static inline const struct genl_dumpit_info *genl_dumpit_info(struct netlink_callback *cb)'
		echo '{ return cb->data; }'
		if [ "$mcastcap" = 1 ]; then
			echo '#define GENL_MCAST_CAP_NET_ADMIN (1U << 0)'
			echo 'struct genl_multicast_group { char name[16]; u8 flags; };'
		else
			echo 'struct genl_multicast_group { char name[16]; };'
		fi
		echo '#endif'
	} >"$d/include/net/genetlink.h"
}

# have HEADER NAME: 1 if HEADER defines MCG_HAVE_NAME, else 0
have() {
	if grep -q "^#define MCG_HAVE_$2 1$" "$1"; then echo 1; else echo 0; fi
}

probe() { bash "$TOP/kernel/compat/probe.sh" -q "$@"; }

ktap_plan 101

# --- probes: each feature present, absent, or present with another type ------
# Columns: name, the fake tree (add() return, port type, resv_start_op,
# split ops, genl_info_dump, GENL_MCAST_CAP_NET_ADMIN, exported
# ib_device_get_netdev, create_cq's attribute bundle), then the expected
# MCG_HAVE_*: IB_CLIENT_ADD_INT IB_PORT_U32 GENL_RESV_START_OP
# GENL_SPLIT_OPS GENL_INFO_DUMP GENL_MCAST_CAP_NET_ADMIN IB_DEVICE_GET_NETDEV
# and simhca's CREATE_CQ_ATTRS.
variants=(
	"v6.12  int  u32 1 1 1 1 1   1     1 1 1 1 1 1 1 1"
	"v6.6   int  u32 1 1 1 1 0   0     1 1 1 1 1 1 0 0"
	"v6.1   int  u32 1 0 0 1 0   0     1 1 1 0 0 1 0 0"
	"v5.10  int  u8  0 0 0 0 0   0     1 0 0 0 0 0 0 0"
	"v5.4   void u8  0 0 0 0 0   0     0 0 0 0 0 0 0 0"
	"odd    long int 0 odd 0 0 odd odd 0 0 0 0 0 0 0 0"
)
features="IB_CLIENT_ADD_INT IB_PORT_U32 GENL_RESV_START_OP GENL_SPLIT_OPS GENL_INFO_DUMP GENL_MCAST_CAP_NET_ADMIN IB_DEVICE_GET_NETDEV"
for v in "${variants[@]}"; do
	read -r name add port resv split infodump mcastcap getnetdev cqattrs expect <<<"$v"
	read -r -a exp <<<"$expect"
	k=$T/kdir-$name
	fake_kdir "$k" "$add" "$port" "$resv" "$split" "$infodump" "$mcastcap" "$getnetdev" "$cqattrs"
	out=$T/$name.h
	sout=$T/$name-simhca.h
	if ! probe "$k" "$out" 2>"$T/err"; then
		ktap_fail "$name: probe.sh ran"
		ktap_diag "$(cat "$T/err")"
		for _ in $features simhca; do ktap_fail "$name: (not run)"; done
		[ "$name" = odd ] || ktap_fail "$name: (not run)"
		[ "$name" = odd ] || ktap_fail "$name: (not run)"
		continue
	fi
	ktap_ok "$name: probe.sh ran"
	i=0
	for f in $features; do
		check_eq "$name: MCG_HAVE_$f=${exp[$i]}" "${exp[$i]}" "$(have "$out" "$f")"
		i=$((i + 1))
	done
	# (a copy of the tree: the checks below count the make runs in this one)
	cp -r "$k" "$k-simhca"
	MCG_PROBES_DIR=$TOP/selftests/simhca/probes:$TOP/kernel/compat/probes \
		probe "$k-simhca" "$sout" 2>"$T/err"
	check_eq "$name: simhca probes: MCG_HAVE_CREATE_CQ_ATTRS=${exp[$i]}" "${exp[$i]}" \
		"$(have "$sout" CREATE_CQ_ATTRS)"
	# compat.h's shims against these headers: the add callback must have the
	# type the tree wants and the dump attributes come from where the tree
	# has them, with -Werror.
	mkdir -p "$T/shim-$name"
	cp "$TOP/kernel/compat.h" "$T/shim-$name/"
	cp "$out" "$T/shim-$name/compat_autoconf.h"
	cat >"$T/shim-$name/shim.c" <<-'EOF'
	#include <rdma/ib_verbs.h>
	#include "compat.h"
	static int add_one(struct ib_device *dev) { return dev ? 0 : -1; }
	MCG_IB_CLIENT_ADD_WRAPPER(add_one);
	struct ib_client client = { .add = MCG_IB_CLIENT_ADD(add_one) };
	int query(struct ib_device *dev, u32 port)
	{
		mcg_ib_port_t p = port;
		struct ib_port_attr attr;

		return ib_query_port(dev, p, &attr);
	}
	struct nlattr **dump_attrs(struct netlink_callback *cb)
	{
		return mcg_dump_attrs(cb);
	}
	EOF
	# (no shim exists for the odd variant's long add())
	[ "$name" = odd ] ||
		check "$name: compat.h shims compile (-Werror)" \
			gcc -c -Wall -Werror -I"$k/include" -o "$T/shim-$name/shim.o" "$T/shim-$name/shim.c"
	# The family's ops: one table of split ops, registered as they are
	# where the tree has them, else folded into one genl_ops per command
	# with the do's policy; tables out of split-ops order are refused on
	# every tree.
	cat >"$T/shim-$name/ops.c" <<-'EOF'
	#include <stdio.h>
	#include <rdma/ib_verbs.h>
	#include "compat.h"
	static const struct nla_policy pol_a[4], pol_b[3];
	static int do_a(struct sk_buff *skb, struct genl_info *info) { return 1; }
	static int dump_b(struct sk_buff *skb, struct netlink_callback *cb) { return 2; }
	static int done_b(struct netlink_callback *cb) { return 3; }
	#define DO GENL_CMD_CAP_DO
	#define DUMP GENL_CMD_CAP_DUMP
	static const struct mcg_genl_split_ops ops[] = {
		{ .cmd = 1, .flags = GENL_ADMIN_PERM | DO, .doit = do_a, .policy = pol_a, .maxattr = 3 },
		{ .cmd = 3, .flags = DO, .doit = do_a, .policy = pol_a, .maxattr = 3 },
		{ .cmd = 3, .flags = DUMP, .dumpit = dump_b, .done = done_b, .policy = pol_b, .maxattr = 2 },
		{ .cmd = 10, .flags = GENL_ADMIN_PERM | DUMP, .dumpit = dump_b, .policy = pol_b, .maxattr = 2 },
	};
	static const struct mcg_genl_split_ops dump_first[] = {
		{ .cmd = 3, .flags = DUMP, .dumpit = dump_b }, { .cmd = 3, .flags = DO, .doit = do_a },
	};
	static const struct mcg_genl_split_ops unsorted[] = {
		{ .cmd = 3, .flags = DO, .doit = do_a }, { .cmd = 1, .flags = DO, .doit = do_a },
	};
	static const struct mcg_genl_split_ops both[] = {
		{ .cmd = 3, .flags = DO | DUMP, .doit = do_a },
	};
	static struct genl_family fam = { .name = "x" };
	static int registered;
	static const char *pol(const struct nla_policy *p)
	{
		return p == pol_a ? "a" : p == pol_b ? "b" : "?";
	}
	int genl_register_family(struct genl_family *f)
	{
		unsigned int i;
	#ifdef MCG_HAVE_GENL_SPLIT_OPS
		for (i = 0; i < f->n_split_ops; i++) {
			const struct genl_split_ops *o = &f->split_ops[i];
			int dump = o->flags & GENL_CMD_CAP_DUMP;

			printf("%u%s%s%s:%s/%u%s%s;", o->cmd,
			       o->flags & GENL_CMD_CAP_DO && o->doit == do_a ? " do" : "",
			       dump && o->dumpit == dump_b ? " dump" : "",
			       dump && o->done == done_b ? " done" : "",
			       pol(o->policy), o->maxattr,
			       o->flags & GENL_ADMIN_PERM ? " admin" : "",
			       o->flags & ~(GENL_ADMIN_PERM | DO | DUMP) ? " ?" : "");
		}
	#else
		for (i = 0; i < f->n_ops; i++) {
			const struct genl_ops *o = &f->ops[i];

			printf("%u%s%s%s:%s/%u%s%s;", o->cmd,
			       o->doit == do_a ? " do" : "",
			       o->dumpit == dump_b ? " dump" : "",
			       o->done == done_b ? " done" : "",
			       pol(o->policy), o->maxattr,
			       o->flags & GENL_ADMIN_PERM ? " admin" : "",
			       o->flags & ~GENL_ADMIN_PERM ? " ?" : "");
		}
	#endif
		registered++;
		return 0;
	}
	int genl_unregister_family(const struct genl_family *f)
	{
		registered--;
		return 0;
	}
	int main(void)
	{
		if (mcg_genl_register_family(&fam, ops, sizeof(ops) / sizeof(ops[0])))
			return 1;
		mcg_genl_unregister_family(&fam);
		printf("|%d %d %d %d\n",
		       mcg_genl_register_family(&fam, dump_first, 2),
		       mcg_genl_register_family(&fam, unsorted, 2),
		       mcg_genl_register_family(&fam, both, 1), registered);
		return 0;
	}
	EOF
	if [ "${exp[3]}" = 1 ]; then
		want="1 do:a/3 admin;3 do:a/3;3 dump done:b/2;10 dump:b/2 admin;|-22 -22 -22 0"
	else
		want="1 do:a/3 admin;3 do dump done:a/3;10 dump:b/2 admin;|-22 -22 -22 0"
	fi
	[ "$name" = odd ] ||
		check_eq "$name: one ops table, registered as $([ "${exp[3]}" = 1 ] && echo split ops || echo genl_ops)" \
			"$want" "$(gcc -Wall -Werror -I"$k/include" -o "$T/shim-$name/ops" \
				"$T/shim-$name/ops.c" 2>&1 && "$T/shim-$name/ops")"
done

# --- one make run for all probes, with -k; the cache; no needless rewrite ----
k=$T/kdir-v6.1
check_eq "one make invocation for all probes" 1 "$(wc -l <"$k/make.log")"
goals=$(cd "$TOP/kernel/compat/probes" && LC_ALL=C ls -- *.c | sed 's/\.c$/.o/' | xargs)
check "it builds every probe object" \
	grep -qF "goals=[$goals]" "$k/make.log"
check "it runs with -k" grep -qE 'flags=\[[^] ]*k' "$k/make.log"
touch -d '2000-01-01' "$T/v6.1.h"
probe "$k" "$T/v6.1.h"
check_eq "a second run uses the cache (no make)" 1 "$(wc -l <"$k/make.log")"
check_eq "an unchanged header is not rewritten" 2000 "$(date -r "$T/v6.1.h" +%Y)"
echo '#define FAKE_AUTOCONF 2' >"$k/include/generated/autoconf.h"
probe "$k" "$T/v6.1.h"
check_eq "a changed kernel config probes again" 2 "$(wc -l <"$k/make.log")"
MCG_PROBE_CACHE='' probe "$k" "$T/v6.1.h"
check_eq "MCG_PROBE_CACHE= probes without a cache" 3 "$(wc -l <"$k/make.log")"

# --- a broken tree must not look like an old kernel --------------------------
fake_kdir "$T/kdir-broken" int u32 1 0
rm "$T/kdir-broken/include/rdma/ib_verbs.h"
check_fail "no RDMA headers: probe.sh fails" probe "$T/kdir-broken" "$T/broken.h"
check "... and writes no header" test ! -e "$T/broken.h"
check_fail "no kernel tree: probe.sh fails" probe "$T/nonexistent" "$T/broken.h"

# --- MLNX_OFED / DOCA-OFED ----------------------------------------------------
# The kernel tree is 5.4-like, OFED's headers are 6.1-like: the probes must
# see OFED's, and OFED's compat-2.6.h must come after kconfig.h and before
# OFED's own headers (it checks that, the headers check that it came first).
k=$T/kdir-v5.4
ofa_root=$T/ofa_kernel
mk_ofa() {
	local o=$1

	fake_kdir "$T/ofa-src" int u32 1 0
	mkdir -p "$o/include/linux"
	cp -r "$T/ofa-src/include/rdma" "$T/ofa-src/include/net" "$o/include/"
	mkdir -p "$o/include/uapi"
	cat >"$o/include/linux/compat-2.6.h" <<-'EOF'
	#ifndef CONFIG_FAKE_KCONFIG
	#error kconfig.h must come before compat-2.6.h
	#endif
	#define FAKE_OFA_COMPAT 1
	EOF
	sed -i '1i #ifndef FAKE_OFA_COMPAT\n#error compat-2.6.h was not included first\n#endif' \
		"$o/include/rdma/ib_verbs.h"
	echo "0x12345678	ib_register_client	drivers/infiniband/core/ib_core	EXPORT_SYMBOL" \
		>"$o/Module.symvers"
}
mk_ofa "$ofa_root/default"
probe "$k" "$T/ofa.h" "$ofa_root/default" 2>"$T/err"
check_eq "OFED headers first: IB_CLIENT_ADD_INT from OFED" 1 "$(have "$T/ofa.h" IB_CLIENT_ADD_INT)"
check_eq "OFED headers first: IB_PORT_U32 from OFED" 1 "$(have "$T/ofa.h" IB_PORT_U32)"
check "the header records OFA_DIR" grep -q "MCG_RDMA_HEADERS \"ofa:$ofa_root/default\"" "$T/ofa.h"
check_eq "without OFED the same tree has neither" "0 0" \
	"$(have "$T/v5.4.h" IB_CLIENT_ADD_INT) $(have "$T/v5.4.h" IB_PORT_U32)"

# kernel/Makefile's decision, on a copy of kernel/ (it writes files there)
cp -r "$TOP/kernel" "$T/src-kernel"
mkdir -p "$T/src/include"
mv "$T/src-kernel" "$T/src/kernel"
cp -r "$TOP/include/uapi" "$T/src/include/"
cp "$TOP/VERSION" "$T/src/"
rm -rf "$T/src/kernel/.compat-cache" "$T/src/kernel/compat_autoconf.h" "$T/src/kernel/version.h"
print_ofa() { make -s -C "$T/src/kernel" KDIR="$k" OFA_ROOT="$ofa_root" OFA_ARCH=x86_64 "$@" print-ofa; }
field() { sed -n "s/^$1: //p"; }

check_eq "print-ofa: KVER from the tree" "9.9.0-fake" "$(print_ofa | field KVER)"
check_eq "only default/: it is used" "$ofa_root/default" "$(print_ofa | field OFA_DIR)"
mk_ofa "$ofa_root/x86_64/9.9.0-fake"
mk_ofa "$ofa_root/x86_64/9.8.0-other"
check_eq "<arch>/<kver>/ is preferred to default/" "$ofa_root/x86_64/9.9.0-fake" \
	"$(print_ofa | field OFA_DIR)"
o=$ofa_root/x86_64/9.9.0-fake
check_eq "include order: kconfig.h, compat-2.6.h, include, include/uapi" \
	"-include <srctree>/include/linux/kconfig.h -include $o/include/linux/compat-2.6.h -I$o/include -I$o/include/uapi" \
	"$(print_ofa | field 'LINUXINCLUDE prefix')"
check_eq "KBUILD_EXTRA_SYMBOLS is OFED's Module.symvers" "$o/Module.symvers" \
	"$(print_ofa | field KBUILD_EXTRA_SYMBOLS)"
check_eq "OFA_DIR= forces the kernel's ib_core" "none none" \
	"$(print_ofa OFA_DIR= | field OFA_DIR) $(print_ofa OFA_DIR= | field KBUILD_EXTRA_SYMBOLS)"
check_eq "OFA_DIR=dir is taken as given" "$ofa_root/default" \
	"$(print_ofa OFA_DIR="$ofa_root/default" | field OFA_DIR)"
check_eq "no OFED installed: the kernel's ib_core" "none" \
	"$(make -s -C "$T/src/kernel" KDIR="$k" OFA_ROOT="$T/none" print-ofa | field OFA_DIR)"

: >"$k/make.log"
check "make -C kernel with OFED: probes and module build" \
	make -s -C "$T/src/kernel" KDIR="$k" OFA_ROOT="$ofa_root" OFA_ARCH=x86_64
check "the module build gets OFA_DIR and OFED's Module.symvers" \
	grep -q "goals=\[modules\] .*ofa=\[$o\] symvers=\[$o/Module.symvers\]" "$k/make.log"
check_eq "the probes saw OFED's headers" "1 1" \
	"$(have "$T/src/kernel/compat_autoconf.h" IB_CLIENT_ADD_INT) $(have "$T/src/kernel/compat_autoconf.h" IB_PORT_U32)"
check "version.h records which headers built it" \
	grep -q 'MODULE_INFO(rdma_headers, MCG_RDMA_HEADERS)' "$T/src/kernel/version.h"
rm "$o/Module.symvers"
check_fail "an OFA_DIR without Module.symvers is an error" \
	make -s -C "$T/src/kernel" KDIR="$k" OFA_ROOT="$ofa_root" OFA_ARCH=x86_64

# --- dkms.conf and the DKMS source tree ---------------------------------------
# shellcheck disable=SC1090,SC2034  # dkms.conf reads these
dkconf() {
	(cd / && kernel_source_dir=/ksrc kernelver=9.9.0-fake \
		dkms_tree=${2:-/nonexistent} && . "$1" && eval "echo \"\${$3:-}\"")
}
check_eq "dkms.conf: PACKAGE_VERSION from VERSION" "$(cat "$TOP/VERSION")" \
	"$(dkconf "$TOP/dkms.conf" "" PACKAGE_VERSION)"
check_eq "dkms.conf: DEST_MODULE_LOCATION" "/updates/dkms" \
	"$(dkconf "$TOP/dkms.conf" "" 'DEST_MODULE_LOCATION[0]')"
check_eq "dkms.conf: AUTOINSTALL" "yes" "$(dkconf "$TOP/dkms.conf" "" AUTOINSTALL)"
check_eq "dkms.conf: no BUILD_DEPENDS without mlnx-ofed-kernel in DKMS" "" \
	"$(dkconf "$TOP/dkms.conf" "" 'BUILD_DEPENDS[0]')"
mkdir -p "$T/dkmstree/mlnx-ofed-kernel"
check_eq "dkms.conf: BUILD_DEPENDS on a DKMS mlnx-ofed-kernel" "mlnx-ofed-kernel" \
	"$(dkconf "$TOP/dkms.conf" "$T/dkmstree" 'BUILD_DEPENDS[0]')"

make -s -C "$TOP" dkms-source DKMS_SRC="$T/dkms-src" >"$T/err" 2>&1
check_eq "dkms-source: dkms.conf has the version written in" \
	"PACKAGE_VERSION=\"$(cat "$TOP/VERSION")\"" "$(grep '^PACKAGE_VERSION=' "$T/dkms-src/dkms.conf")"
check "dkms-source: probes, ofa.mk, uapi header, no generated files" \
	bash -c "cd '$T/dkms-src' && test -f kernel/compat/probe.sh && test -f kernel/compat/probes/sanity.c &&
		test -f kernel/ofa.mk && test -f include/uapi/ib_mcgroups.h && test -f kernel/Kbuild &&
		! ls kernel/compat_autoconf.h kernel/version.h kernel/*.o kernel/*.ko 2>/dev/null | grep -q ."
: >"$k/make.log"
check "dkms-source builds as DKMS would (fake tree, dkms.conf's MAKE)" \
	bash -c "cd '$T/dkms-src' && kernel_source_dir='$k' kernelver=9.9.0-fake && . ./dkms.conf &&
		MCG_PROBE_CACHE= OFA_ROOT='$T/none' \${MAKE[0]} >'$T/dkms-make.log' 2>&1 &&
		grep -q 'goals=\[modules\]' '$k/make.log'"

tarball=$(make -s -C "$TOP" dkms-tarball 2>"$T/err" | tail -n1)
check "dkms-tarball: made $tarball" test -f "$TOP/$tarball"
check "dkms-tarball: dkms_source_tree/dkms.conf with the version (ldtarball layout)" \
	bash -c "tar -xOzf '$TOP/$tarball' dkms_source_tree/dkms.conf | grep -q '^PACKAGE_VERSION=\"$(cat "$TOP/VERSION")\"'"

echo "$__ktap_pass passed, $__ktap_fail failed$([ "$__ktap_skip" -gt 0 ] && echo ", $__ktap_skip skipped")"
ktap_finish
