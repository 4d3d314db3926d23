# Threads that loop with sleeps (heartbeats, pollers stopped by an Event), threading.local,
# Timer, executors with exceptions, a bounded producer/consumer queue.
import threading, time, queue
from concurrent.futures import ThreadPoolExecutor, as_completed
n = [0]
def beat():
    while True:
        n[0] += 1
        time.sleep(0.05)
t = threading.Thread(target=beat, daemon=True)
t.start()
time.sleep(0.3)
print("main done", n[0] > 2, t.is_alive())

stop = threading.Event()
ticks = []
def poller():
    while not stop.is_set():
        ticks.append(1)
        time.sleep(0.02)
p = threading.Thread(target=poller)
p.start()
time.sleep(0.2)
stop.set()
p.join()
print("joined", len(ticks) > 3, p.is_alive())

loc = threading.local()
loc.v = "main"
seen = []
def lw(i):
    seen.append(getattr(loc, "v", None))
    loc.v = i
    seen.append(loc.v)
ts = [threading.Thread(target=lw, args=(i,)) for i in range(3)]
for x in ts: x.start()
for x in ts: x.join()
print("local", seen, loc.v)

fired = []
tm = threading.Timer(0.1, lambda: fired.append("t1"))
tm.start()
tm2 = threading.Timer(0.1, lambda: fired.append("t2"))
tm2.start(); tm2.cancel()
tm.join(); tm2.join()
print("timers", fired)

def f(x):
    if x == 3:
        raise ValueError(f"bad {x}")
    return x * x
with ThreadPoolExecutor(max_workers=3) as ex:
    futs = {ex.submit(f, i): i for i in range(5)}
    res = []
    for fu in as_completed(futs):
        try:
            res.append(fu.result())
        except ValueError as e:
            res.append(str(e))
    print(sorted(map(str, res)))
    try:
        print(list(ex.map(f, range(5))))
    except ValueError as e:
        print("map raised", e)
    fu = ex.submit(f, 3)
    print("exception()", repr(fu.exception()))

q = queue.Queue(maxsize=2)
out = []
def producer():
    for i in range(6):
        q.put(i)
    q.put(None)
def consumer():
    while True:
        x = q.get()
        if x is None:
            q.task_done()
            break
        out.append(x)
        q.task_done()
a = threading.Thread(target=producer); b = threading.Thread(target=consumer)
a.start(); b.start(); a.join(); b.join()
print("pc", out)
try:
    q.get(timeout=0.05)
except queue.Empty:
    print("empty")
cv = threading.Condition()
items = []
def waiter():
    with cv:
        cv.wait_for(lambda: items)
        print("got", items)
w = threading.Thread(target=waiter); w.start()
with cv:
    items.append(1); cv.notify_all()
w.join()
b = threading.Barrier(1)
print("barrier", b.wait())
print(threading.Thread(target=lambda: 0).daemon, threading.current_thread().daemon)
def spin():
    while True:
        time.sleep(0.01)
threading.Thread(target=spin, daemon=True).start()
print("exit now")
