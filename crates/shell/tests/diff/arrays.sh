#### indexed array basics
a=(one two three); echo ${a[0]} ${a[2]} ${#a[@]}
#### append element
a=(1 2); a+=(3 4); echo ${a[@]}
#### assign by index
a[5]=x; a[1]=y; echo ${a[@]}; echo ${!a[@]}
#### sparse array length
a=(); a[3]=c; a[10]=d; echo ${#a[@]} ${!a[@]}
#### negative index
a=(1 2 3 4); echo ${a[-1]} ${a[-2]}
#### unset element
a=(a b c); unset 'a[1]'; echo ${a[@]} ${#a[@]}
#### whole array unset
a=(1 2); unset a; echo "[${a[@]}]"
#### array in for loop
a=("x y" z); for i in "${a[@]}"; do echo "<$i>"; done
#### associative array
declare -A m; m[one]=1; m[two]=2; echo ${m[one]} ${m[two]} ${#m[@]}
#### associative keys sorted
declare -A m=([b]=2 [a]=1 [c]=3); for k in $(printf '%s\n' "${!m[@]}" | sort); do echo $k=${m[$k]}; done
#### associative with spaces in key
declare -A m; m["a b"]=x; echo "${m["a b"]}"
#### assoc key check
declare -A m=([k]=v); [[ -v m[k] ]] && echo has; [[ -v m[z] ]] || echo missing
#### array element default
a=(); echo ${a[0]:-empty}
#### scalar as array
s=hello; echo ${s[0]} ${#s[@]}
#### array copy
a=(1 2 3); b=("${a[@]}"); b[0]=9; echo ${a[@]} / ${b[@]}
#### array from command output
a=($(printf '%s\n' x y z)); echo ${#a[@]} ${a[1]}
#### array join with IFS
a=(a b c); (IFS=-; echo "${a[*]}")
#### declare -a explicit
declare -a arr=(p q); arr+=(r); echo ${arr[@]}
#### declare -p array
a=(x y); declare -p a
#### declare -p assoc
declare -A m=([k]=v); declare -p m
#### array with explicit indices in literal
a=([2]=two [0]=zero one); echo ${a[@]} ${!a[@]}
#### mapfile basic
printf 'l1\nl2\nl3\n' > f; mapfile -t lines < f; echo ${#lines[@]} ${lines[1]}
#### readarray keeps newline without -t
printf 'a\nb\n' > f; readarray arr < f; printf '[%s]' "${arr[@]}"; echo
#### read -a
read -a parts <<< "x y z"; echo ${parts[2]} ${#parts[@]}
#### array element string ops
a=(apple banana); echo ${a[1]^^} ${a[0]:1:3} ${a[@]#?}
#### array length of element
a=(hello); echo ${#a[0]}
#### arithmetic index expression
a=(10 20 30); i=1; echo ${a[i+1]} ${a[$i]}
#### keys of indexed array
a=(x y z); echo ${!a[@]}
#### array append string to element
a=(a b); a[0]+=x; echo ${a[@]}
#### local array in function
f() { local -a l=(1 2); echo ${l[@]}; }; f; echo "[${l[@]}]"
#### unset assoc element
declare -A m=([a]=1 [b]=2); unset 'm[a]'; echo ${!m[@]}
#### PIPESTATUS array
true | false | true; echo ${PIPESTATUS[@]}
#### BASH_REMATCH groups
[[ "key=value" =~ ^([a-z]+)=([a-z]+)$ ]] && echo ${BASH_REMATCH[0]} ${BASH_REMATCH[1]} ${BASH_REMATCH[2]}
