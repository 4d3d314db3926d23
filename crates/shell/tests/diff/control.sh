#### if elif else
for x in 1 2 3; do if [ $x = 1 ]; then echo one; elif [ $x = 2 ]; then echo two; else echo other; fi; done
#### if status when no branch
if false; then echo no; fi; echo $?
#### while loop with counter
i=0; while [ $i -lt 3 ]; do echo $i; i=$((i+1)); done
#### until loop
i=0; until [ $i -ge 2 ]; do echo u$i; i=$((i+1)); done
#### for over words
for w in alpha beta "gamma delta"; do echo "$w"; done
#### for without in uses positional
set -- p q; for a; do echo $a; done
#### break and continue
for i in 1 2 3 4 5; do [ $i = 2 ] && continue; [ $i = 4 ] && break; echo $i; done
#### nested break 2
for i in 1 2; do for j in a b; do [ $j = b ] && break 2; echo $i$j; done; done; echo end
#### continue 2
for i in 1 2; do for j in a b; do [ $j = a ] && continue 2; echo $i$j; done; done; echo end
#### case patterns
for v in apple banana cherry 42 ""; do case $v in a*) echo A;; b*|c*) echo BC;; [0-9]*) echo num;; "") echo empty;; esac; done
#### case fallthrough
case x in x) echo one;& y) echo two;; z) echo three;; esac
#### case continue testing
case abc in a*) echo first;;& *b*) echo second;;& z*) echo no;; *) echo last;; esac
#### case with quotes and globs
x='*'; case foo in "$x") echo literal;; $x) echo glob;; esac
#### case no match status
case q in a) echo a;; esac; echo $?
#### brace group
{ echo a; echo b; } > out.txt; cat out.txt
#### subshell isolation
x=1; (x=2; echo in $x); echo out $x
#### subshell exit status
(exit 7); echo $?
#### and or lists
true && echo yes || echo no; false && echo yes || echo no
#### negation
! false; echo $?; ! true; echo $?
#### while read loop
printf 'a 1\nb 2\n' | while read k v; do echo "$v-$k"; done
#### loop output redirected
for i in 1 2 3; do echo $i; done > f; wc -l < f
#### select-free loop with break status
while true; do break; done; echo $?
#### empty for list
for x in; do echo never; done; echo ok
#### nested functions and loops
f() { for i in 1 2; do g $i; done; }; g() { echo g$1; }; f
#### loop with semicolons and newlines
for i in 1 2
do
  echo line$i
done
#### if with command list condition
if echo cond; false; then echo t; else echo f; fi
#### arithmetic for with multiple vars
for ((i=0, j=10; i<3; i++, j--)); do echo $i $j; done
#### until with break
n=0; until false; do n=$((n+1)); [ $n -eq 3 ] && break; done; echo $n
#### case with character class
for c in a Z 5 _; do case $c in [[:lower:]]) echo lower;; [[:upper:]]) echo upper;; [[:digit:]]) echo digit;; *) echo other;; esac; done
#### while with pipeline condition
printf 'x\ny\n' > f; while read -r l; do echo "got $l"; done < f
#### exit in subshell does not exit
(exit 3); echo still here
#### conditional chain status
false || false || echo third; true && false && echo never; echo $?
