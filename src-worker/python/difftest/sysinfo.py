# What a script learns about the machine, checked against the system's own tools: cpu counts vs nproc,
# os.uname vs uname, platform fields, hostname, load average, page size, memory from /proc.
import multiprocessing
import os
import platform
import socket
import subprocess
import sys


def sh(*cmd):
    return subprocess.run(cmd, capture_output=True, text=True).stdout.strip()


n = os.cpu_count()
print(type(n).__name__, n >= 1, n == int(sh("nproc")), n == multiprocessing.cpu_count())
if hasattr(os, "sched_getaffinity"):
    aff = os.sched_getaffinity(0)
    print("affinity", type(aff).__name__, len(aff) == int(sh("nproc")), min(aff))
u = os.uname()
print(u.sysname, u.sysname == sh("uname", "-s"), u.nodename == sh("uname", "-n"), u.release == sh("uname", "-r"), u.machine == sh("uname", "-m"), u.version == sh("uname", "-v"))
print(len(u), u[0] == u.sysname, type(u).__name__)
print(platform.system(), platform.node() == u.nodename, platform.release() == u.release, platform.machine() == u.machine, platform.version() == u.version)
pu = platform.uname()
print(pu.system, pu.node == u.nodename, pu.processor == platform.processor(), type(platform.processor()).__name__)
print(platform.python_implementation(), platform.python_version_tuple()[0], platform.python_version() == sys.version.split()[0])
print(platform.platform().startswith("Linux-"), platform.platform(terse=True).startswith("Linux"), platform.architecture()[1] in ("ELF", ""))
print(socket.gethostname() == u.nodename, socket.gethostname() == sh("hostname"), open("/etc/hostname").read().strip() == u.nodename)
print(sys.platform, os.name, sys.byteorder, os.sep, os.pathsep, os.linesep == "\n", os.devnull, os.curdir, os.pardir, os.extsep, os.altsep)
print(type(os.getloadavg()).__name__, len(os.getloadavg()), all(x >= 0 for x in os.getloadavg()))
print(os.sysconf("SC_PAGE_SIZE") > 0, os.sysconf("SC_CLK_TCK"), os.sysconf("SC_NPROCESSORS_ONLN") == n, "SC_ARG_MAX" in os.sysconf_names)
with open("/proc/meminfo") as f:
    mem = {l.split(":")[0]: l.split(":")[1].split() for l in f}
print("MemTotal" in mem, mem["MemTotal"][1], int(mem["MemTotal"][0]) > 0, int(mem["MemAvailable"][0]) <= int(mem["MemTotal"][0]))
with open("/proc/cpuinfo") as f:
    procs = sum(1 for l in f if l.startswith("processor"))
print("cpuinfo processors", procs == n)
with open("/proc/uptime") as f:
    up = f.read().split()
print(len(up), float(up[0]) > 0)
print(sys.getrecursionlimit(), sys.maxsize == 2**63 - 1 or sys.maxsize == 2**31 - 1, sys.int_info.bits_per_digit in (15, 30), sys.float_info.mant_dig)
print(os.path.exists(sys.executable), os.path.basename(sys.executable).startswith("python"), sys.prefix == sys.base_prefix)
print(platform.libc_ver()[0] in ("glibc", ""), isinstance(platform.freedesktop_os_release() if hasattr(platform, "freedesktop_os_release") and os.path.exists("/etc/os-release") else {}, dict))
print(sh("python3", "-c", "import os; print(os.cpu_count())") == str(n), sh("getconf", "_NPROCESSORS_ONLN") in (str(n), ""))
