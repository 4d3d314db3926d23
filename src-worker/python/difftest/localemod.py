# locale as scripts touch it in the C locale: conventions, formatting helpers, collation, langinfo.
import locale
import os
import subprocess
import sys

for k in ("LANG", "LC_ALL", "LC_CTYPE", "LANGUAGE"):
    os.environ.pop(k, None)
print(locale.setlocale(locale.LC_ALL, "C"), locale.getlocale(), locale.localeconv()["decimal_point"], repr(locale.localeconv()["thousands_sep"]))
print(locale.format_string("%.2f", 1234567.891), locale.format_string("%d", 1234567, grouping=True), locale.currency(5, symbol=False, grouping=True) if locale.localeconv()["frac_digits"] != 127 else "no currency")
try:
    locale.currency(5)
except ValueError as e:
    print("currency", e)
print(locale.str(3.5), locale.atof("3.25"), locale.atoi("42"), locale.delocalize("1234.5"), locale.localize("1234.5"))
print(sorted(["b", "A", "a", "B", "\u00e9", "e"], key=locale.strxfrm), locale.strcoll("a", "b") < 0, locale.strcoll("b", "a") > 0)
print(sys.getfilesystemencoding(), sys.stdout.encoding, sys.flags.utf8_mode)
print(locale.normalize("en_US.utf8"), locale.normalize("fr_FR"), locale.normalize("de"))
print(locale.nl_langinfo(locale.D_FMT), locale.nl_langinfo(locale.RADIXCHAR), locale.nl_langinfo(locale.DAY_1), locale.nl_langinfo(locale.ABMON_1))
print(locale.LC_ALL, locale.LC_CTYPE, locale.LC_NUMERIC, locale.LC_TIME, locale.LC_COLLATE, locale.LC_MONETARY, locale.CHAR_MAX)
print(f"{1234567.891:n}", format(1234567, ","), "{:,.2f}".format(1234.5))
