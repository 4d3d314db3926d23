#### IFS colon empty fields
IFS=:; x='a::b:'; set -- $x; echo $#; printf '<%s>' "$@"; echo
#### IFS whitespace and non-whitespace mix
IFS=' :'; x=' a : b  c: '; set -- $x; echo $#; printf '<%s>' "$@"; echo
#### IFS empty no splitting
IFS=; x='a b c'; set -- $x; echo $#
#### unset IFS default
unset IFS; x=$' a\tb\nc '; set -- $x; echo $#
#### "$@" with text
set -- a 'b c'; printf '<%s>' "x$@y"; echo; printf '<%s>' "$@""$@"; echo
#### "$*" with IFS
set -- a b c; IFS=-; echo "$*"; IFS=; echo "$*"; unset IFS; echo "$*"
#### $* unquoted with IFS
set -- 'a b' c; IFS=:; printf '<%s>' $*; echo
#### empty "$@" removed
set --; printf '<%s>' "$@" x; echo; printf '<%s>' "${@}"; echo end
#### read with IFS
IFS=, read a b c <<< 'x,y,z,w'; echo "$a|$b|$c"
#### read IFS whitespace trimming
IFS=' ' read a b <<< '   lead  trail   '; echo "[$a][$b]"
#### splitting result of command substitution
x=$(printf 'a\n\nb\n'); set -- $x; echo $#
#### IFS tab only
IFS=$'\t'; x=$'a\t\tb'; set -- $x; echo $#
#### brace expansion edge cases
echo {a,b}{1,2} {1..3} {a..c} {1..10..3} {c..a} {01..03} x{,}y {a} {,a} {1..1}
#### brace with quotes and vars
x=1; echo {"a b",c} {$x,2} '{a,b}' \{a,b\}
#### brace nested and bad
echo {a,{b,c}} {a..z..5} {1..-2} {a,b {1...3}
#### brace char ranges and steps
echo {Z..a} {-3..3..2} {10..1..3}
#### brace with prefix suffix and zero pad
echo x{08..11}y {001..3} {-05..5..5}
