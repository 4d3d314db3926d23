#### literal with index then positional
a=([3]=x y z); declare -p a
#### literal tilde and quoting
HOME=/h; a=(~ "~" ~/x 'a b'); printf '<%s>\n' "${a[@]}"
#### += scalar on array element
a=(1 2); a[1]+=x; a+=y; declare -p a
#### sparse keys
a=([2]=b [7]=c); a+=(d); echo "${!a[@]}"; declare -p a
#### assoc declare -p
declare -A m=([a b]=1 [x]="y z"); m[q]=$'\t'; declare -p m
#### assoc @K
declare -A m=([k]=v); echo "${m[@]@K}"
#### indexed @K
a=(x "y z"); echo "${a[@]@K}"
#### slices
a=(a b c d e); echo "${a[@]:1:2}" "${a[@]: -2}" "${a[@]:3}"
#### negative index assign
a=(1 2 3); a[-1]=z; echo "${a[@]}"
#### negative out of range
a=(1 2 3); a[-5]=z; echo $?
#### keys of assoc with specials
declare -A m; m['$x']=1; m['a]b']=2 2>/dev/null; m["*"]=3; for k in "${!m[@]}"; do echo "$k"; done | sort
#### array length of element
a=(hello wo); echo ${#a[0]} ${#a[1]} ${#a}
#### declare -a from string
declare -a a='(1 2 3)'; echo ${a[1]}
#### unset last element via negative
a=(1 2 3); unset 'a[-1]'; declare -p a
#### readarray
printf 'a\nb\nc\n' > f; readarray -t arr < f; declare -p arr
#### mapfile -d
printf 'a,b,c' | { mapfile -d , x; declare -p x; }
#### array in arithmetic
a=(5 6); echo $(( a[0] + a[1] )); (( a[2] = 9 )); echo ${a[2]}
#### assoc in arithmetic
declare -A m=([x]=3); echo $(( m[x] * 2 ))
#### declare -A append
declare -A m=([a]=1); m+=([b]=2 [a]=3); declare -p m
#### "${a[*]}" with IFS
a=(1 2 3); IFS=,; echo "${a[*]}"; IFS=; echo "${a[*]}"
#### ${a[@]/pat/rep}
a=(apple banana); echo "${a[@]/a/X}" "${a[@]//a/X}" "${a[@]#?}" "${a[@]^}"
#### declare -a plain
declare -a x; declare -p x; x=(); declare -p x
#### local array in function
f(){ local -a a=(1 2); declare -p a; }; f
#### assoc unset element
declare -A m=([a]=1 [b]=2); unset 'm[a]'; declare -p m
#### declare -p multiple
a=(1); b=2; declare -p a b
#### arr element with spaces in index expression
a=(1 2 3 4); i=1; echo ${a[i+1]} ${a[$i]}
#### empty array declare -p
a=(); declare -p a; declare -A b=(); declare -p b
#### @Q on array
a=("a b" c\'d); echo "${a[@]@Q}"
#### @A on array
a=(1 "2 3"); echo "${a[@]@A}"; x=5; echo "${x@A}"
#### ${!a[*]}
a=(x y); echo "${!a[*]}"
#### assoc numeric string keys
declare -A m; m[1]=a; m[01]=b; echo ${#m[@]}
#### array = scalar assign keeps others
a=(1 2 3); a=9; echo "${a[@]}"
#### compound assign with +=
a=(1); a+=([5]=x); declare -p a
#### set -u unset element
set -u; a=(1); echo ${a[3]}; echo after
#### set -u on empty array @
set -u; a=(); echo "${a[@]}"; echo ok
#### declare -p of integer array
declare -ai a=(1+1 3); declare -p a
#### assoc keys order insertion
declare -A m; m[z]=1; m[a]=2; m[m]=3; echo "${!m[@]}"
#### assoc literal without index fails
declare -A m=(a b); declare -p m
#### length of assoc
declare -A m=([a]=1 [b]=2); echo ${#m[@]}
#### declare -p quoting of values and keys
declare -A m=(["a\"b"]=1 [\$x]=2 [a=b]=4 [-]=5 [@]=6 [~h]=7 [#c]=8); declare -p m
#### declare -p control chars
x=$'\t'; declare -p x; a=($'a\tb' "q\"" 'd$'); declare -p a
#### @K @k variants
a=(1 "x y"); echo "${a[@]@K}"; echo "${a[*]@K}"; declare -A m=([a]=1 [b c]=2); echo "${m[@]@K}"; printf '<%s>' "${m[@]@k}"; echo; x=$'\t'; echo "${x@K}"
#### @A variants
a=(1 "2 3"); echo "${a[@]@A}"; echo "${a@A}"; declare -A m=([k]=v); echo "${m[@]@A}"; declare -ri x=5; echo "${x@A}"; y="a b"; echo "${y@A}"; echo "${a[1]@A}"
#### @Q with non-ASCII in C locale
x=é; echo "${x@Q}"; printf '%q\n' "$x"; declare -p x
#### many assoc keys order
declare -A m; for i in {1..40}; do m[k$i]=$i; done; echo "${!m[@]}"; echo "${m[@]}"
#### assoc unset and reinsert order
declare -A m=([a]=1 [b]=2 [c]=3); unset 'm[a]'; m[a]=4; echo "${!m[@]}"
#### declare -A no value
declare -A m; declare -p m; m[x]=1; declare -p m
