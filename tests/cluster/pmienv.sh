#!/bin/sh
# The Linux twin of pmienv.exe (tests/cluster/pmienv.c): the same line,
# for the launchers' tests with a Linux program.  Usage as pmienv.exe's,
# without --stderr.
pm=
for v in PMI_FD PMI_PORT PMI_JOBID PMI_KVS; do
	eval "[ -z \"\${$v+x}\" ]" || pm="${pm:+$pm,}$v"
done
line="pmienv rank=${PMI_RANK:--} size=${PMI_SIZE:--} host=$(uname -n) cwd=$(pwd) pm=${pm:-none}"
exit_rank= exit_code= sleep_s=0
while [ $# -gt 0 ]; do
	case $1 in
	--env) eval "line=\"\$line $2=\${$2-(unset)}\""; shift 2 ;;
	--exit-rank) exit_rank=$2 exit_code=$3; shift 3 ;;
	--sleep) sleep_s=$2; shift 2 ;;
	*) echo "pmienv: bad argument '$1'" >&2; exit 2 ;;
	esac
done
echo "$line"
[ "$exit_rank" != "${PMI_RANK:-}" ] || exit "$exit_code"
exec sleep "$sleep_s"
