#### read then cat shares the offset
printf 'l1\nl2\nl3\n' > f; { read a; cat; } < f; echo "a=$a"
#### read in a child shell leaves the offset after its line
printf 'l1\nl2\nl3\nl4\n' > f; { read a; bash -c 'read b; echo "b=$b"'; read c; echo "a=$a c=$c"; } < f
#### while read with a child shell reading in the body
printf '1\n2\n3\n4\n5\n' > f; while read l; do echo "got $l"; bash -c 'read x; echo "inner $x"'; done < f
#### read -u from an exec'd fd
printf 'x\ny\nz\n' > f; exec 3<f; read -u 3 p; read -u 3 q; exec 3<&-; echo "$p $q"; exec 4<f; read -u 4 r; cat <&4; exec 4<&-; echo "r=$r"
#### read -n and -N on a file
printf 'abcdef\nghi\n' > f; { read -n 2 a; read -N 3 b; read c; read d; } < f; echo "$a|$b|$c|$d"
#### read with backslash continuation from a file
printf 'one \\\ntwo\nthree\n' > f; { read a; read b; } < f; echo "[$a] [$b]"
#### read -d from a file then the rest
printf 'a:b:c\nrest\n' > f; { read -d : x; read -d : y; cat; } < f; echo "$x $y"
#### mapfile after read shares the offset
printf '1\n2\n3\n' > f; { read first; mapfile -t rest; } < f; echo "$first ${#rest[@]} ${rest[*]}"
#### subshell read in a pipeline body keeps order
printf 'a\nb\nc\n' > f; exec 5<f; read -u 5 one; (read -u 5 two; echo "two=$two"); read -u 5 three; echo "$one $three"; exec 5<&-
#### read from a file that has no final newline
printf 'x\ny' > f; n=0; while read -r l || [ -n "$l" ]; do n=$((n+1)); echo "[$l]"; done < f; echo $n
#### while read over a big file counts lines and bytes
for i in $(seq 1 3000); do echo "line number $i"; done > f; c=0; n=0; while IFS= read -r l; do c=$((c+1)); n=$((n+${#l})); done < f; echo $c $n
#### head leaves a shared file offset right after its lines
printf 'l1\nl2\nl3\nl4\n' > f; { head -n 1; cat; } < f; { head -n 2 >/dev/null; read x; echo "x=$x"; } < f
#### while read with head in the body
printf '1\n2\n3\n4\n5\n6\n' > f; while read l; do echo "got $l"; head -n 1; done < f
#### head -c then cat on a shared file
printf 'abcdef\n' > f; { head -c 2; echo; cat; } < f
