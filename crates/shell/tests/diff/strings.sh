#### string concatenation
a=foo; b=bar; c=$a$b; echo $c ${a}_$b
#### append operator
s=ab; s+=cd; s+="ef"; echo $s
#### length of unicode string
s="héllo"; echo ${#s}
#### substring unicode
s="añb"; echo ${s:1:1}
#### uppercase first letter
n=alice; echo ${n^}
#### replace all spaces
s="a b  c"; echo "${s// /_}"
#### remove trailing slash
p=/a/b/; echo ${p%/}
#### basename via expansion
p=/x/y/z.txt; f=${p##*/}; echo $f ${f%.*} ${f##*.}
#### dirname via expansion
p=/x/y/z.txt; echo ${p%/*}
#### default of empty array element
a=(); echo ${a[0]-none}
#### nested expansion in default
x=; y=fallback; echo ${x:-$y}
#### replacement with variable pattern
s=hello; p=l; echo ${s//$p/L}
#### replacement with glob pattern
s=file123name; echo ${s//[0-9]/#}
#### pattern removal with char class
s=abc123; echo ${s%%[0-9]*}
#### string repeat via printf
printf -v line '%*s' 5 ''; echo "[${line// /-}]"
#### trim whitespace idiom
s="   padded  "; t="${s#"${s%%[![:space:]]*}"}"; t="${t%"${t##*[![:space:]]}"}"; echo "[$t]"
#### case toggle all
s=Hello; echo ${s,,} ${s^^}
#### substring beyond length
s=abc; echo "[${s:5}]" "[${s:1:10}]"
#### length of empty
e=; echo ${#e}
#### quote removal in pattern
s='a*b'; echo ${s/'*'/STAR}
#### string comparison sorting
for w in pear apple fig; do echo $w; done | sort
#### split string into array
s="a,b,c"; IFS=, read -ra parts <<< "$s"; echo ${#parts[@]} ${parts[1]}
#### join array
a=(x y z); j=$(IFS=:; echo "${a[*]}"); echo $j
#### contains check
s=haystack; [[ $s == *st* ]] && echo found
#### starts and ends with
s=prefix_body_suffix; [[ $s == prefix* ]] && echo starts; [[ $s == *suffix ]] && echo ends
#### reverse string loop
s=abc; r=; for ((i=${#s}-1;i>=0;i--)); do r+=${s:i:1}; done; echo $r
#### character iteration
s=xyz; for ((i=0;i<${#s};i++)); do printf '%s.' "${s:i:1}"; done; echo
#### tr usage
echo Hello | tr 'a-z' 'A-Z'
#### printf padding table
printf '%-6s|%4s\n' name qty apple 3 kiwi 12
#### string with newlines
s=$'l1\nl2'; echo "$s" | wc -l
#### count occurrences
s=banana; t=${s//[^a]}; echo ${#t}
#### indirect array reference
arr=(q w e); ref='arr[1]'; echo ${!ref}
#### at-sign transforms on arrays
a=(x 'y z'); echo ${a[@]@Q}
#### string index idiom with expr-free
s=hello; p=${s%%l*}; echo ${#p}
#### numeric string compare
a=10; b=9; [[ $a > $b ]] && echo lexical-greater || echo lexical-less; (( a > b )) && echo numeric-greater
#### parameter expansion in arithmetic
s=abc; echo $(( ${#s} * 2 ))
#### empty replacement
s=aaa; echo "[${s//a/}]"
#### replace anchored with empty
s=xxabxx; echo ${s/#xx/} ${s/%xx/}
#### lower and upper attribute assign
declare -u U; U=mixed; echo $U
#### export with value and use
export GREETING="hi there"; env | grep GREETING
#### very long string
s=$(printf 'x%.0s' $(seq 1 1000)); echo ${#s}
#### string equality with spaces
a="x y"; b="x y"; [ "$a" = "$b" ] && echo equal
#### special chars in values
v='$HOME `x` "q"'; echo "$v"
#### dollar single quote escapes
echo $'a\x41\u00e9\n' | head -1
