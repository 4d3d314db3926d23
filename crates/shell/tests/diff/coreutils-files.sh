#### cat refuses to read the file it appends to
echo hi > f; cat f >> f; echo "status $?"; cat f
#### cat with its output truncated reads an empty input
echo hi > f; cat f > f; echo "status $?"; wc -c < f
#### cat continues after the input that is its output
echo a > g; : > e; cat g e >> e; echo "status $?"; cat e
#### od -N stops reading an endless input
od -An -tx1 -N4 /dev/urandom | wc -w
#### od -N with -j on /dev/zero
od -An -tx1 -j 3 -N 2 /dev/zero
#### cp -n onto the same file succeeds quietly
echo x > f; cp -n f f; echo "status $?"
#### install onto the same file keeps it
echo x > f; install f f; echo "status $?"; cat f
#### cp, mv, ln onto the same file
echo x > f; cp f f; echo $?; mv f f; echo $?; ln f f; echo $?; cat f
