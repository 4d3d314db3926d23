#### output to file and append
echo one > f; echo two >> f; cat f
#### input from file
printf 'data\n' > f; cat < f
#### stderr redirect
ls /nonexistent-dir-xyz 2> err.txt; echo $?; wc -l < err.txt
#### stderr to stdout
{ echo out; echo err >&2; } 2>&1 | sort
#### both to file with ampersand
{ echo out; echo err >&2; } &> both; sort both
#### append both
echo a &> f; echo b &>> f; cat f
#### redirect to dev null
echo hidden > /dev/null; echo shown
#### fd duplication order matters
{ echo err >&2; } 2>&1 >/dev/null | cat
#### exec persistent fd
exec 3> f3; echo via3 >&3; exec 3>&-; cat f3
#### exec input fd
printf 'l1\nl2\n' > in; exec 4< in; read a <&4; read b <&4; echo $a $b; exec 4<&-
#### noclobber
set -C; echo x > f; echo y > f; echo $?; echo z >| f; cat f
#### redirect nonexistent input
cat < /nonexistent/file; echo status $?
#### redirect on compound
if true; then echo inif; fi > f; cat f
#### redirect on while loop input
printf '1\n2\n' > f; while read n; do echo n$n; done < f
#### here string
cat <<< "here string"
#### here string with variable
v=val; cat <<< "v is $v"
#### read from here string
read x y <<< "first second third"; echo "$x|$y"
#### multiple redirects
echo multi > a > b; cat a; cat b
#### input output same command
printf 'abc\n' > f; tr a-z A-Z < f > g; cat g
#### redirect stdout of builtin in function
f() { echo fn; }; f > f.out; cat f.out
#### close stdout error
echo x >&-; echo status $?
#### bad fd
echo x >&7; echo $?
#### read write fd
echo hello > rw; exec 5<> rw; read line <&5; echo $line; exec 5>&-
#### varname fd allocation
exec {fd}> vf; echo "to var fd" >&$fd; exec {fd}>&-; cat vf
#### redirect in middle of command
echo a > f b c; cat f
#### ambiguous redirect
f="a b"; echo x > $f; echo $?
#### empty redirect target var
e=; echo x > "$e"; echo $?
#### pipe stderr with pipe-amp
{ echo o; echo e >&2; } |& sort
#### redirect into directory fails
mkdir d; echo x > d; echo $?
#### dev stdout stderr
echo toout > /dev/stdout; echo toerr > /dev/stderr
