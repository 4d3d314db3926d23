#### string equality
[[ abc == abc ]] && echo eq; [[ abc != abd ]] && echo ne
#### pattern match in double bracket
[[ hello == h*o ]] && echo match; [[ hello == "h*o" ]] || echo literal
#### regex match
[[ 2024-01-15 =~ ^([0-9]{4})-([0-9]{2}) ]] && echo ${BASH_REMATCH[1]} ${BASH_REMATCH[2]}
#### regex from variable
re='^a.c$'; [[ abc =~ $re ]] && echo yes; [[ abc =~ "a.c" ]] || echo quoted-literal
#### regex no match clears
[[ abc =~ ^(x)$ ]]; echo $? ${#BASH_REMATCH[@]}
#### string comparisons less greater
[[ apple < banana ]] && echo lt; [[ b > a ]] && echo gt
#### numeric comparisons
[[ 10 -gt 9 ]] && echo gt; [[ 3 -le 3 ]] && echo le; [[ 2 -eq 02 ]] && echo eq
#### arithmetic in double bracket numeric
x=5; [[ x+1 -eq 6 ]] && echo arith
#### and or not
[[ -n a && -z "" ]] && echo both; [[ -z a || -n b ]] && echo either; [[ ! -z a ]] && echo not
#### grouping
[[ ( a == a || b == c ) && x == x ]] && echo grouped
#### file tests
touch file; mkdir dir; [[ -f file ]] && echo f; [[ -d dir ]] && echo d; [[ -e nope ]] || echo noexist
#### file size test
: > empty; echo x > full; [[ -s full ]] && echo full; [[ -s empty ]] || echo empty
#### variable set test
x=1; [[ -v x ]] && echo set; [[ -v nope ]] || echo unset
#### empty and nonempty
e=; [[ -z $e ]] && echo empty; [[ -n $e ]] || echo notnonempty
#### unquoted variable safe in double bracket
v="a b"; [[ $v == "a b" ]] && echo safe
#### test builtin string
test abc = abc && echo t1; [ abc != abc ] || echo t2
#### test builtin numbers
[ 5 -lt 10 ] && echo lt; [ 5 -ge 10 ] || echo notge
#### test with and or flags
[ -n a -a -n b ] && echo and; [ -z a -o -n b ] && echo or
#### test negation and parens
[ ! -z x ] && echo neg; [ \( a = a \) ] && echo paren
#### test single arg
[ x ] && echo nonempty; [ "" ] || echo emptyfalse
#### test no args
[ ]; echo $?
#### newer than
touch old; touch -d '2000-01-01' older 2>/dev/null || touch older; [[ old -nt nonexist ]] && echo newer
#### double bracket status codes
[[ a == b ]]; echo $?; [[ a == a ]]; echo $?
#### equal with glob char in var
p='*'; [[ x == $p ]] && echo globbed; [[ x == "$p" ]] || echo literal
#### test string less than escaped
[ a \< b ] && echo lesser
#### regex special characters
[[ 'a+b' =~ a\+b ]] && echo plus; [[ 'a.b' =~ ^a\.b$ ]] && echo dot
#### nocasematch
shopt -s nocasematch; [[ HELLO == hello ]] && echo ci; case ABC in abc) echo case-ci;; esac
#### option test
set -o errexit; [[ -o errexit ]] && echo on; set +o errexit
#### dash o in test
[[ -o noclobber ]] || echo off
