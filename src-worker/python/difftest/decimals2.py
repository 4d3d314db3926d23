# decimal and fractions as money and ratio code uses them: contexts, traps and signals, quantize errors,
# rounding modes, string forms, conversions, Fraction arithmetic and errors, mixed-type rules.
import decimal
import fractions
import math
from decimal import Decimal as D
from fractions import Fraction as F

ctx = decimal.getcontext()
print(ctx.prec, ctx.rounding, ctx.Emax, ctx.Emin, sorted(s.__name__ for s, on in ctx.traps.items() if on))
prices = [D("19.99"), D("5.01"), D("0.10")]
total = sum(prices)
tax = (total * D("0.0825")).quantize(D("0.01"), rounding=decimal.ROUND_HALF_UP)
print(total, tax, total + tax, f"{total + tax:,.2f}", f"{D('1234567.891'):>15,.2f}|", f"{D('0.5'):.0%}", f"{D('12.5'):e}")
for mode in ("ROUND_UP", "ROUND_DOWN", "ROUND_CEILING", "ROUND_FLOOR", "ROUND_HALF_UP", "ROUND_HALF_DOWN", "ROUND_HALF_EVEN", "ROUND_05UP"):
    r = getattr(decimal, mode)
    print(mode, [str(D(x).quantize(D("1"), rounding=r)) for x in ("2.5", "-2.5", "1.4", "-1.6", "0.5", "5.1")])
for expr in (lambda: D(1) / D(0), lambda: D(0) / D(0), lambda: D("abc"), lambda: D("1.23").quantize(D("1e-30")), lambda: D(-1).sqrt(), lambda: D("1e999999") * 10):
    try:
        print(expr())
    except decimal.DecimalException as e:
        print(type(e).__name__, [c.__name__ for c in type(e).__mro__ if c.__module__ == "decimal"][:3], e.args[0] if e.args and isinstance(e.args[0], str) else e.args)
with decimal.localcontext() as lc:
    lc.prec = 5
    lc.traps[decimal.DivisionByZero] = False
    lc.traps[decimal.InvalidOperation] = False
    print(D(1) / D(3), D(1) / D(0), D(-1) / D(0), D(0) / D(0), D(2).sqrt(), lc.flags[decimal.Inexact], lc.flags[decimal.DivisionByZero])
print(D(1) / D(3), decimal.getcontext().prec)
with decimal.localcontext(prec=50):
    print(D(2).sqrt(), D(1).exp(), D(10).ln(), D(100).log10())
print(D(0.1), D("0.1"), D(1.5), D.from_float(0.25), D("1.10") + D("2.205"), D("1e3"), D("1E+3") + 0, D("-0.00"), D("100").normalize(), D("1.500").normalize())
print(D("3.14159").as_tuple(), D("12.3400").to_integral_value(), D("7.5").to_integral_exact(), int(D("-7.9")), float(D("0.1")), D("1.5").as_integer_ratio())
print(D("1.1").compare(D("1.10")), D("1.1") == D("1.10"), D("2") > 1.5, D("0.1") == 0.1, hash(D("1.0")) == hash(1), D("nan").is_nan(), D("-inf").is_infinite(), D("1e-3").adjusted())
print(D("123.456").to_eng_string(), D("1.23E+7").to_eng_string(), str(D("0.000001")), str(D("0.0000001")), repr(D("5")), D("7") % D("3"), D("-7") % D("3"), D("-7") // D("3"), divmod(D("7.5"), 2))
try:
    D("1.1") + 1.1
except TypeError as e:
    print("TypeError", e)
print(D(5).max(D(3)), D("1.234").scaleb(2), D("9.99").next_toward(10), D(10).fma(2, 1), D("123").rotate(1), D("1.20").same_quantum(D("3.40")))
print(F(3, 4) + F(1, 6), F(1, 3) * 3, F(7, 2) // 1, F(-7, 2) % 3, F(2, 3) ** 2, F(4, 9) ** F(1, 2), F(1, 2) < F(2, 3), F(1, 2) == 0.5)
print(F("3.1415"), F("-1/3"), F(" 10/4 "), F(0.1), F(0.1).limit_denominator(100), F(D("0.25")), F(math.pi).limit_denominator(1000), F(22, 7).numerator, F(22, 7).denominator)
print(float(F(1, 3)), round(F(7, 2)), round(F(5, 2)), round(F(22, 7), 2), math.floor(F(-7, 2)), math.ceil(F(7, 2)), int(F(-7, 2)), F(3, 4).as_integer_ratio())
print(str(F(6, 4)), repr(F(6, 4)), F(5), F(5, 1) == 5, F(1, 3) + 1, F(1, 2) + 0.5, type(F(1, 2) + 0.5).__name__, sum([F(1, n) for n in range(1, 6)]))
for bad in (lambda: F(1, 0), lambda: F("abc"), lambda: F(1.5, 2), lambda: F(float("inf")), lambda: F(float("nan"))):
    try:
        print(bad())
    except (ZeroDivisionError, ValueError, TypeError, OverflowError) as e:
        print(type(e).__name__, e)
print(sorted([F(1, 3), 0.3, D("0.35"), 1, F(-1, 2)], key=float), max(F(1, 3), 0.3))
