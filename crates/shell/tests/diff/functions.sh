#### define and call
greet() { echo "hi $1"; }; greet bob
#### function keyword
function f { echo kw; }; f
#### function keyword with parens
function g() { echo kwp; }; g
#### return status
f() { return 42; }; f; echo $?
#### return default last status
f() { false; return; }; f; echo $?
#### local variables
x=global; f() { local x=local; echo $x; }; f; echo $x
#### dynamic scoping
f() { echo $v; }; g() { local v=fromg; f; }; g
#### positional params in function
f() { echo $# "$@"; shift; echo "$@"; }; f a b c; echo $#
#### recursion factorial
fact() { if [ $1 -le 1 ]; then echo 1; else echo $(( $1 * $(fact $(( $1 - 1 ))) )); fi; }; fact 6
#### recursion fib without subshells
fib() { local n=$1; if ((n<2)); then r=$n; return; fi; fib $((n-1)); local a=$r; fib $((n-2)); r=$((a+r)); }; fib 15; echo $r
#### function modifies global
f() { g=changed; }; g=orig; f; echo $g
#### FUNCNAME
f() { echo ${FUNCNAME[0]}; g; }; g() { echo ${FUNCNAME[0]} ${FUNCNAME[1]}; }; f
#### function with redirect
f() { echo redirected; } > out; f; cat out
#### function overrides command
echo() { builtin echo "wrapped: $*"; }; echo hi
#### unset function
f() { echo f; }; unset -f f; f 2>/dev/null || echo gone
#### local without value is unset
f() { local x; echo "${x-unset}"; }; x=outer; f
#### declare inside function is local
f() { declare y=inner; }; y=outer; f; echo $y
#### declare -g inside function
f() { declare -g z=glob; }; f; echo $z
#### return outside function
return 2>/dev/null; echo $?
#### function status in condition
ok() { return 0; }; bad() { return 1; }; ok && echo ok; bad || echo bad
#### nested function definition
outer() { inner() { echo inner; }; }; outer; inner
#### type of function
f() { :; }; type -t f; type -t echo; type -t if; type -t ls
#### local array and assoc
f() { local -A m=([a]=1); echo ${m[a]}; }; f
#### pass array by name
show() { local n=$1; eval "echo \${$n[@]}"; }; arr=(1 2 3); show arr
#### function output captured
f() { echo captured; }; x=$(f); echo "[$x]"
#### return in loop inside function
f() { for i in 1 2 3; do [ $i = 2 ] && return $i; done; }; f; echo $?
#### exit inside function exits script
f() { exit 4; }; f; echo notreached
#### local shadows and restores
x=1; f() { local x=2; g; echo f:$x; }; g() { x=3; }; f; echo $x
#### function with hyphen name
my-func() { echo hyphen; }; my-func
#### declare -f prints function exists
f() { echo x; }; declare -F f
