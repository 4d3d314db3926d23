#### exit trap runs
trap 'echo cleanup' EXIT; echo main
#### exit trap sees status
trap 'echo status $?' EXIT; false
#### exit trap on explicit exit
trap 'echo trapped' EXIT; exit 4
#### err trap
trap 'echo err caught' ERR; false; echo continue
#### err trap not in condition
trap 'echo err' ERR; if false; then :; fi; false || true; echo done
#### trap reset
trap 'echo x' EXIT; trap - EXIT; echo no trap
#### trap ignore signal listing
trap '' INT; trap -p INT
#### trap in subshell exit
(trap 'echo sub exit' EXIT; echo in sub); echo out
#### return trap
f() { :; }; trap 'echo returned' RETURN; f; trap - RETURN
#### trap with function
cleanup() { echo "cleanup $1"; }; trap 'cleanup now' EXIT; echo work
#### kill self with trapped signal is delivered as exit of trap
trap 'echo got term; exit 0' TERM; echo ready
#### multiple signals one trap
trap 'echo multi' USR1 USR2; trap -p USR1 USR2
#### invalid signal
trap 'echo' NOSUCHSIG; echo $?
#### exit trap with set -e
set -e; trap 'echo on exit $?' EXIT; false; echo no
#### err trap with set -e
set -e; trap 'echo ERR fired' ERR; false; echo not reached
