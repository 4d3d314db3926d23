#### while read with last line no newline
printf 'a\nb' | while read -r l || [ -n "$l" ]; do echo "[$l]"; done
#### read preserves leading spaces with IFS empty
printf '  sp\n' | { IFS= read -r l; echo "[$l]"; }
#### read multiple lines from file descriptor
printf '1\n2\n3\n' > n; while read -r a && read -r b; do echo "$a+$b"; done < n
#### mapfile with count and skip
seq 1 10 > s; mapfile -t -s 2 -n 3 arr < s; echo ${arr[@]}
#### mapfile origin
seq 1 3 > s; arr=(x); mapfile -t -O 1 arr < s; echo ${arr[@]}
#### printf %s with array
a=(1 2 3); printf '<%s>' "${a[@]}"; echo
#### printf with no format args repeats once
printf 'static\n'
#### printf %5.1f
printf '[%5.1f]\n' 3.14159
#### printf negative width
printf '[%-4d]\n' 7
#### printf plus flag
printf '%+d %+d\n' 5 -5
#### printf hex with prefix
printf '%#x %#o\n' 255 8
#### echo escape sequences with e
echo -e 'col1\tcol2\nrow2'
#### echo backslash c stops
echo -e 'before\cafter'; echo
#### printf %b octal
printf '%b\n' '\0101\0102'
#### read -N exact
printf 'abcdef' | { read -N 4 v; echo $v; }
#### read with timeout zero
read -t 0 < /dev/null; echo $?
#### declare -i arithmetic on assign
declare -i n=10; n=n*2; echo $n
#### declare -r readonly
declare -r C=1; C=2 2>/dev/null; echo $C
#### declare -x exports
declare -x DX=exp; env | grep '^DX='
#### declare plus x unexports
export UX=1; declare +x UX; env | grep -c '^UX='
#### unset -v
v=1; unset -v v; echo "${v-gone}"
#### set positional from array
a=(p q r); set -- "${a[@]}"; echo $# $2
#### shift in loop
set -- 1 2 3; while [ $# -gt 0 ]; do echo $1; shift; done
#### getopts with OPTIND reset
f() { local OPTIND o; while getopts x o; do echo got $o; done; }; f -x; f -x
#### trap DEBUG listing
trap 'true' DEBUG; trap -p DEBUG | cut -c1-10; trap - DEBUG
#### kill -l lists
kill -l | head -c 3; echo
#### wait specific pid
(exit 5) & p=$!; wait $p; echo $?
#### jobs empty
jobs; echo $?
#### type keyword output
type if
#### type alias output
shopt -s expand_aliases; alias ll='ls -l'; type ll
#### command -V builtin
command -V cd
#### enable listing contains echo
enable | grep -c 'enable echo'
#### compgen word list
compgen -W 'apple apricot banana' ap
#### compgen builtins prefix
compgen -b ec
#### caller outside function fails
caller; echo $?
#### pwd -P resolves
mkdir real; cd real; pwd -P | grep -c real
#### cd with CDPATH
mkdir -p base/target; CDPATH=$PWD/base; cd target >/dev/null; basename $PWD
#### cd dash prints
mkdir a1; cd a1; cd - | grep -c .
#### hash after use
cat /dev/null; hash | grep -c cat
#### umask symbolic
umask 027; umask -S
#### exec redirect persists
exec > out.txt; echo into file; exec >&2; cat out.txt >&2
#### exec fd juggling
exec 3>&1; echo via dup >&3; exec 3>&-
#### here string to while
while read w; do echo "w=$w"; done <<< "one"
#### arith for with break continue
for ((i=0;i<10;i++)); do ((i%2)) && continue; ((i>6)) && break; echo $i; done
#### nested case in loop
for x in a b c; do case $x in b) continue;; esac; echo $x; done
#### function recursion depth moderate
d() { (( $1 > 0 )) && d $(( $1 - 1 )) || echo bottom; }; d 50
#### deep nesting of subshell
( ( ( ( ( echo deep5 ) ) ) ) )
#### nested command substitutions depth
echo $(echo $(echo $(echo $(echo four))))
#### very long argument list
set -- $(seq 1 500); echo $# ${500}
#### long line of echo
printf 'x%.0s' $(seq 1 3000) | wc -c
#### many variables
for i in $(seq 1 100); do eval "v$i=$i"; done; echo $v1 $v50 $v100
#### assoc array count loop
declare -A cnt; for w in a b a c a b; do ((cnt[$w]++)); done; echo ${cnt[a]} ${cnt[b]} ${cnt[c]}
#### array slice assign loop
a=(); for i in 1 2 3; do a+=($((i*i))); done; echo ${a[*]}
#### sum numbers from seq
s=0; for n in $(seq 1 100); do s=$((s+n)); done; echo $s
#### string building in loop
s=; for c in a b c; do s="$s$c,"; done; echo ${s%,}
#### IFS newline splitting
IFS=$'\n'; lines=$(printf 'a b\nc d'); for l in $lines; do echo "[$l]"; done
#### unset IFS default splitting
unset IFS; x="a  b"; set -- $x; echo $#
#### IFS with trailing separators
IFS=,; x="a,b,,"; set -- $x; echo $#
#### quoted at in string
set -- a b; echo "x$@y"
#### star with empty IFS
set -- a b; IFS=; echo "$*"
#### positional above nine
set -- 1 2 3 4 5 6 7 8 9 10 11; echo ${10} ${11} $10
#### special parameter hash in function
f() { echo $#; }; f "" ""; f
#### dollar question after pipeline negated
! true | false; echo $?
#### brace group exit status
{ false; }; echo $?
#### subshell with redirect
(echo inner) > sub.out; cat sub.out
#### if in pipeline
if true; then echo yes; fi | tr y Y
#### while in cmdsub
x=$(i=0; while ((i<3)); do echo -n $i; ((i++)); done); echo $x
#### case in cmdsub with paren patterns
x=$(case a in (a) echo matched;; esac); echo $x
#### cmdsub with heredoc and case
r=$(case y in y) cat <<E
hd
E
;; esac); echo $r
#### arithmetic comparison in if with strings
a=abc; if [ ${#a} -eq 3 ]; then echo three; fi
#### nounset array all
set -u; a=(); echo "${a[@]}" empty-ok
#### errexit in command substitution default
set -e; x=$(false; echo continued); echo "$x"
#### pipefail with errexit
set -eo pipefail; false | true; echo no
#### noclobber append allowed
set -C; echo a > nf; echo b >> nf; cat nf
#### verbose keyword status
time_t=1; echo $time_t
#### declare -a on existing scalar
s=one; declare -a s; echo ${s[0]} ${#s[@]}
#### negative array index assign error
a=(1); a[-5]=x; echo $?
#### printf reuse with fewer args
printf '%s %s\n' a b c
#### printf %%
printf '100%%\n'
#### read into array with IFS comma
IFS=, read -ra f <<< "1,2,,4"; echo ${#f[@]}
#### read backslash continuation
printf 'a\\\nb\n' | { read v; echo $v; }
#### test -x on directory and file
mkdir xd; [ -x xd ] && echo xdir
#### test -e on symlink-free path
[ -e / ] && echo root
#### test string equals with double equals
[ a == a ] && echo dbl
#### integer overflow in test
[ 99999999999 -gt 1 ] && echo big
#### unary minus number in test
[ -5 -lt 0 ] && echo neg
#### assignment expands tilde after colon
HOME=/hh; P=/a:~/b; echo $P
#### function name with dot
a.b() { echo dotted; }; a.b
#### empty function body with colon
f() { :; }; f; echo $?
#### function returning large status
f() { return 255; }; f; echo $?
#### exit with negative
(exit -1); echo $?
#### empty "$@" and "${a[@]}" expand to no word at all
f() { echo "$#"; }
f "$@"
a=()
f "${a[@]}"
f "${a[@]}" "$@"
f "x${a[@]}"
f "$@"""
f "$*"
a=("")
f "${a[@]}"
set -- "" ""
f "$@"
#### string operators on a long value
s=$(printf '%0500d' 0)
s=${s//0/ab}
echo ${#s} ${s:3:4} ${s: -3} ${s:998:10}
u=${s^^}; echo ${u:0:6} ${#u}
l=${u,,}; x=${u,}; echo ${l:0:2} ${x:0:3}
t=${s#ab}; echo ${#t} ${s%%b*}
v=é${s}; echo ${#v} ${v:0:3}
