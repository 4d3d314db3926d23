# The environment and PATH as a program sees them: os.environ changes reaching children, shutil.which,
# executables by path, PATH lookups, env= exactness, os.execvp-free replacements.
import os, shutil, stat, subprocess, sys, tempfile
d = tempfile.mkdtemp()
os.chdir(d)
with open("mytool", "w") as f:
    f.write("#!/bin/sh\necho mytool ran \"$@\"\n")
os.chmod("mytool", 0o755)
with open("noexec", "w") as f:
    f.write("#!/bin/sh\necho no\n")
os.chmod("noexec", 0o644)
print(shutil.which("sh") is not None, shutil.which("mytool"), shutil.which("./mytool") == "./mytool", shutil.which("noexec"), shutil.which("nonexistent-xyz"), shutil.which("mytool", path=d) == os.path.join(d, "mytool"), shutil.which("noexec", path=d))
print(shutil.which("mytool", mode=os.F_OK, path=d) is not None, shutil.which("noexec", mode=os.F_OK, path=d) is not None, shutil.which("mytool", path="") , shutil.which(os.path.join(d, "mytool")) is not None)
print(subprocess.run(["./mytool", "a"], capture_output=True, text=True).stdout, subprocess.run([os.path.join(d, "mytool"), "b"], capture_output=True, text=True).stdout)
try:
    subprocess.run(["mytool"])
except FileNotFoundError as e:
    print("FileNotFoundError", e.strerror, e.filename)
try:
    subprocess.run(["./noexec"])
except PermissionError as e:
    print("PermissionError", e.strerror, e.filename)
old = os.environ["PATH"]
os.environ["PATH"] = d + os.pathsep + old
print(subprocess.run(["mytool", "c"], capture_output=True, text=True).stdout, shutil.which("mytool") == os.path.join(d, "mytool"), subprocess.run("mytool d", shell=True, capture_output=True, text=True).stdout)
os.environ["PATH"] = old
print(subprocess.run(["mytool"], env={**os.environ, "PATH": d}, capture_output=True, text=True).stdout if shutil.which("sh", path=old) else "")
os.environ["GREETING"] = "hi there"
os.environ["EMPTY"] = ""
print(subprocess.run(["sh", "-c", 'echo "[$GREETING] [${EMPTY-unset}] [${NOPE-unset}]"'], capture_output=True, text=True).stdout, end="")
del os.environ["GREETING"]
print(subprocess.run(["sh", "-c", 'echo "[${GREETING-gone}]"'], capture_output=True, text=True).stdout, end="")
os.environ.update({"A1": "1", "A2": "2"})
print(sorted(k for k in os.environ if k.startswith("A") and k[1:].isdigit()), os.environ.copy()["A1"], dict(os.environ)["A2"], "A1" in os.environ, os.environ.get("a1"), os.getenv("A2"))
print(os.environ.setdefault("A3", "3"), os.environ.setdefault("A3", "x"), os.environ.pop("A3"), os.environ.pop("A3", "dflt"))
r = subprocess.run([sys.executable, "-c", "import os; print(sorted(k for k in os.environ if k.startswith('A') and k[1:].isdigit()))"], capture_output=True, text=True)
print(r.stdout, end="")
r = subprocess.run([sys.executable, "-c", "import os; print(os.environ.get('A1'), os.environ.get('ONLY'))"], env={"ONLY": "x", "PATH": old}, capture_output=True, text=True)
print(r.stdout, end="")
print(subprocess.run("echo $0", shell=True, capture_output=True, text=True).stdout.strip(), subprocess.run(["sh", "-c", "echo $1-$2", "zero", "one", "two"], capture_output=True, text=True).stdout.strip())
print(subprocess.run("echo $HOME", shell=True, capture_output=True, text=True, env={"HOME": "/custom"}).stdout.strip(), subprocess.run(["env"], env={}, capture_output=True, text=True).stdout.count("=") <= 1)
print(os.get_exec_path()[:1] != [], os.path.isabs(sys.executable), os.access(sys.executable, os.X_OK), os.path.basename(sys.executable).startswith("python"))
st = os.stat("mytool"); print(stat.S_IMODE(st.st_mode) == 0o755, bool(st.st_mode & stat.S_IXUSR), os.access("noexec", os.X_OK), os.access("noexec", os.R_OK | os.W_OK))
