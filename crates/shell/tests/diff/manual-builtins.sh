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
