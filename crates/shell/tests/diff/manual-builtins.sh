#### umask symbolic and formats
umask 077; umask -S; umask -p; umask -p -S; umask a+r; umask; umask u-w,o+x; umask; umask =; umask; umask ug=rw; umask; umask +x; umask
#### umask errors
umask u=z; echo $?; umask 'u!r'; echo $?; umask q=r; echo $?; umask 08; echo $?; umask -x; echo $?
#### umask -S with mode
umask -S 027; umask
#### exit too many arguments
exit 1 2; echo after
#### exit non-numeric with more args
exit a b; echo after
#### return too many
f(){ return 1 2; }; f; echo st=$?
#### kill -l conversions
kill -l 130; kill -l 143; kill -l INT; kill -l 0; kill -l SIGTERM; kill -l BOGUS; echo $?
#### getopts stale OPTIND
f(){ while getopts ab:c o; do echo "$o ${OPTARG-}"; done; echo $OPTIND; }; f -a -b x -c -d 2>&1; f -b
#### return too many on its own line
f(){ return 1 2; echo in; }
f || echo failed
echo st=$?
#### printf %(..)T fixed times
printf '%(%Y-%m-%d %H:%M:%S)T\n' 86400; printf '[%(%F)T]\n' 0; printf '%(%a %b %e %j)T\n' 951782400; printf '%20(%T)T|\n' 3661; printf '%-12(%R)T|\n' 3661
#### printf %(..)T now is current year
y=$(printf '%(%Y)T' -1); [ "$y" -ge 2024 ] && echo ok
#### printf -v invalid name
printf -v 'bad name' x; echo $?; printf -v a[2] '%s' x; declare -p a
#### printf missing format character
printf '%z'; echo $?; printf 'a%5'; echo $?
#### printf %q in C locale
printf '%q\n' 'é' $'\t' 'a b'
#### type of a command found before
type cat; cat /dev/null; type cat; type -t cat
#### type -a lists every path
type -a cat | head -1; type -P cat; type -p echo; echo $?
#### command -v with missing names
command -v nope cat; echo $?; command -v nope; echo $?; command -V nope cat; echo $?
#### cd - with empty OLDPWD
OLDPWD= ; cd - ; echo $?
#### cd errors
cd /nonexistent; echo $?; cd a b; echo $?
#### dirs -l +1
mkdir -p a b; pushd a >/dev/null; pushd ../b >/dev/null; dirs -l +1 | sed "s#$HOME#H#g"; dirs +0 | sed "s#$HOME#H#g"
#### [[ regex BASH_REMATCH
[[ abc123 =~ ([a-z]+)([0-9]+) ]] && echo "${BASH_REMATCH[@]}" ${#BASH_REMATCH[@]}; declare -p BASH_REMATCH
#### dirs index errors and -v -l
cd /tmp; pushd / >/dev/null; dirs +5; echo $?; dirs -x; echo $?; dirs -1; dirs -l -v
