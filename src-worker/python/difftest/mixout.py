# Output ordering when stdout is a pipe: our buffered prints against children's output and os.write.
import os
import subprocess
import sys

print("buffered 1")
subprocess.run(["echo", "child 1"])
print("buffered 2", flush=True)
subprocess.run(["echo", "child 2"])
os.write(1, b"raw write\n")
print("buffered 3")
sys.stdout.write("partial")
os.system("echo system child")
sys.stdout.flush()
print()
print("to err", file=sys.stderr)
print("after err")
subprocess.run([sys.executable, "-c", "print('py child'); import sys; print('py child err', file=sys.stderr)"])
print(sys.stdout.line_buffering, sys.stderr.line_buffering, sys.stdout.isatty())
with os.popen("echo popen out") as f:
    print("read:", f.read().strip())
p = subprocess.Popen(["cat"], stdin=subprocess.PIPE)
p.communicate(b"via cat\n")
print("end")
