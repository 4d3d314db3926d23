#### LINENO in function and subshell
f(){
  echo "f $LINENO"
}
echo $LINENO
f
( echo "sub $LINENO" )
x=$(echo "cs $LINENO"); echo $x
#### FUNCNAME and BASH_LINENO
f(){ echo "${FUNCNAME[@]} ${BASH_LINENO[@]}"; g; }
g(){ echo "${FUNCNAME[@]} ${BASH_LINENO[*]}"; }
f
#### BASH_SOURCE
echo "${BASH_SOURCE[0]}" "${#BASH_SOURCE[@]}"; f(){ echo "${BASH_SOURCE[@]}"; }; f
#### PIPESTATUS
true | false | true; echo "${PIPESTATUS[@]}"; false; echo "${PIPESTATUS[@]}"; (exit 3) | true; echo ${PIPESTATUS[0]}
#### dollar underscore
echo a b c; echo $_; x=1; true last; echo $_
#### SECONDS assign
SECONDS=100; s=$SECONDS; [ $s -ge 100 ] && [ $s -le 101 ] && echo ok
#### RANDOM seeding
RANDOM=42; a=$RANDOM; RANDOM=42; b=$RANDOM; [ $a = $b ] && echo same
#### RANDOM seeded values
RANDOM=1; echo $RANDOM $RANDOM $RANDOM
#### BASHPID and $$ in main
[ $$ = $BASHPID ] && echo same
#### SHLVL and BASH_VERSION
echo ${BASH_VERSINFO[0]} ${BASH_VERSION%%.*}
#### LINENO after heredoc
cat <<EOF >/dev/null
a
b
#### BASH_VERSINFO
echo ${BASH_VERSINFO[0]} ${BASH_VERSINFO[1]} ${BASH_VERSINFO[2]} ${BASH_VERSINFO[4]}; BASH_VERSINFO[0]=9; echo $?
#### LINENO after heredoc
cat <<EOF >/dev/null
a
b
EOF
echo $LINENO
#### dollar bang
sleep 0 & p=$!; wait $p; echo $?; [ -n "$p" ] && echo has
#### wait -n
(exit 3) & wait -n; echo $?
#### positional slices
set -- a b c; echo $# ${@: -1} "${@:2:1}"; shift 2; echo $1
#### EPOCHSECONDS
[ $EPOCHSECONDS -gt 1600000000 ] && echo ok
#### dollar zero in function
f(){ echo ${0##*/}; }; f
#### SECONDS counts from an assignment
SECONDS=100; s=$SECONDS; SECONDS=0; t=$SECONDS; [ $s -ge 100 ] && [ $t -le 1 ] && echo ok
#### RANDOM seeded sequences
RANDOM=7; echo $RANDOM $RANDOM; RANDOM=1; a=$RANDOM; RANDOM=1; [ $a = $RANDOM ] && echo same
#### FUNCNAME nested
a(){ b; }; b(){ echo "${FUNCNAME[*]}" "${BASH_LINENO[*]}" ${#BASH_SOURCE[@]}; }
a
#### PIPESTATUS before any pipeline
echo "[${PIPESTATUS[@]}]" ${#PIPESTATUS[@]}; true; echo ${PIPESTATUS[@]}
