# Local time follows TZ: at start (the environment) and after time.tzset().
import datetime as dt
import os
import subprocess
import sys
import time


def show():
    t = time.localtime(1700000000)
    print(os.environ.get("TZ"), time.tzname, time.timezone, time.altzone, time.daylight)
    print(time.strftime("%Y-%m-%d %H:%M:%S %Z %z", t), t.tm_isdst, t.tm_zone, t.tm_gmtoff, time.strftime("%H:%M %Z", time.localtime(1690000000)))
    print(dt.datetime.fromtimestamp(1700000000), time.mktime(t), time.ctime(1690000000))
    print(dt.datetime(2024, 3, 10, 2, 30).timestamp(), dt.datetime(2024, 11, 3, 1, 30).timestamp(), time.mktime((2024, 7, 1, 12, 0, 0, 0, 0, -1)))
    aware = dt.datetime.fromtimestamp(1690000000).astimezone()
    print(aware.isoformat(), aware.tzname(), aware.strftime("%Z %z"))


os.environ.pop("TZ", None)
time.tzset()
show()
for tz in ("America/New_York", "Europe/Paris", "Asia/Kolkata", "Australia/Lord_Howe", "UTC", "JST-9", "EST5", ":Europe/London", ""):
    os.environ["TZ"] = tz
    time.tzset()
    show()
code = "import time, datetime; print(time.tzname, time.strftime('%H:%M %Z', time.localtime(0)), datetime.datetime.fromtimestamp(0))"
for tz in ("Asia/Tokyo", "America/Los_Angeles"):
    r = subprocess.run([sys.executable, "-c", code], env={**os.environ, "TZ": tz}, capture_output=True, text=True)
    print(tz, r.stdout.strip(), r.returncode)
print(subprocess.run(["sh", "-c", "TZ=Europe/Berlin " + sys.executable + " -c 'import time; print(time.localtime(0).tm_hour)'"], capture_output=True, text=True).stdout.strip())
