# stdin to stdout, line by line, with stderr on the side.
import sys
n = 0
for line in sys.stdin:
    n += 1
    sys.stdout.write(f"{n}: {line.rstrip()[::-1]}\n")
print("lines", n, file=sys.stderr)
print(sys.stdout.isatty(), sys.stdin.isatty())
