# datetime, zoneinfo, time.strftime under TZ, calendar.
import calendar
import datetime as dt
import time
from zoneinfo import ZoneInfo

d = dt.datetime(2024, 3, 10, 1, 30, tzinfo=dt.timezone.utc)
for name in ("America/New_York", "Europe/Paris", "Asia/Kolkata", "Australia/Sydney", "UTC"):
    z = d.astimezone(ZoneInfo(name))
    print(name, z.isoformat(), z.tzname(), z.utcoffset(), z.dst())
ny = ZoneInfo("America/New_York")
print(dt.datetime(2024, 3, 10, 3, 30, tzinfo=ny) - dt.datetime(2024, 3, 10, 1, 30, tzinfo=ny))
print(dt.datetime(2024, 11, 3, 1, 30, fold=1, tzinfo=ny).utcoffset())
x = dt.datetime(2023, 12, 31, 23, 59, 58, 123456)
print(x.strftime("%Y-%m-%d %H:%M:%S.%f %a %A %b %B %j %U %W %p %I %y %%"), x.isocalendar(), x.weekday())
print(dt.datetime.strptime("2024-02-29 13:05", "%Y-%m-%d %H:%M"), dt.date.fromisoformat("2024-01-05"))
print(dt.datetime.fromisoformat("2024-01-05T10:20:30+02:00").astimezone(dt.timezone.utc))
print(dt.timedelta(days=1, seconds=3661, microseconds=5), dt.timedelta(hours=-1), dt.timedelta(weeks=2).total_seconds())
print(dt.date(2024, 1, 31) + dt.timedelta(days=30), (dt.date(2025, 1, 1) - dt.date(2024, 1, 1)).days)
print(dt.datetime.fromtimestamp(0, dt.timezone.utc), dt.datetime.fromtimestamp(1700000000, ZoneInfo("Asia/Tokyo")))
print(time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(1700000000)), time.gmtime(1700000000).tm_yday)
print(time.strftime("%Y", time.gmtime(0)), time.asctime(time.gmtime(86400 * 365)))
print(calendar.isleap(2024), [int(v) for v in calendar.monthrange(2024, 2)], int(calendar.weekday(2024, 1, 1)))
print(calendar.month(2024, 2))
print(calendar.timegm((2024, 1, 1, 0, 0, 0)))
print(dt.datetime(2024, 5, 17, 8, 5).strftime("%-d/%-m %e|%H"), format(dt.date(2020, 2, 2), "%d.%m.%Y"))
print(sorted(["2024-01-02", "2023-12-31"], key=dt.date.fromisoformat), dt.datetime.min, dt.date.max)
print(repr(dt.datetime(2020, 1, 1, tzinfo=ZoneInfo("Europe/London"))).replace("datetime.datetime", "dt"))
