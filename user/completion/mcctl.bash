# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# bash completion for mcctl(8): commands, options and keywords, DEV and
# DEV/PORT from /sys/class/infiniband, and the group and pool names of the
# configuration file (/etc/ib_mcgroups.conf, or the one of -c FILE).
# Installed by "make install" as PREFIX/share/bash-completion/completions/mcctl.

# The RDMA devices, and DEV/PORT of each of their ports. _MCCTL_SYSFS
# replaces /sys (for the tests).
_mcctl_devs()
{
	local d

	for d in "${_MCCTL_SYSFS:-/sys}"/class/infiniband/*; do
		[ -e "$d" ] && printf '%s\n' "${d##*/}"
	done
}

_mcctl_devports()
{
	local d p

	for d in "${_MCCTL_SYSFS:-/sys}"/class/infiniband/*; do
		for p in "$d"/ports/*; do
			[ -e "$p" ] && printf '%s/%s\n' "${d##*/}" "${p##*/}"
		done
	done
}

# The names of the group and pool lines of configuration file $1.
_mcctl_names()
{
	[ -r "$1" ] || return 0
	awk '($1 == "group" || $1 == "pool") && NF >= 2 { print $2 }' "$1" 2>/dev/null
}

# The words of $1 not among the rest of the arguments (given already).
_mcctl_unused()
{
	local w a words=$1 out=

	shift
	for w in $words; do
		for a in "$@"; do
			[ "$a" = "$w" ] && continue 2
		done
		out+=" $w"
	done
	printf '%s\n' "$out"
}

