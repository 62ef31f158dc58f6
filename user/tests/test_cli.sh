#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# mcctl's command line without the module: what needs no kernel works
# whether ib_mcgroups is loaded or not (help, -V's own version, apply
# --check), and usage errors say "mcctl:" and what to try.
cd "$(dirname "$0")/.." || exit 1
M=./mcctl
D=$(mktemp -d /tmp/mcctl-cli.XXXXXX)
trap 'rm -rf "$D"' EXIT
# shellcheck source=tests/ktap.sh
. tests/ktap.sh
# run CMD...: exit status in $rc, stdout in $out, stderr in $err.
run() {
	"$@" >"$D/out" 2>"$D/err"
	rc=$?
	out=$(cat "$D/out")
	err=$(cat "$D/err")
}
# has TEXT STRING: STRING contains TEXT.
has() { case $2 in *"$1"*) return 0 ;; esac; return 1; }
show() { printf '# $ %s (exit %s)\n' "$*" "$rc"; printf '%s\n' "$out" "$err" | sed 's/^/#   /'; }

echo "TAP version 13"
echo "1..28"

run $M -V
first=$(printf '%s\n' "$out" | head -n1)
[ "$rc" = 0 ] && [ "$first" = "mcctl $(cat ../VERSION) (ib_mcgroups protocol 2)" ]
r=$?; [ $r = 0 ] || show $M -V
ok $r "mcctl -V: the version in VERSION, and the protocol"

# Per-command help: never a device name, never the module.
for c in join leave list show stats monitor apply diag fabric; do
	for h in help -h --help; do
		run $M $c $h
		{ [ "$rc" = 0 ] && has "Usage: mcctl $c" "$out" && [ -z "$err" ]; } || {
			show $M $c $h
			bad=1
		}
	done
done
ok "${bad:-0}" "CMD help, CMD -h, CMD --help: that command's usage, exit 0"
run $M help stats
[ "$rc" = 0 ] && has "Usage: mcctl stats [ DEV[/PORT] ]" "$out" && ! has "mcctl join" "$out"
r=$?; [ $r = 0 ] || show $M help stats
ok $r "help CMD: only that command's usage"
run $M l help
[ "$rc" = 0 ] && has "Usage: mcctl list" "$out"
r=$?; [ $r = 0 ] || show $M l help
ok $r "an abbreviated command's help"
run $M help
[ "$rc" = 0 ] && has "mcctl apply [ --dry-run | -n | --check ]" "$out"
r=$?; [ $r = 0 ] || show $M help
ok $r "the usage text names apply's -n and --check"

run $M bogus
[ "$rc" = 2 ] && [ "$err" = "mcctl: unknown command 'bogus'; try \"mcctl help\"" ]
r=$?; [ $r = 0 ] || show $M bogus
ok $r "unknown command: mcctl: prefix, a hint, exit 2"
run $M list rxe0/1 extra
[ "$rc" = 2 ] && [ "$err" = "mcctl: unknown parameter 'extra'; try \"mcctl list help\"" ]
r=$?; [ $r = 0 ] || show $M list rxe0/1 extra
ok $r "unknown parameter: mcctl: prefix, the command's help as hint, exit 2"
run $M join rxe0/1 239.1.1.1 colour blue
[ "$rc" = 2 ] && [ "$err" = "mcctl: unknown parameter 'colour'; try \"mcctl join help\"" ]
r=$?; [ $r = 0 ] || show $M join rxe0/1 239.1.1.1 colour blue
ok $r "unknown join keyword: the same"
run $M monitor now
[ "$rc" = 2 ] && [ "$err" = "mcctl: unknown parameter 'now'; try \"mcctl monitor help\"" ]
r=$?; [ $r = 0 ] || show $M monitor now
ok $r "monitor with a parameter: the same"

# apply --check: the file alone, no module.
cat >"$D/good.conf" <<'CONF'
owner node
group g1 all 239.1.1.1 linger 5s
pool  p1 rxe0/1 239.1.2.1
pool  p2 all-ib ff12:401b::1 create mtu 2048
CONF
run $M -c "$D/good.conf" apply --check
[ "$rc" = 0 ] && has "1 group, 2 pools" "$out"
r=$?; [ $r = 0 ] || show $M -c "$D/good.conf" apply --check
ok $r "apply --check: a valid file, exit 0, what it declares"
run $M -j -c "$D/good.conf" apply --check
[ "$rc" = 0 ] && has '"valid":true' "$out" && has '"groups":1' "$out" && has '"pools":2' "$out"
r=$?; [ $r = 0 ] || show $M -j -c "$D/good.conf" apply --check
ok $r "apply --check as JSON"
printf 'group g1 all 239.1.1.1\ngroup g2 all 239.1.1.x\n' >"$D/bad.conf"
run $M -c "$D/bad.conf" apply --check
[ "$rc" = 2 ] && has "mcctl: $D/bad.conf:2: invalid group '239.1.1.x'" "$err"
r=$?; [ $r = 0 ] || show $M -c "$D/bad.conf" apply --check
ok $r "apply --check: an error, FILE:LINE, exit 2"
run $M -c "$D/none.conf" apply --check
[ "$rc" = 2 ] && has "cannot read $D/none.conf" "$err"
r=$?; [ $r = 0 ] || show $M -c "$D/none.conf" apply --check
ok $r "apply --check: no file, exit 2"
run $M -c "$D/good.conf" apply --check --dry-run
[ "$rc" = 2 ] && has "mcctl:" "$err"
r=$?; [ $r = 0 ] || show $M apply --check --dry-run
ok $r "apply --check with --dry-run: usage error"

