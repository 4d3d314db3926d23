# Users and groups: pwd, grp, getpass, pathlib owner/group, expanduser, tarfile names.
import getpass
import grp
import io
import os
import pathlib
import pwd
import tarfile
import tempfile

me = pwd.getpwuid(os.getuid())
print(type(me).__name__, me.pw_name == getpass.getuser(), me.pw_uid == os.getuid(), me[0] == me.pw_name, len(me))
print(repr(pwd.getpwnam("root")).split(", pw_gecos")[0], pwd.getpwuid(0).pw_dir, grp.getgrgid(0).gr_name, grp.getgrnam("root").gr_gid)
print(isinstance(pwd.getpwall(), list), any(p.pw_name == "root" for p in pwd.getpwall()), type(grp.getgrall()[0].gr_mem).__name__)
for bad in (lambda: pwd.getpwuid(424242), lambda: pwd.getpwnam("no-such-user"), lambda: grp.getgrgid(424242), lambda: grp.getgrnam("no-such-group")):
    try:
        bad()
    except KeyError as e:
        print("KeyError", e)
d = pathlib.Path(tempfile.mkdtemp())
f = d / "f.txt"
f.write_text("x")
print(f.owner() == me.pw_name, f.group() == grp.getgrgid(os.getgid()).gr_name)
print(os.path.expanduser("~") == me.pw_dir or os.path.expanduser("~") == os.environ.get("HOME"), os.path.expanduser("~root"))
buf = io.BytesIO()
with tarfile.open(fileobj=buf, mode="w") as t:
    t.add(f, arcname="f.txt")
buf.seek(0)
with tarfile.open(fileobj=buf) as t:
    m = t.getmember("f.txt")
    print(m.uname == me.pw_name, m.gname == grp.getgrgid(os.getgid()).gr_name)
