#### getopts loop with arguments and flags
f() { local OPTIND o; while getopts "ab:c" o; do case $o in a) echo A;; b) echo "B=$OPTARG";; c) echo C;; esac; done; shift $((OPTIND-1)); echo "rest: $*"; }
f -a -b val -c x y; f -ac -bfoo z; f -- -a
#### getopts invalid option and missing argument
f() { local OPTIND o; while getopts "ab:" o; do echo "o=$o arg=${OPTARG-unset}"; done; }
f -x; f -b; f -a -z
#### getopts silent mode
f() { local OPTIND o; while getopts ":ab:" o; do case $o in \?) echo "bad $OPTARG";; :) echo "needs $OPTARG";; *) echo "ok $o";; esac; done; }
f -a -q -b
#### printf -v with formats and arrays
printf -v s '%05.1f|%-4s|%x' 3.14159 ab 255; echo "$s"
declare -a arr; printf -v 'arr[2]' '%s-%s' x y; echo "${arr[2]}" ${#arr[@]}
printf -v n '%d' 42; echo $((n+1))
#### printf reuses the format for extra arguments
printf '%s=%s\n' a 1 b 2 c; printf '[%3d]' 1 22 333; echo
#### mapfile with options
printf 'l1\nl2\nl3\nl4\n' > f
mapfile -t a < f; echo ${#a[@]} "${a[-1]}"
mapfile -t -s 1 -n 2 b < f; echo "${b[*]}"
mapfile -O 5 -t c < f; echo "${!c[*]}"
printf 'a:b:c' | { mapfile -d : -t d; echo "${d[1]} ${#d[@]}"; }
#### readarray from a process substitution
readarray -t lines < <(printf 'x y\nz\n'); printf '<%s>\n' "${lines[@]}"
#### associative arrays basics
declare -A m=([one]=1 [two]=2); m[three]=3; m+=([four]=4)
for k in one two three four; do printf '%s=%s ' "$k" "${m[$k]}"; done; echo
echo ${#m[@]}; unset 'm[two]'; echo ${#m[@]}; [[ -v m[one] ]] && echo has-one; [[ -v m[two] ]] || echo no-two
#### associative array keys with spaces and sorted iteration
declare -A h; h["a b"]=1; h[c]=2; h["x-y"]=3
for k in "${!h[@]}"; do echo "$k"; done | sort
#### associative array counting words
declare -A cnt; for w in a b a c b a; do cnt[$w]=$(( ${cnt[$w]:-0} + 1 )); done
for k in $(printf '%s\n' "${!cnt[@]}" | sort); do echo "$k ${cnt[$k]}"; done
#### case fallthrough and continue
for x in a b c; do case $x in a) echo "a";& b) echo "a-or-b";; c) echo "c";;& *) echo "any $x";; esac; done
#### case with patterns and classes
for w in 10 abc X1 '' -v; do case $w in [0-9]*) echo "num $w";; [[:upper:]]*) echo "up $w";; -*) echo "opt $w";; '') echo empty;; *) echo "other $w";; esac; done
#### read -a splits into an array
echo "x y  z" | { read -a parts; echo ${#parts[@]} "${parts[2]}"; }
IFS=: read -r -a p <<< "a:b::c"; echo ${#p[@]} "[${p[2]}]"
#### read -d and -r keep backslashes
printf 'a\\tb;c' | { read -r -d ';' v; echo "$v"; }
printf 'a\\tb;c' | { read -d ';' v; echo "$v"; }
#### read into several variables with leftovers
echo "one two three four" | { read a b c; echo "$a|$b|$c"; }
echo "  lead trail  " | { read x; echo "[$x]"; }
echo "  lead trail  " | { IFS= read x; echo "[$x]"; }
#### read returns 1 at EOF and keeps the partial line
printf 'last' | { read v; echo "st=$? v=$v"; }
#### set -e stops at the failing command
set -e; echo before; false; echo after
#### set -e ignores failures in conditions and && lists
set -e; if false; then :; fi; false || echo rescued; false && echo no; ! true; echo survived
#### set -e in a function called from a condition
set -e; f() { false; echo "in f"; }; if f; then echo ok; fi; f; echo unreachable
#### set -u reports an unset variable
set -u; echo "${defined:-fallback}"; echo "$nope"; echo after
#### set -o pipefail status
set -o pipefail; true | false | true; echo $?; false | true; echo $?; set +o pipefail; false | true; echo $?
#### set -euo pipefail with a failing pipeline
set -euo pipefail; echo start; grep nomatch /dev/null | sort; echo never
#### ERR trap fires with the failing status
trap 'echo "ERR at $? line $LINENO"' ERR; false; true; (exit 3); echo done
#### ERR trap and set -e together
set -e; trap 'echo "caught $?"' ERR; echo one; false; echo two
#### RETURN trap in a function
f() { trap 'echo "returning from f"' RETURN; echo body; return 4; }; f; echo "st=$?"
#### EXIT trap sees the exit status
trap 'echo "exit with $?"' EXIT; (exit 5); exit 7
#### arithmetic edge cases
echo $(( 7 / -2 )) $(( -7 % 3 )) $(( 2 ** 10 )) $(( 1 << 63 )) $(( -9223372036854775807 - 1 ))
echo $(( 0x1F + 010 + 2#101 + 36#z )) $(( 5 > 3 ? 10 : 20 )) $(( (1,2,3) ))
x=5; (( x += 3, x *= 2 )); echo $x; (( y = x-- )); echo $x $y
#### arithmetic errors
echo $(( 1 / 0 )); echo "st=$?"
echo $(( 2 ** -1 )); echo "st=$?"
(( 08 )); echo "st=$?"
#### arithmetic with unset and string variables
unset u; v=abc; abc=7; echo $(( u + 1 )) $(( v + 1 )) $(( ${#v} * 2 ))
#### let and (( )) exit statuses
let 'a = 0'; echo $?; let 'a = 2'; echo $?; (( 0 )); echo $?; (( -1 )); echo $?
#### string manipulation for paths
p=/usr/local/lib/libfoo.so.1.2; echo ${p##*/} ${p%/*} ${p#/usr/} ${p%%.*} ${p/lib/LIB} ${p//lib/L}
#### parameter defaults and errors
unset a; echo ${a:-d1} ${a-d2}; a=; echo "[${a:-d3}]" "[${a-d4}]"; echo ${a:=set}; echo $a
( : ${b:?is required} ); echo "st=$?"
#### substring and negative offsets
s=abcdefgh; echo ${s:2:3} ${s: -3} ${s: -3:2} ${s:2:-2} "${s:10}"
a=(p q r s t); echo ${a[@]:1:2} ${a[@]: -2}
#### case modification and indirect expansion
n=greeting; greeting="hello World"; echo ${!n} ${greeting^} ${greeting^^} ${greeting,,}
#### arrays: append, slice, delete, sparse
a=(1 2 3); a+=(4 5); a[10]=x; unset 'a[1]'; echo ${#a[@]} "${!a[@]}" "${a[@]}"
b=("${a[@]}"); echo ${#b[@]} "${!b[@]}"
#### array of words from a string and join
s="a,b,,c"; IFS=, read -ra parts <<< "$s"; (IFS=-; echo "${parts[*]}"); echo ${#parts[@]}
#### local variables and dynamic scope
x=global; f() { local x=inner; g; }; g() { echo "g sees $x"; x=changed; }; f; echo "after $x"
#### functions returning values through stdout and status
add() { echo $(( $1 + $2 )); }; r=$(add 2 3); echo $r
isodd() { return $(( $1 % 2 == 0 )); }; isodd 3 && echo odd; isodd 4 || echo even
#### here-doc with expansions and quoted delimiter
n=3; cat <<EOF
n=$n $(echo sub) \$literal
EOF
cat <<'EOF'
n=$n $(echo sub)
EOF
#### while loop with break and continue levels
for i in 1 2 3; do for j in a b c; do [[ $j == b ]] && continue 2; [[ $i == 3 ]] && break 2; echo "$i$j"; done; done; echo end
#### command -v and type for various kinds
f() { :; }; alias ll='ls -l'; command -v echo f cat; type -t echo f cat if; type f | head -1
#### test and [[ ]] string and file operators
touch e; echo x > n; [[ -e e && ! -s e && -s n ]] && echo files; [ abc \< abd ] && echo lt; [[ abc == a* ]] && echo glob; [[ ab =~ ^(a)(b)$ ]] && echo "${BASH_REMATCH[2]}"
#### octal values in variables and error messages of (( )) and let
x=010; echo $((x)) $((x+1)) $((-010)); y=0x1f; echo $((y))
(( 08 + 1 )); echo "st=$?"; (( 1 + 08 )); echo "st=$?"; let "z = 1/0"; echo "st=$?"
echo $(( 1 + 09 )); echo "not reached"
#### caller in functions and at top level
caller; echo "top $?"; caller 0; echo "top0 $?"
g() { caller 0; caller 1; caller 2; echo "g $?"; }; f() { g; }; f
#### hash records commands found on PATH
hash; cat /dev/null; cat /dev/null; hash -t cat; hash | grep -c cat; hash -d cat; hash -t cat; echo "st=$?"; PATH=$PATH; hash
#### trap listing in subshells and pipelines
trap 'echo bye' EXIT; trap '' INT; (trap -p); trap -p | cat; (trap 'true' TERM; trap -p)
#### printf -v and read into array elements
declare -A m; printf -v 'm[key]' '%s!' hi; echo "${m[key]}"; read 'arr[3]' <<< "three"; echo "${arr[3]}" ${#arr[@]}
