#### single quotes keep everything
echo 'a $x `b` \n "q"'
#### double quotes expand
x=world; echo "hello $x"
#### backslash in double quotes
echo "a\$b \"c\" \\ \q"
#### backslash unquoted
echo a\ b \$x \\
#### ansi-c quoting
echo $'tab\there' $'nl\\n' $'\x41\101'
#### empty strings
echo "" '' x
printf '[%s]\n' "" ''
#### adjacent quoting
echo 'a'"b"c'd'
#### quoted spaces preserved
x="a   b"; echo "$x"; echo $x
#### nested quotes in command substitution
echo "$(echo "inner "quoted" text")"
#### dollar at end
echo $ "a$" 'b$'
#### escaped newline continuation
echo one \
two
#### single quote inside double
echo "it's"
#### double inside single
echo 'say "hi"'
#### quoted glob not expanded
touch a1 a2; echo "a*" 'a?' a\*
#### locale-style dollar double quote
echo $"plain"
#### hash not comment inside word
echo a#b '#c' #comment
#### comment after command
echo x # this is ignored
#### backslash before regular char in dq
echo "\a\b"
#### unicode passes through
echo "héllo wörld ✓"
#### printf %q quoting
printf '%q\n' 'a b' "it's" '' 'x$y'
