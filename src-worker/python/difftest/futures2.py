# concurrent.futures as agents parallelise work: thread pools over files and subprocesses, timeouts,
# cancellation, shutdown, exceptions with tracebacks, and ProcessPoolExecutor.
import concurrent.futures as cf
import os
import subprocess
import tempfile
import time

d = tempfile.mkdtemp()
for i in range(8):
    with open(os.path.join(d, f"f{i}.txt"), "w") as f:
        f.write("word " * (i + 1))


def count(path):
    with open(path) as f:
        return os.path.basename(path), len(f.read().split())


with cf.ThreadPoolExecutor(max_workers=4) as ex:
    paths = sorted(os.path.join(d, n) for n in os.listdir(d))
    print(list(ex.map(count, paths)))
    futs = {ex.submit(count, p): p for p in paths}
    print(sorted(f.result() for f in cf.as_completed(futs)))


def run(cmd):
    return subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout.strip()


with cf.ThreadPoolExecutor(4) as ex:
    print(list(ex.map(run, ["echo a", "echo b; echo c", "printf x", "expr 6 \\* 7"])))


def fail(x):
    if x == 2:
        raise ValueError(f"bad {x}")
    return x


with cf.ThreadPoolExecutor(2) as ex:
    futs = [ex.submit(fail, i) for i in range(4)]
    for f in futs:
        try:
            print(f.result())
        except ValueError as e:
            print("error", e, type(f.exception()).__name__)
    try:
        list(ex.map(fail, range(4)))
    except ValueError as e:
        print("map raised", e)
with cf.ThreadPoolExecutor(1) as ex:
    slow = ex.submit(time.sleep, 0.2)
    print("result in time", slow.result(timeout=30))
    done, not_done = cf.wait([slow], timeout=5)
    print(len(done), len(not_done))
ex = cf.ThreadPoolExecutor(1)
f = ex.submit(lambda: 5)
ex.shutdown(wait=True)
print(f.result(), f.done(), f.running(), f.cancelled())
try:
    ex.submit(print, "x")
except RuntimeError as e:
    print("RuntimeError", e)
f = cf.Future()
f.set_result(3)
print(f.result(), repr(f).split(" ")[3:])
f.add_done_callback(lambda fut: print("callback", fut.result()))
fs = [cf.Future() for _ in range(2)]
fs[1].set_exception(KeyError("k"))
done, pending = cf.wait(fs, timeout=0, return_when=cf.FIRST_EXCEPTION)
print(len(done), len(pending))
with cf.ThreadPoolExecutor(thread_name_prefix="job") as ex:
    import threading
    print(ex.submit(lambda: threading.current_thread().name).result(), threading.current_thread().name)
with cf.ThreadPoolExecutor(2) as ex:
    print(sorted(set(ex.map(lambda _: threading.current_thread().name.split("-")[0], range(4)))))


def square(x):
    return x * x


def mutate(lst):
    lst.append(1)
    return len(lst)


def boom(x):
    raise ValueError(f"worker {x}")


if __name__ == "__main__":
    try:
        with cf.ProcessPoolExecutor(2) as pex:
            print("process pool", list(pex.map(square, range(6))), pex.submit(square, 9).result())
            print(list(pex.map(square, range(10), chunksize=3)), sorted(f.result() for f in cf.as_completed([pex.submit(square, i) for i in range(5)])))
            data = [0]
            print("argument copied", pex.submit(mutate, data).result(), data)
            try:
                pex.submit(boom, 3).result()
            except ValueError as e:
                print("worker error", e, type(e.__cause__).__name__, "boom" in str(e.__cause__))
            f = pex.submit(lambda: 1)
            try:
                f.result()
            except Exception as e:
                print("lambda", type(e).__name__)
            try:
                list(pex.map(square, [1], chunksize=0))
            except ValueError as e:
                print(e)
        try:
            cf.ProcessPoolExecutor(0)
        except ValueError as e:
            print(e)
    except Exception as e:
        print("process pool failed", type(e).__name__, e)
