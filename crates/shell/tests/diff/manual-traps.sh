#### ERR trap
trap 'echo err $?' ERR; false; echo next
#### ERR in function without -E
trap 'echo err' ERR; f(){ false; echo in; }; f
#### ERR with set -E
set -E; trap 'echo err $LINENO' ERR; f(){ false; }; f
#### ERR not in condition
trap 'echo err' ERR; if false; then :; fi; false || true; ! false; echo done
#### DEBUG trap
trap 'echo "dbg: $BASH_COMMAND"' DEBUG; x=1; echo hi
#### RETURN trap
f(){ echo in f; }; trap 'echo ret' RETURN; f; echo out
#### EXIT in subshell
( trap 'echo sub exit' EXIT; echo in sub ); echo after
#### EXIT trap in function
f(){ trap 'echo bye' EXIT; }; f; echo main
#### trap -p
trap 'echo a' EXIT; trap 'echo b' INT; trap -p; trap -p INT
#### trap - reset
trap 'echo x' USR1; trap - USR1; trap -p USR1; echo ok
#### trap listing signal names
trap '' TERM HUP; trap
#### BASH_COMMAND in ERR
trap 'echo "failed: $BASH_COMMAND"' ERR; ls /nonexistent 2>/dev/null; echo ok
#### LINENO in trap
trap 'echo line $LINENO' EXIT
echo a
echo b
#### exit status in EXIT trap
trap 'echo st=$?' EXIT; exit 3
#### trap invalid signal
trap 'x' BOGUS; echo $?
#### ERR trap with exit code
trap 'echo code=$?' ERR; (exit 4); echo ok
#### errexit with ERR
set -e; trap 'echo trapped' ERR; false; echo no
#### DEBUG with functions not inherited
trap 'echo dbg' DEBUG; f(){ echo body; }; f
#### trap in command substitution
trap 'echo exit-main' EXIT; x=$(echo sub); echo $x
#### RETURN trap with set -T
set -T; trap 'echo ret $FUNCNAME' RETURN; f(){ :; }; f
#### trap numeric signal
trap 'echo t' 10; trap -p USR1
#### EXIT in nested subshell
( ( trap 'echo inner' EXIT ); echo mid ); echo out
#### BASH_COMMAND shows redirections
trap 'echo "[$BASH_COMMAND]"' DEBUG
echo hi 2>/dev/null; x=1 y="a b"; a=(1 2); b[1]=3
#### ERR trap set inside a function stays
f(){ trap 'echo err in' ERR; }; f; false; echo after
#### set -E and -T in dollar dash
set -ET; echo $-; set +ET; echo $-
