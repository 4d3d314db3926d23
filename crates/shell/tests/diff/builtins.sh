#### echo flags
echo -n no newline; echo; echo -e 'a\tb'; echo -E 'a\tb'; echo -ne 'x\n'
#### echo dash arguments
echo -- -n; echo -x; echo -
#### printf formats
printf '%s|%5s|%-5s|%.2s\n' abc abc abc abc
#### printf integers
printf '%d %5d %-5d| %05d %x %X %o %i\n' 42 42 42 42 255 255 8 7
#### printf reuses format
printf '%s=%s\n' a 1 b 2 c
#### printf floats
printf '%.2f %.0f %e %g\n' 3.14159 2.5 1234.5 0.0001
#### printf char and percent
printf '%c%c %%\n' hello world
#### printf escapes in format
printf 'a\tb\\n\n'
#### printf %b
printf '%b\n' 'x\ty' 'line\n2'
#### printf -v
printf -v out '%03d' 7; echo "$out"
#### printf invalid number
printf '%d\n' abc; echo $?
#### printf char code
printf '%d %d\n' "'A" "'a"
#### printf no args
printf; echo $?
#### read basic splitting
echo "a b c d" | { read x y; echo "$x|$y"; }
#### read -r keeps backslash
echo 'a\b' | { read -r v; echo "$v"; }; echo 'a\b' | { read v; echo "$v"; }
#### read with IFS
echo "a:b:c" | { IFS=: read x y z; echo $z $y $x; }
#### read REPLY default
echo hi | { read; echo "$REPLY"; }
#### read -n chars
echo abcdef | { read -n 3 v; echo $v; }
#### read -d delimiter
printf 'a,b,c' | { read -d , v; echo $v; }
#### read returns 1 at eof
printf 'last' | { read v; echo "$? $v"; }
#### read -p prompt not on tty
echo x | { read -p 'prompt> ' v; echo $v; }
#### set positional
set -- x y z; echo $2; set --; echo $#
#### shift
set -- a b c; shift; echo $@; shift 2; echo $#; shift; echo $?
#### shopt query
shopt -s extglob; shopt extglob; shopt -u extglob; shopt -q extglob; echo $?
#### set -o listing option
set -o pipefail; set -o | grep pipefail
#### eval simple
cmd='echo evaluated'; eval $cmd
#### eval assignment
eval 'x=5; y=$((x*2))'; echo $y
#### eval with quotes
eval "echo \"a  b\""
#### source file
echo 'sourced_var=yes; echo in source' > lib.sh; . ./lib.sh; echo $sourced_var
#### source with args
echo 'echo args: $1 $2' > s.sh; source ./s.sh p q
#### source return
printf 'echo before\nreturn 3\necho after\n' > r.sh; . ./r.sh; echo $?
#### type builtin and file
type cd; type -t cat
#### command -v
command -v echo; command -v cat >/dev/null && echo found; command -v nosuchcmd; echo $?
#### command skips function
ls() { echo fn; }; command ls -d . 
#### builtin keyword
builtin echo via builtin
#### getopts loop
set -- -a -b val -c file; while getopts "ab:c" opt; do echo "$opt ${OPTARG-}"; done; shift $((OPTIND-1)); echo "rest: $@"
#### getopts invalid option
set -- -z; getopts "ab" o; echo "$o"
#### getopts silent mode
set -- -z -b; while getopts ":ab:" o; do echo "$o ${OPTARG-}"; done
#### getopts combined flags
set -- -abc; while getopts abc o; do echo $o; done
#### true false colon
true; echo $?; false; echo $?; :; echo $?
#### export to child
export EXPV=exported; env | grep '^EXPV='
#### unexported not in child
NOTEXP=x; env | grep -c '^NOTEXP=' 
#### temporary env for command
TMPV=temp env | grep '^TMPV='; echo "[${TMPV-}]"
#### readonly
readonly R=1; R=2; echo $R
#### unset variable
v=1; unset v; echo "[${v-unset}]"
#### declare attributes
declare -u up=hello; declare -l low=WORLD; echo $up $low
#### declare -p scalar
v='a "q" $x'; declare -p v
#### local outside function
local x=1; echo $?
#### pwd and cd
mkdir -p sub/dir; cd sub/dir; basename "$(pwd)"; cd ..; basename "$PWD"; cd - >/dev/null; basename "$PWD"
#### cd nonexistent
cd /nonexistent-xyz; echo $?
#### cd updates OLDPWD
d=$PWD; mkdir x; cd x; [ "$OLDPWD" = "$d" ] && echo oldpwd ok
#### pushd popd
mkdir -p p1; pushd p1 >/dev/null; basename $PWD; popd >/dev/null; [ -d p1 ] && echo back
#### alias expansion in script
shopt -s expand_aliases; alias hi='echo hello'; hi there
#### unalias
alias x=y; unalias x; alias x 2>/dev/null || echo noalias
#### hash nonexistent
hash nosuchcommand_zz; echo $?
#### umask
umask 022; umask
#### let returns
let "a=0"; echo $?; let "a=2"; echo $?
#### set -- with dashes
set -- -x --y; echo "$1 $2"
#### trap listing
trap 'echo bye' EXIT; trap -p EXIT
#### wait for background
sleepish() { for i in 1 2 3; do :; done; echo bg done; }; sleepish & wait; echo after wait
#### background pid set
true & [ -n "$!" ] && echo has pid; wait
#### times output shape
times > /dev/null; echo $?
#### help for builtin exists
help cd >/dev/null; echo $?
#### mapfile from process substitution
mapfile -t arr < <(printf '1\n2\n3\n'); echo ${arr[@]}
#### read in loop with IFS unchanged
printf 'a b\nc d\n' > f; while read -r first rest; do echo "$first:$rest"; done < f
#### printf with width star
printf '%*s|\n' 6 hi
#### echo combined flags
echo -en 'a\nb'; echo
#### dirs listing
cd /; dirs
