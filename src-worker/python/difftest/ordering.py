# Output order when stdout is a pipe or a file: our buffered prints versus children's direct writes,
# flush points, os.write, stderr's line buffering, and what other processes see of unflushed files.
import os, subprocess, sys, tempfile
py = sys.executable
def run(code):
    r = subprocess.run([py, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    out = r.stdout if len(r.stdout) < 1000 else f"{r.stdout[:3]}...{len(r.stdout)}...{r.stdout[-8:]}"
    print(repr(code[:50]), r.returncode, repr(out))
run("import subprocess\nprint('parent first')\nsubprocess.run(['echo', 'child'])\nprint('parent last')")
run("import subprocess\nprint('parent first', flush=True)\nsubprocess.run(['echo', 'child'])\nprint('parent last')")
run("import os\nprint('printed')\nos.system('echo from system')")
run("import os\nprint('printed')\nos.write(1, b'raw\\n')")
run("import sys\nprint('out1')\nprint('err1', file=sys.stderr)\nprint('out2')")
run("import sys\nsys.stdout.write('partial')\nsys.stderr.write('E\\n')\nsys.stdout.write(' line\\n')")
run("import sys\nprint('a')\nsys.stdout.flush()\nprint('b', file=sys.stderr)\nprint('c')")
run("import subprocess, sys\nprint('before')\nsys.stdout.flush()\nsubprocess.run([sys.executable, '-c', 'print(\"grandchild\")'])\nprint('after')")
run("import subprocess, sys\nprint('before')\nsubprocess.run(['sh', '-c', 'echo sh-out; echo sh-err >&2'])\nprint('after')")
run("import sys\nfor i in range(3):\n    print(i)\n    print('e', i, file=sys.stderr)")
run("import sys, time\nprint('x', end='')\nsys.stderr.write('y')\nprint('z')")
run("print('x' * 200000)\nimport os\nos.write(1, b'RAW\\n')")
run("import sys\nsys.stdout.reconfigure(line_buffering=True)\nprint('lb')\nimport os\nos.write(1, b'raw\\n')")
run("import io, sys\nsys.stdout = io.TextIOWrapper(sys.stdout.buffer, write_through=True)\nprint('wt')\nimport os\nos.write(1, b'raw\\n')")
run("import sys\nprint('exit next')\nsys.exit('message')")
d = tempfile.mkdtemp()
p = os.path.join(d, "f.txt")
f = open(p, "w")
f.write("unflushed")
print(repr(subprocess.run(["cat", p], capture_output=True, text=True).stdout))
f.flush()
print(repr(subprocess.run(["cat", p], capture_output=True, text=True).stdout))
f.write(" more")
f.close()
print(repr(subprocess.run(["cat", p], capture_output=True, text=True).stdout))
with open(p, "a", buffering=1) as f:
    f.write("line\n")
    print(repr(subprocess.run(["tail", "-c", "5", p], capture_output=True, text=True).stdout))
with open(p, "ab", buffering=0) as f:
    f.write(b"X")
    print(repr(subprocess.run(["tail", "-c", "1", p], capture_output=True, text=True).stdout))
with open(p, "w") as f:
    f.write("a" * 200000)
    print(os.path.getsize(p) > 0)
print(os.path.getsize(p))
