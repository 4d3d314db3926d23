# time.strftime and friends with TZ set: every common directive (glibc's too), tzname/timezone/altzone
# after tzset, mktime/localtime round trips, strptime, asctime/ctime, and children started with TZ.
import os
import subprocess
import sys
import time

T = 1_718_000_000  # 2024-06-10 06:13:20 UTC
W = 1_704_100_000  # 2024-01-01 09:06:40 UTC
codes = "%a %A %b %B %c %C %d %D %e %F %g %G %h %H %I %j %k %l %m %M %n %p %P %r %R %s %S %t %T %u %U %V %w %W %x %X %y %Y %z %Z %%"
for tz in ("UTC", "America/New_York", "Europe/Berlin", "Asia/Kolkata", "Australia/Adelaide", "EST5EDT", "JST-9", "UTC0", "<+0330>-3:30"):
    os.environ["TZ"] = tz
    time.tzset()
    print(tz, time.tzname, time.timezone, time.altzone, time.daylight)
    for t in (T, W):
        lt = time.localtime(t)
        print(" ", repr(time.strftime(codes, lt)))
        print(" ", tuple(lt), lt.tm_zone, lt.tm_gmtoff, time.mktime(lt) == t, time.asctime(lt), time.ctime(t))
os.environ["TZ"] = "America/Los_Angeles"
time.tzset()
print(time.mktime((2024, 11, 3, 1, 30, 0, 0, 0, 0)), time.mktime((2024, 11, 3, 1, 30, 0, 0, 0, 1)))
print(time.localtime(time.mktime((2024, 1, 31 + 30, 0, 0, 0, 0, 0, -1)))[:3])
print(time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(0)), time.strftime("%j %U %W %V %G", time.gmtime(T)), time.strftime("%Y", (1900, 1, 1, 0, 0, 0, 0, 1, 0)))
print(repr(time.strftime("", time.gmtime(T))), repr(time.strftime("%", time.gmtime(T))), repr(time.strftime("%Q %-d", time.gmtime(T))))
s = time.strptime("2024-06-10 14:05:09", "%Y-%m-%d %H:%M:%S")
print(tuple(s), s.tm_zone, s.tm_gmtoff)
print(tuple(time.strptime("10 Jun 24", "%d %b %y")), tuple(time.strptime("Monday 7 pm", "%A %I %p"))[3:])
try:
    time.strptime("2024-06-10", "%d/%m/%Y")
except ValueError as e:
    print(e)
try:
    time.strptime("2024-06-10 extra", "%Y-%m-%d")
except ValueError as e:
    print(e)
print(time.gmtime(T).tm_zone, time.gmtime(T).tm_gmtoff, time.localtime(T).tm_isdst, time.localtime(W).tm_isdst)
env = dict(os.environ, TZ="Asia/Tokyo")
code = "import time; print(time.strftime('%H:%M %Z %z', time.localtime(1718000000)), time.tzname)"
print(subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True).stdout, end="")
env.pop("TZ")
print(subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True).stdout, end="")
print(subprocess.run(["date", "-d", "@1718000000", "+%F %T %Z %z"], env=dict(os.environ, TZ="Europe/Berlin"), capture_output=True, text=True).stdout, end="")
os.environ["TZ"] = "Europe/Berlin"
time.tzset()
print(time.strftime("%F %T %Z %z", time.localtime(1718000000)))
del os.environ["TZ"]
time.tzset()
print(time.tzname, time.timezone, time.strftime("%Z %z", time.localtime(T)))
