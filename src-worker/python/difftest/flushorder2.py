# Output order as a reader of our pipe sees it: print(flush=True) between children, print without flush
# before a child, sys.stdout.write, stderr lines, os.system and Popen inheriting fd 1, -u children.
import os
import subprocess
import sys

print("1 flushed before child", flush=True)
subprocess.run(["echo", "2 child"])
print("3 buffered before child")
subprocess.run(["echo", "4 child runs first"])
sys.stdout.flush()
print("5 stderr next", flush=True)
print("6 stderr line", file=sys.stderr)
sys.stdout.write("7 write no newline ")
sys.stdout.write("continued\n")
os.system("echo 8 os.system")
sys.stdout.flush()
p = subprocess.Popen(["sh", "-c", "echo 9 popen; sleep 0.2; echo 11 popen late"])
print("10 between", flush=True)
p.wait()
for i in range(3):
    print(f"12.{i} loop", flush=True)
    subprocess.run(["printf", f"12.{i} child\\n"])
code = "import sys, time\nfor i in range(3):\n    print('child', i)\n    print('child err', i, file=sys.stderr)\n"
subprocess.run([sys.executable, "-c", code])
subprocess.run([sys.executable, "-u", "-c", code])
subprocess.run([sys.executable, "-c", code], env=dict(os.environ, PYTHONUNBUFFERED="1"))
r = subprocess.run([sys.executable, "-c", code], stderr=subprocess.STDOUT, stdout=subprocess.PIPE, text=True)
print(r.stdout.splitlines())
r = subprocess.run([sys.executable, "-u", "-c", code], stderr=subprocess.STDOUT, stdout=subprocess.PIPE, text=True)
print(r.stdout.splitlines())
sys.stdout.write("13 end without flush, before stderr\n")
print("14 stderr", file=sys.stderr)
os.write(1, b"15 os.write overtakes\n")
print("16 last")
