# concurrent.futures as scripts use it: as_completed by finishing time, map order, exceptions, wait, callbacks.
import concurrent.futures as cf, time
def task(name, delay):
    time.sleep(delay)
    return name
with cf.ThreadPoolExecutor(max_workers=4) as ex:
    futs = {ex.submit(task, n, d): n for n, d in [("slow", 0.4), ("fast", 0.05), ("mid", 0.2)]}
    print([f.result() for f in cf.as_completed(futs)], sorted(futs.values()))
    print(list(ex.map(task, ["a", "b", "c"], [0.2, 0.05, 0.1])))
with cf.ThreadPoolExecutor(max_workers=1) as ex:
    futs = [ex.submit(task, n, d) for n, d in [("first", 0.2), ("second", 0.05)]]
    print([f.result() for f in cf.as_completed(futs)])
with cf.ThreadPoolExecutor() as ex:
    futs = [ex.submit(task, str(i), 0.01) for i in range(5)]
    done, not_done = cf.wait(futs)
    print(len(done), len(not_done), sorted(f.result() for f in done))
    def boom():
        raise ValueError("task failed")
    f = ex.submit(boom)
    try:
        f.result()
    except ValueError as e:
        print("ValueError", e, f.exception() is not None)
    results = []
    g = ex.submit(task, "cb", 0.01)
    g.add_done_callback(lambda fut: results.append(fut.result()))
    g.result()
    print(results, g.done(), g.cancelled(), g.running())
    try:
        list(ex.map(lambda x: 1 / x, [1, 0, 2]))
    except ZeroDivisionError as e:
        print("ZeroDivisionError", e)
ex = cf.ThreadPoolExecutor(2)
ex.shutdown()
try:
    ex.submit(print, "no")
except RuntimeError as e:
    print("RuntimeError", e)
