#### dollar dash
echo $-; set -e; echo $-; set -u -x; echo $- 2>/dev/null; set +xeu
#### set -o listing
set -o | head -5; set +o | head -3
#### shopt -p
shopt -p extglob nullglob; shopt -s nullglob; shopt -p nullglob; shopt nullglob; shopt -q nullglob; echo $?
#### shopt unknown
shopt -s nosuch; echo $?
#### shopt listing all
shopt | head -5
#### set -o pipefail
set -o pipefail; false | true; echo $?; set +o pipefail; false | true; echo $?
#### nocasematch
shopt -s nocasematch; [[ ABC == abc ]] && echo m; case X in x) echo c;; esac
#### nullglob
shopt -s nullglob; echo none*.zz; a=(*.qq); echo ${#a[@]}
#### failglob
shopt -s failglob; echo *.nomatch; echo after
#### dotglob
touch .h v; shopt -s dotglob; echo *
#### globstar
mkdir -p d/e; touch d/e/f.txt d/g.txt; shopt -s globstar; echo **/*.txt
#### lastpipe
shopt -s lastpipe; echo hi | read x; echo $x
#### set -o invalid
set -o nosuch; echo $?
#### set -- args
set -- a b; echo $#; set --; echo $#
#### expand_aliases
shopt -s expand_aliases; alias hi='echo hello'
hi
#### inherit_errexit
set -e; shopt -s inherit_errexit; x=$(false; echo no); echo "[$x]"
#### extglob files
shopt -s extglob
touch a.txt b.log c.txt; echo !(*.txt); echo @(a|b).*; echo +(a|c).txt
#### GLOBIGNORE
touch a.c b.c c.h; GLOBIGNORE='a*'; echo *.c; GLOBIGNORE='*.c:*.h'; echo *; unset GLOBIGNORE; echo *.c
#### GLOBIGNORE dotfiles
touch .x y; GLOBIGNORE=y; echo *
#### shopt -p of unimplemented options
shopt -p checkwinsize globskipdots; shopt -s autocd; shopt autocd; shopt -u sourcepath; shopt -p sourcepath
#### shopt -s listing
shopt -s | head -4; shopt -u | tail -2
#### dollar dash with options
set -aCf; echo $-; set +aCf; set -o pipefail; echo $-
