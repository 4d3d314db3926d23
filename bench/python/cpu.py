# A CPU-bound pure-Python workload (no C extension does the work): recursion,
# integer and float arithmetic, dicts, strings, lists and classes. Prints the
# seconds the workload took (perf_counter, start-up excluded) and a checksum
# so the sandbox and the host are known to have done the same work.
import sys
import time


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def nbody(steps):
    bodies = [[0.0, 0.0, 0.0, 0.01, 0.02, 0.0, 1.0], [1.0, 0.0, 0.0, 0.0, 0.5, 0.0, 0.001],
              [0.0, 2.0, 0.0, -0.3, 0.0, 0.0, 0.002], [3.0, 0.0, 1.0, 0.0, 0.1, 0.2, 0.0005]]
    dt = 0.001
    for _ in range(steps):
        for i, a in enumerate(bodies):
            for b in bodies[i + 1:]:
                dx, dy, dz = a[0] - b[0], a[1] - b[1], a[2] - b[2]
                d2 = dx * dx + dy * dy + dz * dz + 0.01
                mag = dt / (d2 * d2 ** 0.5)
                a[3] -= dx * b[6] * mag; a[4] -= dy * b[6] * mag; a[5] -= dz * b[6] * mag
                b[3] += dx * a[6] * mag; b[4] += dy * a[6] * mag; b[5] += dz * a[6] * mag
        for body in bodies:
            body[0] += dt * body[3]; body[1] += dt * body[4]; body[2] += dt * body[5]
    return round(sum(b[0] + b[1] + b[2] for b in bodies), 6)


def words(n):
    counts = {}
    for i in range(n):
        w = "w" + str(i * 7919 % 1000)
        counts[w] = counts.get(w, 0) + 1
    text = " ".join(sorted(counts))
    return len(text) + sum(counts.values())


class Vec:
    __slots__ = ("x", "y")

    def __init__(self, x, y):
        self.x, self.y = x, y

    def __add__(self, o):
        return Vec(self.x + o.x, self.y + o.y)


def objects(n):
    v = Vec(0, 0)
    step = Vec(1, 2)
    for _ in range(n):
        v = v + step
    return v.x + v.y


def sieve(n):
    flags = [True] * (n + 1)
    for i in range(2, int(n ** 0.5) + 1):
        if flags[i]:
            flags[i * i::i] = [False] * len(range(i * i, n + 1, i))
    return sum(1 for i in range(2, n + 1) if flags[i])


scale = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
t0 = time.perf_counter()
check = (fib(int(24 + scale)), nbody(int(20000 * scale)), words(int(200000 * scale)),
         objects(int(300000 * scale)), sieve(int(300000 * scale)))
print(f"{time.perf_counter() - t0:.3f} {check}")
