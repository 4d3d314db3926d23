# What a script sees of the platform: Linux, as CPython on Linux.
import os
import platform
import sys
import sysconfig

print(sys.platform, sys.platform.startswith("linux"), os.name)
print(os.uname().sysname, platform.system(), platform.uname().system)
print(sysconfig.get_platform().split("-")[0])
print(type(sysconfig.get_config_vars()).__name__, isinstance(sysconfig.get_config_var("EXT_SUFFIX"), str))
print(platform.platform().split("-")[0], platform.python_implementation())
if sys.platform == "linux":
    print("linux branch")
import subprocess

print(subprocess.run(["uname", "-s"], capture_output=True, text=True).stdout.strip() == os.uname().sysname)