# Names that a keyword's abbreviation would take.
for name in o ow owner s sl a all b h help c flow_label; do
	printf 'pool %s all 239.1.1.1\n' "$name" >"$D/kw.conf"
	run $M -c "$D/kw.conf" apply --check
	{ [ "$rc" = 2 ] && has "mcctl: $D/kw.conf:1: name '$name'" "$err" &&
		has "keyword" "$err"; } || { show "pool $name"; kbad=1; }
done
ok "${kbad:-0}" "a pool named like a keyword or its abbreviation is refused"
for name in own1 g ownerx d0 e helpdesk; do
	printf 'pool %s all 239.1.1.1\n' "$name" >"$D/kw.conf"
	run $M -c "$D/kw.conf" apply --check
	[ "$rc" = 0 ] || { show "pool $name"; kok=1; }
done
ok "${kok:-0}" "names that are no keyword's abbreviation are accepted"
printf 'group st all 239.1.1.1\n' >"$D/kw.conf"
run $M -c "$D/kw.conf" apply --check
[ "$rc" = 2 ] && has "keyword" "$err"
r=$?; [ $r = 0 ] || show "group st"
ok $r "the same for group lines"

# -n, --dry-run: still need the module, but parse; -n is in the usage.
run $M apply --bogus
[ "$rc" = 2 ] && has "mcctl apply [ --dry-run | -n | --check ]" "$err"
r=$?; [ $r = 0 ] || show $M apply --bogus
ok $r "apply with an unknown option names -n and --check"

run $M diag help
[ "$rc" = 0 ] && has "exit status" "$out"
r=$?; [ $r = 0 ] || show $M diag help
ok $r "diag help says what its exit statuses mean"

run $M fabric help
[ "$rc" = 0 ] && has "4 lost, 5 stale, 6 both" "$out"
r=$?; [ $r = 0 ] || show $M fabric help
ok $r "fabric help says what its exit statuses mean"

# usage errors before the module or the SA is asked
run $M fabric rxe0/1 bogus
[ "$rc" = 2 ] && has "bogus" "$err"
r1=$?
run $M fabric smkey
[ "$rc" = 2 ] && has "smkey needs a value" "$err"
r2=$?
run $M fabric smkey 0x1g
[ "$rc" = 2 ] && has "bad smkey" "$err"
r=$((r1 || r2 || $?)); [ $r = 0 ] || show $M fabric smkey 0x1g
ok $r "fabric: unknown word, smkey without or with a bad value: exit 2"

run $M join help
[ "$rc" = 0 ] && has "STATE :=" "$out" && ! has "RATE :=" "$(./mcctl list help)"
r=$?; [ $r = 0 ] || show $M join help
ok $r "a command's help explains its own terms only"

run $M -h
[ "$rc" = 0 ] && has "-n" "$out" && has "Usage: mcctl [ OPTIONS ] COMMAND" "$out"
r=$?; [ $r = 0 ] || show $M -h
ok $r "mcctl -h: the whole usage"

# -batch: no kernel needed for help lines and refused commands.
printf '# a comment\n\n  help stats  \nhelp   "list"\n' >"$D/ok.batch"
run $M -batch "$D/ok.batch"
[ "$rc" = 0 ] && [ -z "$err" ] && has "Usage: mcctl stats" "$out" &&
	has "Usage: mcctl list" "$out"
r=$?; [ $r = 0 ] || show $M -batch ok.batch
ok $r "-batch: comments and blank lines skipped, quotes, every line runs"
printf 'help stats\n\nhold rxe0/1 239.1.1.1\nmonitor\nbogus\nhelp list\n' >"$D/bad.batch"
run $M -batch "$D/bad.batch"
[ "$rc" = 2 ] && [ "$err" = "$D/bad.batch:3: mcctl: hold runs until stopped: it cannot be a line of -batch
$D/bad.batch:3: command failed" ] && ! has "Usage: mcctl list" "$out"
r=$?; [ $r = 0 ] || show $M -batch bad.batch
ok $r "-batch: hold refused with FILE:LINE, stops at the first error, exit 2"
run $M -batch "$D/bad.batch" -force
[ "$rc" = 2 ] && has "$D/bad.batch:4: mcctl: monitor runs until stopped" "$err" &&
	has "$D/bad.batch:5: mcctl: unknown command 'bogus'" "$err" &&
	has "Usage: mcctl list" "$out"
r=$?; [ $r = 0 ] || show $M -batch bad.batch -force
ok $r "-batch -force: goes on after errors, each with its line, exit non-zero"
printf 'help stats\nhelp "list\n' >"$D/in.batch"
run sh -c "$M -batch - <'$D/in.batch'"
[ "$rc" = 2 ] && [ "$err" = "-:2: unterminated quote" ] && has "Usage: mcctl stats" "$out"
r=$?; [ $r = 0 ] || show $M -batch - "<in.batch"
ok $r "-batch -: lines from stdin, errors as -:LINE"
run $M -batch "$D/ok.batch" list
[ "$rc" = 2 ] && has "Usage: mcctl [ OPTIONS ] COMMAND" "$err"
r=$?; [ $r = 0 ] || show $M -batch ok.batch list
ok $r "-batch with a command too: usage error, exit 2"

ktap_done