_mcctl()
{
	local line=${COMP_LINE:0:COMP_POINT} cur prev cword
	local -a cwords
	local commands="list leave join apply show stats monitor metrics diag fabric help hold"
	local conf=/etc/ib_mcgroups.conf cmd='' full='' words='' c i cmdi n
	local join_kw="owner state qkey linger bound create pkey mtu rate sl flow_label tclass hop_limit scope"
	local hold_kw="owner state qkey linger create pkey mtu rate sl flow_label tclass hop_limit scope"
	local -a args

	COMPREPLY=()
	# The words split at blanks only: bash's COMP_WORDS also splits at
	# the ':' of owners (job:42), MGIDs and names.
	read -r -a cwords <<<"$line"
	[[ -z $line || $line == *[[:space:]] ]] && cwords+=("")
	cword=$((${#cwords[@]} - 1))
	cur=${cwords[cword]}
	prev=${cwords[cword - 1]}
	# The options before the command, and the command.
	for ((i = 1; i < cword; i++)); do
		case ${cwords[i]} in
		-c | --config)
			i=$((i + 1))
			conf=${cwords[i]}
			;;
		-b | -batch | --batch)
			# -batch FILE takes no command.
			[ $((i + 1)) -lt "$cword" ] && return 0
			i=$((i + 1))
			;;
		-*) ;;
		*)
			cmd=${cwords[i]}
			cmdi=$i
			break
			;;
		esac
	done
	if [ -z "$cmd" ]; then
		case $prev in
		-c | --config | -batch | --batch)
			mapfile -t COMPREPLY < <(compgen -f -- "$cur")
			compopt -o filenames 2>/dev/null
			return 0
			;;
		esac
		if [[ $cur == -* ]]; then
			words="-j --json -p --pretty -c --config -V --version -h --help
			       -batch -force"
		else
			words=$commands
		fi
		mapfile -t COMPREPLY < <(compgen -W "$words" -- "$cur")
		return 0
	fi

	# An abbreviation is the first command it fits, as mcctl takes it.
	for c in $commands; do
		if [[ $c == "$cmd"* ]]; then
			full=$c
			break
		fi
	done
	n=$((cword - cmdi))			# cur is the command's n-th word
	args=("${cwords[@]:cmdi+1:n-1}")	# the words before it

	case $full in
	list)
		case $prev in
		state)
			words="joining joined retry-wait detached lingering"
			;;
		owner)
			;;	# a name of the user's
		*)
			words=$(_mcctl_unused "owner state" "${args[@]}")
			[ "$n" = 1 ] && words="$(_mcctl_devs) $(_mcctl_devports) $words help"
			;;
		esac
		;;
	stats)
		[ "$n" = 1 ] && words="$(_mcctl_devs) $(_mcctl_devports) help"
		;;
	show)
		[ "$n" = 1 ] && words="$(_mcctl_devports) help"
		;;
	monitor)
		words=$(_mcctl_unused "-t --timestamp" "${args[@]}")
		[ "$n" = 1 ] && words+=" help"
		;;
	metrics)
		if [ "$prev" = --textfile ]; then
			mapfile -t COMPREPLY < <(compgen -d -- "$cur")
			compopt -o filenames 2>/dev/null
			return 0
		fi
		[ "$n" = 1 ] && words="--textfile help"
		;;
	apply)
		words=$(_mcctl_unused "--dry-run -n --check" "${args[@]}")
		[ "$n" = 1 ] && words+=" help"
		;;
	diag)
		# GROUP is an address: nothing to offer but help.
		[ "$n" = 1 ] && words=help
		[ "$n" = 2 ] && words=$(_mcctl_devports)
		;;
	fabric)
		# [DEV/PORT] [--reconcile] [-j] [smkey KEY], in any order
		if [ "$prev" != smkey ]; then
			words=$(_mcctl_unused "--reconcile -j smkey" "${args[@]}")
			[[ " ${args[*]} " == *" "*/*" "* ]] ||
				words+=" $(_mcctl_devports)"
			[ "$n" = 1 ] && words+=" help"
		fi
		;;
	help)
		[ "$n" = 1 ] && words=$commands
		;;
	hold)
		# After "--": COMMAND, then its arguments (files).
		if [[ " ${args[*]} " == *" -- "* ]]; then
			if [ "${args[n - 2]}" = -- ]; then
				mapfile -t COMPREPLY < <(compgen -c -- "$cur")
			else
				mapfile -t COMPREPLY < <(compgen -f -- "$cur")
				compopt -o filenames 2>/dev/null
			fi
			return 0
		fi
		;&
	join | leave)
		case $prev in
		state)
			words="full nonmember sendonly sendonly-full"
			;;
		mtu)
			words="256 512 1024 2048 4096"
			;;
		rate)
			words="2.5 5 10 14 20 25 28 30 40 50 56 60 80 100 112 120 168 200 300 400 600"
			;;
		owner | qkey | linger | pkey | sl | flow_label | tclass | hop_limit | scope)
			;;	# a value of the user's
		*)
			if [ "$n" = 1 ]; then
				words="$(_mcctl_devports) $(_mcctl_names "$conf") help"
				[ "$full" = leave ] && words+=" owner"
			elif [ "$full" = leave ] && [ "${args[0]}" = owner ]; then
				# leave owner NAME all [DEV[/PORT]]
				[ "$n" = 3 ] && words=all
				[ "$n" = 4 ] && words="$(_mcctl_devs) $(_mcctl_devports)"
			elif [[ ${args[0]} == */* ]]; then
				# DEV/PORT GROUP, then keywords
				if [ "$n" -gt 2 ]; then
					if [ "$full" = join ]; then
						words=$(_mcctl_unused "$join_kw" "${args[@]}")
					elif [ "$full" = hold ]; then
						words="$(_mcctl_unused "$hold_kw" "${args[@]}") --"
					else
						words=$(_mcctl_unused "owner state" "${args[@]}")
					fi
				fi
			elif [ "$full" = join ]; then
				words=$(_mcctl_unused "owner state bound" "${args[@]}")
			elif [ "$full" = hold ]; then
				words="$(_mcctl_unused "owner state" "${args[@]}") --"
			else
				words=$(_mcctl_unused "owner state" "${args[@]}")
			fi
			;;
		esac
		;;
	esac
	[ -n "$words" ] && mapfile -t COMPREPLY < <(compgen -W "$words" -- "$cur")
	_mcctl_colon "$cur"
	return 0
}

# bash replaces only what follows the last ':' of the word (a name such
# as rack:a): offer that part.
_mcctl_colon()
{
	local pre

	if [[ $1 == *:* && $COMP_WORDBREAKS == *:* ]]; then
		pre=${1%"${1##*:}"}
		COMPREPLY=("${COMPREPLY[@]#"$pre"}")
	fi
}

complete -F _mcctl mcctl
