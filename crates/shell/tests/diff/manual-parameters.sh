#### @Q scalar
x="a b'c"; echo "${x@Q}"; y=$'t\tn'; echo "${y@Q}"; z=; echo "${z@Q}"
#### @a attrs
declare -ir i=1; a=(1); declare -A m; echo "${i@a}" "${a@a}" "${m@a}" "${x@a}"
#### @P
x='\u'; echo "${x@P}" | wc -c; y='a\nb'; echo "${y@P}"
#### @U @L @u
x="hello World"; echo "${x@U}" "${x@L}" "${x@u}"
#### @E
x='a\tb'; echo "${x@E}"
#### patsub anchors
x=hello; echo "${x/#he/X}" "${x/%lo/Y}" "${x/#/S}" "${x/%/E}"
#### patsub &
x=hello; echo "${x/l/[&]}" "${x//l/<&>}" "${x/l/\&}"
#### patsub & quoted
x=hello; echo "${x/l/"&"}"; r='&&'; echo "${x/e/$r}"
#### patsub no rep
x=hello; echo "${x/l}" "${x//l}"
#### indirect
x=y; y=z; echo "${!x}"
#### indirect array
a=(1 2); n='a[1]'; echo "${!n}"; m='a[@]'; echo "${!m}"
#### prefix names
aa=1; ab=2; ac=3; echo "${!a@}"; echo "${!a*}"; for n in "${!a@}"; do echo $n; done
#### default on arrays
a=(); echo "${a[@]:-def}"; b=(""); echo "[${b[@]:-def}]"; echo "[${b[@]-def}]"
#### default on $@
set --; echo "${@:-none}"; set -- ""; echo "[${@:-none}]" "[${*:+plus}]"
#### :? on unset
f(){ echo ${x:?custom msg}; }; f; echo st=$?
#### :? default message
( echo ${nope:?} ); echo $?
#### ? without colon
x=; echo "[${x?oops}]"; ( : ${y?} ); echo $?
#### quoting inside ${}
x=; echo "${x:-"a b"}" ${x:-'c d'} "${x:-'e'}"
#### nested default
x=; y=; echo ${x:-${y:-deep}}
#### := assign
echo ${v:=set}; echo $v
#### substring negative
x=abcdef; echo ${x: -3} ${x:1:-1} ${x:(-2):1}
#### length of $@
set -- a bb ccc; echo ${#@} ${#*} ${#1}
#### trim with patterns
x=/a/b/c.tar.gz; echo ${x##*/} ${x%%.*} ${x%.*} ${x#*/}
#### patsub with array @
set -- aa ba; echo "${@/a/X}"
#### unset indirect
echo "[${!nope}]"
#### bad substitution 2
x=1; echo "${x:}" ; echo next
#### @K scalar
x=5; echo "${x@K}"
#### ${x/pat/rep} with char class
x=a1b2; echo ${x//[0-9]/#}
#### ${#x} multibyte
x=héllo; echo ${#x}
#### indirect with default
x=y; echo ${!x:-d}
#### patsub with glob chars in var
p='*'; x='a*b'; echo "${x/$p/-}" "${x/"$p"/-}"
#### ${@:2}
set -- a b c d; echo "${@:2}" "${@:1:2}" "${@: -1}" "${*:0:1}"
#### patsub & variants in dq
x=hello; echo "${x/l/\&}" "${x//[el]/(&)}" "${x/#h/&&}" "${x/%o/&!}" ${x/l/'&'}
#### patsub & from variable
x=abc; r='[&]'; echo ${x/b/$r} "${x/b/"$r"}"
#### patsub & on array
a=(ab cb); echo "${a[@]/b/<&>}"
