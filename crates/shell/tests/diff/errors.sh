#### command not found
nosuchcommand_abc; echo $?
#### command not found in function
f() { missing_cmd_q; }; f; echo $?
#### not executable
echo 'echo hi' > noexec.sh; ./noexec.sh; echo $?
#### no such file path
./does/not/exist; echo $?
#### directory as command
mkdir dd; ./dd; echo $?
#### syntax error unexpected fi
echo before
fi
echo after
#### syntax error unexpected done
echo start
while true; done
#### syntax error in if
if then echo x; fi
#### unexpected end of file
echo ok
if true; then
  echo inside
#### unterminated double quote
echo "unterminated
#### unterminated single quote
echo 'unterminated
#### unterminated command substitution
echo $(echo x
#### unterminated brace param
echo ${x
#### unexpected paren
echo a )
#### syntax error missing do
for i in 1 2; echo $i; done
#### unexpected semicolon
;
#### unexpected double semicolon outside case
echo x ;;
#### empty pipeline
| cat
#### and with nothing
echo a &&
#### case missing esac
case x in
  x) echo x;;
#### function without body
f()
#### set -e stops script
set -e; echo one; false; echo two
#### set -e ignores condition
set -e; if false; then :; fi; false || true; echo survived
#### set -e with and list
set -e; false && echo no; echo continues
#### set -e in function
set -e; f() { false; echo inf; }; f; echo after
#### set -e subshell failure
set -e; (false); echo notreached
#### set -e negated pipeline
set -e; ! true; echo still
#### set -u unset variable
set -u; echo ${undefined_var}; echo no
#### set -u with default ok
set -u; echo ${undefined_var:-fine}
#### set -u positional
set -u; f() { echo $1; }; f
#### pipefail
set -o pipefail; false | true; echo $?; true | false | true; echo $?
#### no pipefail
false | true; echo $?
#### exit status of pipeline last
true | false; echo $?
#### exit with code
echo about; exit 3; echo never
#### exit status masked to byte
(exit 300); echo $?
#### exit numeric required
exit abc
#### error in expansion aborts line
echo ${x?custom message}; echo same line
echo next line
#### colon question empty
x=; echo ${x:?is empty}
#### readonly assignment error
readonly ro=1; ro=2; echo after $?
#### readonly unset error
readonly ro2=1; unset ro2; echo $?
#### invalid identifier export
export 1bad=x; echo $?
#### cd too many args
cd a b; echo $?
#### shift too far
set -- a; shift 3; echo $?
#### break outside loop
break; echo after break
#### invalid option to set
set -Q; echo $?
#### test errors
[ 1 -eq ]; echo $?; [ a -eq 1 ]; echo $?
#### bracket missing close
[ 1 = 1; echo $?
#### too many args to test
[ a b c ]; echo $?
#### xtrace output
set -x; echo traced; x=1; set +x; echo untraced
#### xtrace with quotes
set -x; echo "a b" 'c'; set +x
#### errexit exit code
set -e; f() { return 5; }; f; echo no
#### error message line numbers
echo line1
nope_cmd
echo line3
(nope_two)
