#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# "make install" into a scratch DESTDIR: every file lands where systemd,
# udev and man look, the unit runs the mcctl that was installed, and a
# second install keeps the admin's configuration.
cd "$(dirname "$0")/.." || exit 1
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
# shellcheck source=tests/ktap.sh
. tests/ktap.sh

echo "TAP version 13"
echo "1..18"
make -s install DESTDIR="$D" PREFIX=/usr >"$D.log" 2>&1
ok $? "make install DESTDIR=... PREFIX=/usr"
for f in /usr/sbin/mcctl /usr/share/man/man8/mcctl.8 \
	 /usr/share/man/man5/ib_mcgroups.conf.5 \
	 /usr/lib/udev/rules.d/90-ib_mcgroups.rules /etc/ib_mcgroups.conf \
	 /usr/share/bash-completion/completions/mcctl; do
	[ -e "$D$f" ] || { echo "# missing $f"; missing=1; }
done
ok "${missing:-0}" "mcctl, man pages, udev rule, configuration and bash completion installed"
unit=$D/usr/lib/systemd/system/ib_mcgroups.service
exe=$(sed -n 's/^ExecStart=//p' "$unit")
[ "$exe" = "/usr/sbin/mcctl apply" ] && [ -x "$D${exe% apply}" ]
ok $? "the unit runs the installed mcctl ($exe)"
# The hardening leaves modprobe and mcctl apply what they need.
caps=$(sed -n 's/^CapabilityBoundingSet=//p' "$unit")
[ "$caps" = "CAP_SYS_MODULE CAP_NET_ADMIN" ] &&
	grep -qx 'RestrictAddressFamilies=AF_NETLINK AF_UNIX' "$unit" &&
	! grep -q '^ProtectKernelModules=yes\|^PrivateNetwork=yes' "$unit" &&
	grep -qx 'SystemCallFilter=@system-service @module' "$unit"
ok $? "the unit keeps CAP_SYS_MODULE, CAP_NET_ADMIN, netlink and module loading"
if command -v systemd-analyze >/dev/null; then
	# (installed without DESTDIR, so that ExecStart= is a real file)
	make -s install PREFIX="$D/v" SYSCONFDIR="$D/v/etc" >>"$D.log" 2>&1 &&
		systemd-analyze verify --man=no \
			"$D/v/lib/systemd/system/ib_mcgroups.service" >"$D.sa" 2>&1
	r=$?
	[ $r = 0 ] || sed 's/^/# /' "$D.sa"
	ok $r "systemd-analyze verify: the unit is valid"
	# (--threshold counts tenths: 30 is the 3.0 the summary shows)
	systemd-analyze security --offline=yes --threshold=30 "$unit" >"$D.sa" 2>&1
	r=$?
	grep 'Overall exposure' "$D.sa" | sed 's/^/# /'
	ok $r "systemd-analyze security: exposure at most 3 (hardened)"
	mu=$D/v/lib/systemd/system/ib_mcgroups-metrics
	systemd-analyze verify --man=no "$mu.service" "$mu.timer" >"$D.sa" 2>&1
	r=$?
	[ $r = 0 ] || sed 's/^/# /' "$D.sa"
	ok $r "systemd-analyze verify: the metrics service and timer are valid"
	systemd-analyze security --offline=yes --threshold=20 "$mu.service" >"$D.sa" 2>&1
	r=$?
	grep 'Overall exposure' "$D.sa" | sed 's/^/# /'
	ok $r "systemd-analyze security: metrics service exposure at most 2"
	rm -f "$D.sa"
else
	ok 0 "systemd-analyze verify # SKIP no systemd-analyze"
	ok 0 "systemd-analyze security # SKIP no systemd-analyze"
	ok 0 "systemd-analyze verify metrics # SKIP no systemd-analyze"
	ok 0 "systemd-analyze security metrics # SKIP no systemd-analyze"
fi
mu=$D/usr/lib/systemd/system/ib_mcgroups-metrics
[ "$(sed -n 's/^ExecStart=//p' "$mu.service")" = \
	"/usr/sbin/mcctl metrics --textfile /var/lib/prometheus/node-exporter" ] &&
	grep -qx 'ReadWritePaths=/var/lib/prometheus/node-exporter' "$mu.service" &&
	grep -qx 'CapabilityBoundingSet=' "$mu.service" &&
	grep -qx 'ProtectKernelModules=yes' "$mu.service" &&
	! grep -q '@[A-Z]*@' "$mu.service"
ok $? "the metrics service writes node_exporter's directory, without capabilities"
grep -qx 'OnUnitActiveSec=30s' "$mu.timer" && grep -qx 'WantedBy=timers.target' "$mu.timer"
ok $? "the metrics timer runs it every 30 s once enabled"
! grep -q '@SBINDIR@' "$unit"
ok $? "no placeholder is left in the unit"
[ "$(grep -c 'try-reload-or-restart ib_mcgroups.service' \
	"$D/usr/lib/udev/rules.d/90-ib_mcgroups.rules")" = 2 ]
ok $? "the udev rule reloads that unit on device and module add"
echo "group mine all 239.9.9.9" >>"$D/etc/ib_mcgroups.conf"
make -s install DESTDIR="$D" PREFIX=/usr >>"$D.log" 2>&1
ok $? "a second make install"
grep -q "group mine" "$D/etc/ib_mcgroups.conf"
ok $? "keeps the admin's /etc/ib_mcgroups.conf"
pc=$D/usr/lib/pkgconfig/libibmcg.pc
grep -qx 'prefix=/usr' "$pc" && grep -qx 'libdir=/usr/lib' "$pc" &&
	grep -qx "Version: $(cat ../VERSION)" "$pc"
ok $? "libibmcg.pc: PREFIX=/usr, the version in VERSION"
# Another PREFIX after the first build: the .pc follows it.
make -s install DESTDIR="$D/2" PREFIX=/opt/ibmcg >>"$D.log" 2>&1
pc=$D/2/opt/ibmcg/lib/pkgconfig/libibmcg.pc
grep -qx 'prefix=/opt/ibmcg' "$pc" && grep -qx 'libdir=/opt/ibmcg/lib' "$pc" &&
	grep -qx 'includedir=/opt/ibmcg/include' "$pc"
r=$?
[ $r = 0 ] || sed 's/^/# /' "$pc"
ok $r "libibmcg.pc follows a new PREFIX"
v=$(cat ../VERSION)
grep -q "^\.TH MCCTL 8 [0-9-]* \"ib_mcgroups $v\"" "$D/usr/share/man/man8/mcctl.8" &&
	grep -q "^\.TH IB_MCGROUPS.CONF 5 [0-9-]* \"ib_mcgroups $v\"" \
		"$D/usr/share/man/man5/ib_mcgroups.conf.5"
r=$?
[ $r = 0 ] || grep -h '^\.TH' "$D"/usr/share/man/man*/* | sed 's/^/# /'
ok $r "the installed man pages carry a date and the version $v"
bc=$D/2/opt/ibmcg/share/bash-completion/completions/mcctl
bash -c ". '$bc' && complete -p mcctl" 2>/dev/null | grep -q '_mcctl'
ok $? "the installed bash completion loads"
rm -f "$D.log"
ktap_done
