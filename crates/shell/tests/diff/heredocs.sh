#### basic heredoc
cat <<EOF
line one
line two
EOF
#### heredoc expands variables
name=World; cat <<EOF
Hello $name
Sum $((1+2)) $(echo cmd)
EOF
#### quoted delimiter no expansion
cat <<'EOF'
$HOME `date` $((1+1))
EOF
#### double quoted delimiter
cat <<"END"
$x literal
END
#### strip tabs with dash
cat <<-EOF
	indented
		twice
	EOF
#### heredoc to while read
while read a b; do echo "$b $a"; done <<EOF
1 one
2 two
EOF
#### heredoc with backslashes
cat <<EOF
a\$b \\ \`x\` \n
EOF
#### two heredocs one line
cat <<A; cat <<B
first
A
second
B
#### heredoc in function
f() { cat <<EOF
in func $1
EOF
}; f arg
#### heredoc piped
cat <<EOF | tr a-z A-Z
upper me
EOF
#### heredoc to fd
cat 3<<EOF <&3
via fd three
EOF
#### heredoc inside command substitution
x=$(cat <<EOF
captured
EOF
); echo "[$x]"
#### heredoc empty body
cat <<EOF
EOF
echo done
#### heredoc delimiter with trailing text not matched
cat <<EOF
EOFX
EOF
#### heredoc with quotes inside
cat <<EOF
"double" 'single'
EOF
#### heredoc unterminated warning
cat <<EOF
no end
EOF2
#### heredoc with tab strip and expansion
x=v; cat <<-E
	val=$x
	E
#### heredoc in loop
for i in 1 2; do cat <<EOF
iter $i
EOF
done
#### here-doc to variable via read
read -r -d '' var <<'EOF'
multi
line
EOF
echo "$var"
#### heredoc with parameter ops
s=abc; cat <<EOF
${s^^} ${#s} ${s:1}
EOF
#### large heredoc
{ for i in $(seq 1 2000); do echo "line $i"; done; } > big.txt
while read -r l; do :; done <<EOF
$(cat big.txt)
EOF
echo "$l"
