#### star glob sorted
touch b.txt a.txt c.log; echo *.txt
#### question mark
touch a1 a2 a10; echo a?
#### bracket glob
touch x1 x2 x3 y1; echo x[12] [xy]1
#### negated bracket
touch f1 f2 f3; echo f[!2]
#### no match stays literal
echo *.nomatch
#### nullglob
shopt -s nullglob; echo start *.nomatch end
#### failglob
shopt -s failglob; echo *.nomatch; echo after
#### dotfiles hidden
touch .hidden visible; echo *
#### dotglob
shopt -s dotglob; touch .hidden visible; echo *
#### explicit dot pattern
touch .h1 .h2 v; echo .h*
#### glob in directory
mkdir -p d/sub; touch d/a d/b d/sub/c; echo d/*; echo d/*/*
#### globstar
shopt -s globstar; mkdir -p g/x/y; touch g/1 g/x/2 g/x/y/3; echo g/**
#### extglob at
shopt -s extglob
touch app.js app.ts app.py; echo app.@(js|ts)
#### extglob not
shopt -s extglob
touch k.c k.h k.o; echo k.!(o)
#### extglob plus star
shopt -s extglob
touch aa aaa b; echo +(a); echo *(a)b
#### noglob
set -f; touch zz; echo z*; set +f; echo z*
#### glob with quoted part
touch 'sp ace' spb; echo sp*; echo "sp"*
#### glob from variable
touch m1 m2; p='m*'; echo $p; echo "$p"
#### character class glob
touch n1 nA nb; echo n[[:digit:]] n[[:upper:]]
#### glob no match in assignment not expanded
touch q1; v=q*; echo "$v"
#### case-insensitive glob
shopt -s nocaseglob; touch Upper.TXT; echo upper.*
#### glob with brace
touch r1 r2 s1; echo {r,s}1
#### pattern matching in case with extglob
shopt -s extglob
case foo.tar.gz in *.@(gz|bz2)) echo compressed;; esac
#### glob results word per file
touch 'has space' other; for f in *; do echo "[$f]"; done
#### trailing slash glob dirs only
mkdir -p da db; touch fa; echo d*/
#### range bracket
touch c1 c5 c9; echo c[1-5]
