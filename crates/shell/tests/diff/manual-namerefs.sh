#### nameref basic
x=1; declare -n r=x; echo $r; r=2; echo $x
#### nameref local in function
f(){ local -n ref=$1; ref=changed; }; v=orig; f v; echo $v
#### nameref array
a=(1 2 3); declare -n r=a; echo "${r[@]}" ${#r[@]}; r[1]=x; echo "${a[@]}"
#### nameref to element
a=(1 2 3); declare -n r='a[1]'; echo $r; r=z; echo "${a[@]}"
#### ${!ref} on nameref
x=1; declare -n r=x; echo ${!r}
#### unset -n
x=1; declare -n r=x; unset -n r; echo "[$r]" $x
#### unset through nameref
x=1; declare -n r=x; unset r; echo "[${x-unset}]"
#### declare -p nameref
x=1; declare -n r=x; declare -p r
#### nameref to unset creates
declare -n r=newv; r=5; echo $newv
#### nameref assoc
declare -A m; f(){ local -n mm=$1; mm[k]=v; }; f m; declare -p m
#### nameref loop
declare -n a=b; declare -n b=a; a=1; echo $?
#### nameref self
declare -n r=r; echo $?
#### nameref invalid name
declare -n r='1abc'; echo $?
#### nameref in for loop
a=1; b=2; for n in a b; do declare -n r=$n; echo $r; done
#### for with nameref var
x=1; y=2; declare -n r; for r in x y; do echo $r; done
#### nameref +=
x=a; declare -n r=x; r+=b; echo $x
#### nameref -n attr listing
declare -n r=x; echo "${r@a}"; declare -p r
#### nameref readonly target
declare -r ro=1; declare -n r=ro; r=2; echo $?
#### nameref in function chain
f(){ local -n o=$1; o=(a b c); }; f arr; echo "${arr[@]}"
#### nameref to positional fails
declare -n r=1; echo $?
#### nameref local shadow
f(){ local x=inner; g x; }; g(){ local -n r=$1; echo $r; }; x=outer; f
#### nameref name itself
x=1; declare -n r=x; echo ${!r} "${!r@}"
#### nameref [[ -v ]]
x=1; declare -n r=x; [[ -v r ]] && echo set; [[ -R r ]] && echo ref
#### nameref export
declare -n r=x; export r=5; env | grep '^x='
#### nameref dynamic scope
f(){ local v=1; declare -n r=v; r=2; echo $v; }; f
#### nameref read
declare -n r=x; read r <<< hello; echo $x
#### nameref printf -v
declare -n r=x; printf -v r '%s' hi; echo $x
#### nameref declare -n without value
declare -n r; r=x; declare -p r x 2>&1
#### local -n to global array element
a=(1 2); f(){ local -n e='a[0]'; e=9; }; f; echo ${a[@]}
