# datetime and zoneinfo with TZ, time formatting.
import datetime as dt
import os
import time
from zoneinfo import ZoneInfo

d = dt.datetime(2024, 3, 10, 1, 30, tzinfo=ZoneInfo("America/New_York"))
print(d, d + dt.timedelta(hours=1), (d + dt.timedelta(hours=1)).astimezone(ZoneInfo("UTC")), d.tzname(), d.utcoffset())
print(dt.datetime(2024, 11, 3, 1, 30, fold=1, tzinfo=ZoneInfo("America/New_York")).tzname())
print(dt.datetime(2024, 6, 1, tzinfo=ZoneInfo("Europe/Paris")).isoformat(), dt.datetime(2024, 1, 1, tzinfo=ZoneInfo("Asia/Kolkata")).strftime("%Y-%m-%d %H:%M %Z %z"))
print(dt.datetime.fromisoformat("2024-05-06T07:08:09.123456+02:00"), dt.date.fromisoformat("2024-02-29").isocalendar(), dt.datetime.strptime("06/05/24 13:01", "%d/%m/%y %H:%M"))
print(dt.timedelta(days=1, seconds=3661, microseconds=5), dt.timedelta(seconds=-1), str(dt.timedelta(hours=25)), dt.timedelta(weeks=1).total_seconds())
print(dt.datetime(2024, 1, 31) + dt.timedelta(days=30), dt.date(2024, 12, 31).strftime("%j %U %W %a %A %b %B %p"), dt.datetime(2000, 1, 1, 15).strftime("%I %p %c"))
print(dt.datetime.fromtimestamp(0, dt.timezone.utc), dt.datetime.fromtimestamp(86400 * 365.25 * 30, dt.timezone(dt.timedelta(hours=-5), "EST")), dt.timezone.utc)
print(repr(dt.datetime(2024, 1, 2, 3, 4, 5, 6)), repr(dt.date(2024, 1, 2)), repr(dt.timedelta(1, 2, 3)), dt.time(12, 30).isoformat("minutes"))
for tz in ["UTC", "Asia/Tokyo", "America/Los_Angeles", "Europe/London"]:
    os.environ["TZ"] = tz
    time.tzset()
    t = time.localtime(1700000000)
    print(tz, time.strftime("%Y-%m-%d %H:%M:%S %Z %z", t), t.tm_isdst, time.tzname, time.timezone, dt.datetime.fromtimestamp(1700000000).isoformat())
    print(time.mktime((2024, 7, 1, 12, 0, 0, 0, 0, -1)), dt.datetime(2024, 7, 1).astimezone().tzname())
print(time.gmtime(0), time.asctime(time.gmtime(1e9)), time.ctime(0) != "", time.strftime("%%", time.gmtime()))
try:
    ZoneInfo("Nowhere/City")
except Exception as e:
    print(type(e).__name__, e)
try:
    dt.datetime.strptime("2024-13-01", "%Y-%m-%d")
except ValueError as e:
    print(e)
print(dt.datetime(2024, 1, 1) < dt.datetime(2024, 1, 2), dt.date(2024, 1, 1).weekday(), dt.date.max, dt.datetime.min)
try:
    dt.datetime(2024, 1, 1) < dt.datetime(2024, 1, 1, tzinfo=dt.timezone.utc)
except TypeError as e:
    print(e)
