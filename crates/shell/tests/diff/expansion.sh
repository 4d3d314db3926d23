#### default values
unset x; echo ${x:-def} ${x-def2}; x=; echo ${x:-def} ${x-def2}
#### assign default
unset y; echo ${y:=val}; echo $y
#### alternate value
x=1; echo ${x:+alt} ${unset_v:+alt}-
#### error if unset
f() { echo ${1:?need arg}; }; (f) ; echo after $?
#### string length
s=hello; echo ${#s}
#### prefix removal
p=/usr/local/bin/tool; echo ${p#*/} ${p##*/}
#### suffix removal
f=archive.tar.gz; echo ${f%.*} ${f%%.*}
#### substitution first and all
s=aXbXc; echo ${s/X/-} ${s//X/-}
#### anchored substitution
s=abcabc; echo ${s/#abc/X} ${s/%abc/Y}
#### substitution deletion
s=a-b-c; echo ${s//-}
#### case modification
s="hello World"; echo ${s^} ${s^^} ${s,,} ${s,}
#### substring
s=abcdefgh; echo ${s:2} ${s:2:3} ${s: -3} ${s: -3:2}
#### substring negative length
s=abcdefgh; echo ${s:1:-2}
#### indirect expansion
name=target; target=value; echo ${!name}
#### prefix names
aa1=1; aa2=2; echo ${!aa*}
#### positional parameters
set -- a b c; echo $# $1 $3 "$*"
#### quoted at vs star
set -- "a b" c; for x in "$@"; do echo "[$x]"; done; for x in "$*"; do echo "[$x]"; done
#### unquoted at splits
set -- "a b" c; for x in $@; do echo "[$x]"; done
#### IFS splitting
IFS=:; x="a:b::c"; for i in $x; do echo "[$i]"; done
#### IFS join with star
set -- a b c; IFS=,; echo "$*"
#### tilde expansion
HOME=/home/me; echo ~ ~/x "~"
#### brace expansion list
echo a{b,c,d}e
#### brace sequence
echo {1..5} {a..e} {5..1}
#### brace sequence step and padding
echo {0..10..3} {01..03}
#### nested braces
echo {a,b{1,2}}
#### brace no expansion
echo {a} {} a{,}b
#### arithmetic expansion
echo $((1+2*3)) $(( (1+2)*3 )) $((7/2)) $((7%3)) $((2**10))
#### command substitution strips newlines
x=$(printf 'a\n\n\n'); echo "[$x]"
#### nested command substitution
echo $(echo $(echo deep))
#### backticks
echo `echo back`
#### special parameters
f() { echo $#; }; f 1 2 3; true; echo $?; false; echo $?
#### dollar zero in script
echo $0
#### quoted expansion of array all
a=(x "y z"); printf '[%s]\n' "${a[@]}"
#### length of array element
a=(abc de); echo ${#a[0]} ${#a[1]} ${#a[@]}
#### replace in array
a=(foo bar baz); echo ${a[@]/a/A}
#### transform Q
x="it's here"; echo ${x@Q}
#### upper lower transform
x=MiXed; echo ${x@U} ${x@L}
#### empty unquoted vanishes
e=; printf '[%s]\n' a $e b
#### quoted empty kept
e=; printf '[%s]\n' a "$e" b
#### default with spaces unquoted
unset u; printf '[%s]\n' ${u:-a b}
#### default quoted
unset u; printf '[%s]\n' "${u:-a b}"
#### word splitting of command subst
printf '[%s]\n' $(echo "1 2   3")
#### pattern with star in removal
x=aaa.bbb.ccc; echo ${x#*.} ${x##*.} ${x%.*} ${x%%.*}
#### RANDOM is a number
r=$RANDOM; [[ $r =~ ^[0-9]+$ ]] && echo num
#### LINENO
echo $LINENO
echo $LINENO
#### bad substitution
echo ${x!}; echo after
#### nounset error
set -u; echo ${nope}; echo notreached
#### length of positional
set -- a b c d; echo ${#@} ${#*}
#### slice positional
set -- a b c d e; echo ${@:2:2} ${@:4}
#### slice array
a=(0 1 2 3 4); echo ${a[@]:1:3} ${a[@]: -2}
