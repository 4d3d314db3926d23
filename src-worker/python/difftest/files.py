# File I/O through the kernel: create, append, list, stat, rename, remove, walk, shutil, glob, pathlib.
import errno, os, shutil, glob, pathlib, tempfile, json
base = tempfile.mkdtemp(prefix="difft")
os.chdir(base)
with open("a.txt", "w") as f:
    f.write("line1\nline2\n")
with open("a.txt", "a") as f:
    f.write("line3\n")
print(open("a.txt").read().splitlines(), os.path.getsize("a.txt"))
os.makedirs("d/e/f")
pathlib.Path("d/e/f/g.json").write_text(json.dumps({"k": [1, 2]}))
print(json.loads(pathlib.Path("d/e/f/g.json").read_text()))
os.rename("a.txt", "d/b.txt")
print(sorted(os.listdir(".")), sorted(os.listdir("d")), os.path.exists("a.txt"))
for root, dirs, files in os.walk("d"):
    print(root, sorted(dirs), sorted(files))
shutil.copy("d/b.txt", "c.txt")
shutil.copytree("d", "d2")
print(sorted(glob.glob("**/*.txt", recursive=True)))
st = os.stat("c.txt")
print(st.st_size, oct(st.st_mode & 0o777) in ("0o644", "0o664"), os.path.isdir("d"), os.path.islink("c.txt"))
os.symlink("c.txt", "link")
print(os.readlink("link"), open("link").read().count("line"), os.path.islink("link"))
with open("bin", "wb") as f:
    f.write(bytes(range(256)) * 100)
with open("bin", "rb") as f:
    f.seek(1000)
    print(f.read(4), f.tell())
os.truncate("bin", 10)
print(os.path.getsize("bin"))
try:
    open("missing/x")
except FileNotFoundError as e:
    print("ENOENT", e.errno == errno.ENOENT)
try:
    os.rmdir("d")
except OSError as e:
    print("ENOTEMPTY", e.errno == errno.ENOTEMPTY)
shutil.rmtree("d")
shutil.rmtree("d2")
print(sorted(os.listdir(".")))
os.chdir("/")
shutil.rmtree(base)
print(os.path.exists(base))
