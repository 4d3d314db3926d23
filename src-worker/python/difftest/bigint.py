# Big integers: the int/str conversion digit limit (4300) in every direction, set_int_max_str_digits,
# -X int_max_str_digits and PYTHONINTMAXSTRDIGITS in children, bases that are exempt, big arithmetic.
import os
import subprocess
import sys

# sys.flags.int_max_str_digits is -1 by default in 3.11 and 4300 from 3.12 on.
print(sys.get_int_max_str_digits(), sys.int_info.default_max_str_digits, sys.int_info.str_digits_check_threshold)
big = 10**5000
for f in (str, repr, lambda n: f"{n}", lambda n: "%d" % n, lambda n: format(n, ","), lambda n: int("1" * 4301)):
    try:
        f(big)
        print("no error")
    except ValueError as e:
        print("ValueError", e)
print(len(hex(big)), len(bin(big)), len(oct(big)), int("f" * 5000, 16) > 0, big.bit_length(), len(str(10**4299)))
print(int("9" * 4300) > 0, len(str(-(10**4299))))
sys.set_int_max_str_digits(10000)
print(len(str(big)), sys.get_int_max_str_digits())
sys.set_int_max_str_digits(0)
print(len(str(10**20000)), sys.get_int_max_str_digits())
for bad in (100, -1):
    try:
        sys.set_int_max_str_digits(bad)
    except ValueError as e:
        print("ValueError", "640" in str(e))  # worded differently from 3.12 on
sys.set_int_max_str_digits(4300)
import json
import decimal

try:
    json.loads("1" * 5000)
except ValueError as e:
    print("json", e)
try:
    json.dumps(big)
except ValueError as e:
    print("json dumps", e)
print(len(str(decimal.Decimal(big))), int(decimal.Decimal("1e5000")).bit_length())
env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
code = "import sys; print(sys.get_int_max_str_digits(), sys.flags.int_max_str_digits, len(str(10**6000)))"
for args, extra in (([], {"PYTHONINTMAXSTRDIGITS": "7000"}), (["-X", "int_max_str_digits=0"], {}), (["-X", "int_max_str_digits=8000"], {"PYTHONINTMAXSTRDIGITS": "100"}), (["-I"], {"PYTHONINTMAXSTRDIGITS": "7000"})):
    r = subprocess.run([sys.executable] + args + ["-c", code], env=dict(env, **extra), capture_output=True, text=True)
    print(args, extra, r.returncode, r.stdout.strip(), r.stderr.strip().splitlines()[-1:] if r.stderr else "")
for args, extra in ((["-X", "int_max_str_digits=5"], {}), ([], {"PYTHONINTMAXSTRDIGITS": "abc"})):
    r = subprocess.run([sys.executable] + args + ["-c", "print(1)"], env=dict(env, **extra), capture_output=True, text=True)
    print(args, extra, r.returncode, r.stderr.strip().splitlines()[-1:])
f = 1
for i in range(1, 1001):
    f *= i
print(f.bit_length(), f % (10**9 + 7), len(str(f)), sum(int(c) for c in str(f)))
print(pow(3, 10**6, 10**9 + 7), pow(2, -1, 7), pow(12345678901234567890, 65537, 2**127 - 1))
print((2**521 - 1) % 1000003, (10**100) // 7 % 1000, divmod(-(10**30), 7), (-(10**30)) >> 3, (1 << 200) | 1, (10**50).to_bytes(21, "big").hex())
print(int.from_bytes(b"\xff" * 20, "little", signed=True), (-5).to_bytes(2, "big", signed=True), (255).to_bytes(), int("0b1010", 0), int("0o17", 0), int("1_000", 0), int("  42  "), int("z", 36))
try:
    (300).to_bytes(1, "big")
except OverflowError as e:
    print("OverflowError", e)
try:
    int("12a")
except ValueError as e:
    print(e)
try:
    float(10**400)
except OverflowError as e:
    print(e)
print(float(10**300), 10**400 / 10**399, 2**0.5, (10**20) ** 0.5, round(10**25, -20), abs(-(10**30)), math_isqrt := __import__("math").isqrt(10**40))
