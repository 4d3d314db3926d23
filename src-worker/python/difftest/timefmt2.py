# datetime and time formatting as scripts print them: strftime codes, local time from TZ, arithmetic, parsing errors.
import datetime as dt, time, os, calendar, email.utils
from zoneinfo import ZoneInfo
d = dt.datetime(2024, 2, 29, 13, 5, 9, 120000)
for code in "aAbBcdfHIjmMpSUwWxXyYzZ%GuVeCDFgRrTnt":
    print(code, repr(d.strftime("%" + code)))
print(d.isoformat(), d.isoformat(sep=" ", timespec="seconds"), d.date().isoformat(), d.time().isoformat(timespec="milliseconds"), str(d), d.ctime(), d.timetuple().tm_yday, d.isocalendar(), d.isoweekday())
print(d.replace(year=2023, day=28), d + dt.timedelta(days=365), d - dt.datetime(2000, 1, 1), (d - dt.datetime(2024, 1, 1)).days, dt.timedelta(hours=1.5) * 3, dt.timedelta(days=2) // dt.timedelta(hours=5), dt.timedelta(days=1) / 7, -dt.timedelta(minutes=90), abs(dt.timedelta(-1)))
print(dt.datetime.strptime("2024-02-29 13:05:09", "%Y-%m-%d %H:%M:%S"), dt.datetime.strptime("29/Feb/2024:13:05:09 +0100", "%d/%b/%Y:%H:%M:%S %z"), dt.datetime.strptime("Thu, 29 Feb 2024", "%a, %d %b %Y").date(), dt.datetime.strptime("1:05 PM", "%I:%M %p").time())
for bad, fmt in [("xx", "%Y"), ("2024-01-01 extra", "%Y-%m-%d"), ("25:00", "%H:%M")]:
    try:
        dt.datetime.strptime(bad, fmt)
    except ValueError as e:
        print("ValueError", e)
for bad in ["not a date", "2024-02-29T1"]:
    try:
        dt.datetime.fromisoformat(bad)
    except ValueError as e:
        print("ValueError", e)
try:
    dt.date(2023, 2, 29)
except ValueError as e:
    print("ValueError")
print(dt.datetime.fromisoformat("2024-02-29T13:05:09+05:30").utcoffset(), dt.datetime.fromisoformat("2024-02-29 13:05"), dt.date.fromordinal(738000), dt.date(2024, 1, 1).toordinal(), dt.datetime.combine(dt.date(2024, 1, 1), dt.time(8, 30)))
utc = dt.timezone.utc
t = dt.datetime(2024, 6, 15, 12, 0, tzinfo=utc)
print(t, t.timestamp(), t.astimezone(dt.timezone(dt.timedelta(hours=-4))), t.astimezone(ZoneInfo("Asia/Kolkata")), t.astimezone(ZoneInfo("Europe/Berlin")).strftime("%Z %z"), dt.datetime.fromtimestamp(1718452800, tz=utc), dt.datetime.utcfromtimestamp(0) if False else "")
print(dt.timezone(dt.timedelta(hours=5, minutes=30)), dt.timezone(dt.timedelta(0)), dt.timezone(-dt.timedelta(hours=8), "PST").tzname(None), repr(dt.timezone.utc))
for tz in ["UTC", "America/New_York", "Europe/London", "Australia/Sydney", "Asia/Tokyo", "EST5EDT", "UTC+3"]:
    os.environ["TZ"] = tz
    time.tzset()
    lt = time.localtime(1718452800)
    print(tz, time.strftime("%Y-%m-%d %H:%M:%S %Z %z", lt), lt.tm_isdst, lt.tm_gmtoff, lt.tm_zone, time.timezone, time.altzone, time.daylight, time.tzname)
    print(" ", dt.datetime.fromtimestamp(1718452800), dt.datetime.fromtimestamp(1704067200).strftime("%c %Z"), time.mktime(time.strptime("2024-01-01 00:00", "%Y-%m-%d %H:%M")), dt.datetime(2024, 1, 1).astimezone().isoformat())
os.environ["TZ"] = "UTC"
time.tzset()
print(time.strftime("%a %b %d %H:%M:%S %Y", time.gmtime(0)), time.asctime(time.gmtime(86400 * 366)), time.gmtime(1e9)[:6], time.strptime("2024 60", "%Y %j")[:3], calendar.timegm(time.gmtime(12345)), calendar.isleap(2100), tuple(map(int, calendar.monthrange(2024, 2))), calendar.day_name[0], calendar.month_abbr[12])
print(calendar.month(2024, 2))
print(calendar.TextCalendar(calendar.SUNDAY).formatmonth(2024, 3).splitlines()[1])
print(email.utils.formatdate(0, usegmt=True), email.utils.parsedate_to_datetime("Thu, 29 Feb 2024 13:05:09 +0000"), email.utils.format_datetime(t))
print(dt.date.today() > dt.date(2020, 1, 1), dt.datetime.now().year >= 2024, (dt.datetime.now(utc) - dt.datetime.now(utc)).total_seconds() < 1, dt.datetime.now().tzinfo)
print(dt.MINYEAR, dt.MAXYEAR, dt.timedelta.max, dt.timedelta.resolution, dt.time.max, dt.datetime(1, 1, 1).isoformat(), f"{d:%Y/%m/%d}", "{:%H:%M}".format(d))
