# datetime with zoneinfo and tzdata: DST transitions, fold, gaps, conversions, ISO parsing, errors.
import datetime as dt
import zoneinfo
from zoneinfo import ZoneInfo

ny = ZoneInfo("America/New_York")
paris = ZoneInfo("Europe/Paris")
utc = dt.timezone.utc
for z in ("America/New_York", "Europe/London", "Asia/Kolkata", "Australia/Lord_Howe", "Asia/Kathmandu", "Pacific/Chatham", "UTC", "Etc/GMT+5", "America/St_Johns"):
    zi = ZoneInfo(z)
    w = dt.datetime(2024, 1, 15, 12, tzinfo=zi)
    s = dt.datetime(2024, 7, 15, 12, tzinfo=zi)
    print(z, w.utcoffset(), w.tzname(), s.utcoffset(), s.tzname(), s.dst(), repr(zi), str(zi))
print(ZoneInfo("Europe/Paris") is paris, ZoneInfo.no_cache("Europe/Paris") is paris, paris.key)
amb = dt.datetime(2024, 11, 3, 1, 30, tzinfo=ny)
print(amb, amb.fold, amb.replace(fold=1), amb.astimezone(utc), amb.replace(fold=1).astimezone(utc))
gap = dt.datetime(2024, 3, 10, 2, 30, tzinfo=ny)
print(gap, gap.astimezone(utc), gap.replace(fold=1).astimezone(utc))
t = dt.datetime(2024, 3, 10, 6, 0, tzinfo=utc)
for i in range(4):
    x = (t + dt.timedelta(minutes=30 * i)).astimezone(ny)
    print(x.isoformat(), x.tzname(), x.fold)
t = dt.datetime(2024, 11, 3, 5, 0, tzinfo=utc)
for i in range(4):
    x = (t + dt.timedelta(minutes=30 * i)).astimezone(ny)
    print(x.isoformat(), x.tzname(), x.fold)
a = dt.datetime(2024, 3, 9, 12, tzinfo=ny)
b = a + dt.timedelta(days=1)
print("wall add", b, b - a, b.astimezone(utc) - a.astimezone(utc))
m = dt.datetime(2024, 6, 1, 9, tzinfo=ny)
print(m.astimezone(paris), m.astimezone(ZoneInfo("Asia/Tokyo")).strftime("%Y-%m-%d %H:%M %Z %z"), m.timestamp())
print(dt.datetime.fromtimestamp(0, tz=ny), dt.datetime.fromtimestamp(1_700_000_000, tz=paris).isoformat())
print(dt.datetime(1900, 1, 1, tzinfo=paris).utcoffset(), dt.datetime(2100, 7, 1, tzinfo=paris).tzname(), dt.datetime(1970, 1, 1, tzinfo=ZoneInfo("Europe/London")).utcoffset())
for s in ("2024-05-06T07:08:09+02:00", "2024-05-06 07:08:09.123456", "2024-05-06", "2024-05-06T07:08:09.5-05:30"):
    x = dt.datetime.fromisoformat(s)
    print(s, "->", repr(x), x.tzinfo)
print(dt.date.fromisoformat("2024-02-29"), dt.time.fromisoformat("12:34:56.789"), dt.datetime.strptime("2024-05-06 07:08 +0530", "%Y-%m-%d %H:%M %z"))
for bad in ("2024-13-01", "not a date", "2024-02-30"):
    try:
        dt.datetime.fromisoformat(bad)
    except ValueError as e:
        print("ValueError", str(e).split()[0])  # 3.14 words these with the values
try:
    dt.datetime.strptime("2024/05/06", "%Y-%m-%d")
except ValueError as e:
    print(e)
try:
    ZoneInfo("Mars/Olympus")
except zoneinfo.ZoneInfoNotFoundError as e:
    print(type(e).__name__, e)
for bad in ("../etc/passwd", "/abs", ""):
    try:
        ZoneInfo(bad)
    except (ValueError, zoneinfo.ZoneInfoNotFoundError) as e:
        print(type(e).__name__, e)
av = zoneinfo.available_timezones()
print(len(av) > 400, "Europe/Paris" in av, "America/New_York" in av, "posixrules" in av)
naive = dt.datetime(2024, 1, 1, 12)
aware = naive.replace(tzinfo=utc)
try:
    naive < aware
except TypeError as e:
    print(e)
try:
    aware - naive
except TypeError as e:
    print(e)
print(aware == naive, dt.datetime(2024, 1, 1, 12, tzinfo=paris) == dt.datetime(2024, 1, 1, 11, tzinfo=utc))
print(dt.timezone(dt.timedelta(hours=5, minutes=30)), dt.timezone(-dt.timedelta(hours=3), "BRT"), dt.timezone.min, dt.timezone.max)
print(sorted([dt.datetime(2024, 1, 1, 12, tzinfo=ny), dt.datetime(2024, 1, 1, 12, tzinfo=paris), dt.datetime(2024, 1, 1, 12, tzinfo=utc)]))
print(dt.datetime(2024, 7, 4, 15, 30, tzinfo=ny).strftime("%A %d %B %Y %I:%M %p %Z (%z) week %U/%W/%V day %j"))
