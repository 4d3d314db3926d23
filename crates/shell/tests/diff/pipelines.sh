#### simple pipeline
echo hello | tr a-z A-Z
#### multi stage
printf '3\n1\n2\n' | sort | head -2
#### pipeline with builtin stage
printf 'a\nb\n' | while read l; do echo "<$l>"; done | cat
#### variable in pipeline subshell not kept
x=0; echo 5 | read x; echo $x
#### lastpipe keeps variable
shopt -s lastpipe; echo 5 | read x; echo $x
#### pipeline exit status
false | true; echo $?; true | false; echo $?
#### PIPESTATUS all
true | false | true; echo "${PIPESTATUS[*]}"
#### command substitution with pipeline
n=$(printf 'a\nb\nc\n' | wc -l); echo $n
#### subshell output
(echo sub1; echo sub2) | sort -r
#### subshell cd isolated
mkdir -p s; d=$PWD; (cd s && basename "$PWD"); [ "$PWD" = "$d" ] && echo unchanged
#### subshell variable isolation with export
export E=1; (E=2; echo $E); echo $E
#### nested subshells
( (echo deep) )
#### brace group in pipeline
{ echo b; echo a; } | sort
#### function in pipeline
f() { echo from-f; }; f | tr a-z A-Z
#### yes head terminates
yes | head -3
#### process substitution input
cat <(echo from-procsub)
#### process substitution diff-like
while read l; do echo "line:$l"; done < <(printf 'x\ny\n')
#### command substitution preserves inner quotes
v="$(echo "a   b")"; echo "$v"
#### backgrounding and wait status
(exit 3) & wait $!; echo $?
#### background output ordering with wait
{ echo bg; } & wait; echo fg
#### pipeline into while with counter in subshell
c=0; printf '1\n2\n' | while read; do c=$((c+1)); done; echo $c
#### stderr not piped
{ echo out; echo err >&2; } 2>/dev/null | cat
#### pipe amp
{ echo out; echo err >&2; } |& cat | sort
#### command substitution exit status
x=$(false); echo $?; x=$(true); echo $?
#### long pipeline
seq 1 100 | grep 7 | sort -n | tail -3 | head -2
#### cmdsub of function
f() { echo in-func; return 2; }; v=$(f); echo "$v $?"
#### cmdsub sees variables
x=vis; echo $(echo $x)
#### cmdsub changes not visible
x=1; y=$(x=2; echo $x); echo $x $y
#### nested cmdsub with quotes
echo "$(echo "$(echo 'inner most')")"
#### pipeline negation
! false | false; echo $?
#### exec in subshell
(exec echo exec-in-sub); echo after
#### read from pipe whole
echo "one two" | { read a b; echo "$b $a"; }
#### xargs-free loop over find-like output
printf 'f1\nf2\n' | sort -r | while read f; do echo $f; done
#### subshell exit does not affect parent status chain
(exit 1) || echo recovered
