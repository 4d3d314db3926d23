# Programs that talk to a user through stdin: prompts, menus, numbers, EOF in the middle, readline loops.
import subprocess, sys
py = sys.executable
prog = r'''
import sys
total = 0
while True:
    try:
        line = input("number (q to quit): ")
    except EOFError:
        print("\nEOF reached")
        break
    if line.strip() == "q":
        break
    try:
        total += float(line)
    except ValueError:
        print(f"not a number: {line!r}", file=sys.stderr)
        continue
    print("running total", total)
print("total", total)
'''
for stdin in ["1\n2\nq\n", "5\nabc\n2.5\n", "", "7", "\n\nq\n"]:
    r = subprocess.run([py, "-c", prog], input=stdin, capture_output=True, text=True)
    print(repr(stdin), r.returncode, repr(r.stdout), repr(r.stderr))
menu = r'''
options = {"1": "add", "2": "list", "3": "quit"}
items = []
while True:
    print("Menu:", ", ".join(f"{k}) {v}" for k, v in options.items()))
    choice = input("> ")
    if choice == "1":
        items.append(input("item: "))
    elif choice == "2":
        print(items)
    elif choice == "3":
        print("bye")
        break
    else:
        print("invalid", repr(choice))
'''
r = subprocess.run([py, "-c", menu], input="1\napple\n1\npear\n2\n9\n3\n", capture_output=True, text=True)
print(r.returncode, r.stdout)
r = subprocess.run([py, "-c", menu], input="1\n", capture_output=True, text=True)
print(r.returncode, repr(r.stdout), r.stderr.splitlines()[-1:])
r = subprocess.run([py, "-c", "import sys\nfor n, line in enumerate(sys.stdin, 1):\n    print(n, line.rstrip()[::-1])\nprint('done', n)"], input="abc\ndef\n", capture_output=True, text=True)
print(r.stdout)
r = subprocess.run([py, "-c", "a, b = map(int, input().split())\nprint(a + b)\nn = int(input())\nprint([int(x) ** 2 for x in input().split()][:n])"], input="3 4\n2\n5 6 7\n", capture_output=True, text=True)
print(r.stdout, r.stderr)
r = subprocess.run([py, "-c", "import sys\nline = sys.stdin.readline()\nwhile line:\n    sys.stdout.write('> ' + line)\n    line = sys.stdin.readline()\n"], input="x\ny", capture_output=True, text=True)
print(repr(r.stdout))
r = subprocess.run([py, "-c", "x = int(input('age? '))"], input="old\n", capture_output=True, text=True)
print(r.returncode, repr(r.stdout), r.stderr.splitlines()[-1])
r = subprocess.run([py, "-c", "print(input('a'), input('b'))"], input="1\n2\n", capture_output=True, text=True)
print(repr(r.stdout))
r = subprocess.run([py, "-c", "import sys; print(sys.stdin.read(2), sys.stdin.readline(), sys.stdin.read())"], input="abcd\nef\ngh", capture_output=True, text=True)
print(repr(r.stdout))
r = subprocess.run([py, "-c", "import sys; sys.stdin.close(); input()"], capture_output=True, text=True)
print(r.returncode, r.stderr.splitlines()[-1])
r = subprocess.run([py, "-c", "import sys; print(input())"], input="caf\xe9 \u2603\n", capture_output=True, text=True)
print(repr(r.stdout))
r = subprocess.run([py, "-c", "import sys; print(repr(input()))"], input=b"\xff\xfe\n", capture_output=True)
print(r.returncode, r.stdout, r.stderr.splitlines()[-1:])
