#### comments everywhere
# leading comment
echo a # trailing
  # indented comment
echo b
#### semicolons and newlines
echo 1; echo 2
echo 3
#### line continuation inside words
ec\
ho joined
#### keywords as arguments
echo if then fi do done case esac
#### assignment before command not persistent
x=1 true; echo "[${x-unset}]"
#### multiple assignments
a=1 b=2 c=3; echo $a$b$c
#### assignment with command substitution status
x=$(exit 3); echo $?
#### tilde in assignment
HOME=/h; p=~/dir; echo $p
#### assignment value not split
v="a    b"; w=$v; echo "$w"
#### env var inherited
export PP=1; sh_out=$(env | grep -c '^PP=1$'); echo $sh_out
#### dollar dollar same in subshell
a=$$; b=$(echo $$); [ $a = $b ] && echo same
#### BASHPID differs is number
[[ $BASHPID =~ ^[0-9]+$ ]] && echo pid
#### SECONDS is number
[[ $SECONDS =~ ^[0-9]+$ ]] && echo secs
#### PPID set
[[ $PPID =~ ^[0-9]+$ ]] && echo ppid
#### dash flags variable contains h
case $- in *h*) echo hashall;; esac
#### set -e reflected in dash
set -e; case $- in *e*) echo e-set;; esac
#### underscore last argument
echo a b c >/dev/null; echo $_
#### eval with special chars
eval 'echo "$(( 3 * 4 ))"'
#### nested eval
eval "eval 'echo double'"
#### numbers with leading zeros in test
[ 010 -eq 10 ] && echo decimal
#### long pipeline of builtins
echo x | cat | cat | cat | cat
#### seq and while
seq 3 | while read n; do echo $((n*n)); done
#### awk and sed usage
echo "a b c" | awk '{print $2}'; echo hello | sed 's/l/L/g'
#### cut and head tail
printf 'a:b:c\n' | cut -d: -f2; seq 10 | tail -2 | head -1
#### mkdir rm touch ls
mkdir -p t/u; touch t/u/f; ls t/u; rm -r t; [ -e t ] || echo removed
#### dirname basename commands
dirname /a/b/c; basename /a/b/c.txt .txt
#### wc counts
printf 'a\nb\n' | wc -l
#### grep status
echo abc | grep -q b && echo found; echo abc | grep -q z || echo notfound
#### sort numeric
printf '10\n9\n100\n' | sort -n
#### printf to stderr
printf 'err\n' >&2
#### exit code of last command in script
false
#### script ends with true status
true
#### output without trailing newline
printf 'no newline'
#### null command redirection creates file
: > created; [ -f created ] && echo exists
#### arithmetic assignment via declare
declare -i x=2*3; echo $x
#### function and variable same name
f=var; f() { echo func; }; f; echo $f
#### case in function with return
classify() { case $1 in [0-9]*) return 0;; *) return 1;; esac; }; classify 5 && echo num; classify x || echo notnum
#### complex quoting in eval
x='a b'; eval "y=\"$x\""; echo "$y"
#### printf dollar sign literal
printf '%s\n' '$5.00'
#### empty command substitution
x=$(); echo "[$x]"
#### whitespace only line
   
echo after blank
#### command named by variable
cmd=echo; $cmd dynamic
#### args with equals not assignment
echo a=b c=d
#### env builtin listing includes exported
export ZZTOP=1; env | grep -c ZZTOP
#### trailing ampersand wait
echo one & wait
#### semicolon after background
true & echo fg
#### true with args
true a b c; echo $?
#### colon with expansion side effect
: ${dv:=assigned}; echo $dv
#### arithmetic increment in while condition
i=0; while (( i++ < 3 )); do echo $i; done
#### nested quotes in arithmetic
echo $(( "1" + 2 ))
#### select-like menu via printf
printf '%d) %s\n' 1 a 2 b
