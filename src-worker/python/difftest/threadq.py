# threading with queues as workers do it: task_done/join, priority and LIFO queues, Empty/Full,
# Condition.wait_for, Semaphore, results gathered by worker name, exceptions in threads.
import os
import queue
import threading
import time

q = queue.Queue()
results = {}
lock = threading.Lock()


def worker(n):
    while True:
        item = q.get()
        if item is None:
            q.task_done()
            break
        with lock:
            results[item] = item * item
        q.task_done()


threads = [threading.Thread(target=worker, args=(i,), name=f"w{i}") for i in range(4)]
for t in threads:
    t.start()
for i in range(20):
    q.put(i)
for _ in threads:
    q.put(None)
q.join()
for t in threads:
    t.join()
print(sorted(results.items())[:5], len(results), q.empty(), q.qsize(), [t.is_alive() for t in threads])
pq = queue.PriorityQueue()
for p, name in [(3, "low"), (1, "high"), (2, "mid"), (1, "also high")]:
    pq.put((p, name))
print([pq.get() for _ in range(4)])
lq = queue.LifoQueue()
for i in range(3):
    lq.put(i)
print([lq.get() for _ in range(3)])
try:
    queue.Queue().get_nowait()
except queue.Empty as e:
    print("Empty", repr(e))
bq = queue.Queue(maxsize=1)
bq.put(1)
try:
    bq.put_nowait(2)
except queue.Full as e:
    print("Full", repr(e), bq.full())
try:
    bq.put(3, timeout=0.1)
except queue.Full:
    print("put timeout Full")
try:
    queue.Queue().get(timeout=0.1)
except queue.Empty:
    print("get timeout Empty")
sq = queue.SimpleQueue()
sq.put("a")
print(sq.get(), sq.empty())
cond = threading.Condition()
state = {"ready": 0}


def producer():
    for _ in range(3):
        time.sleep(0.02)
        with cond:
            state["ready"] += 1
            cond.notify_all()


t = threading.Thread(target=producer)
t.start()
with cond:
    ok = cond.wait_for(lambda: state["ready"] >= 3, timeout=10)
t.join()
print("wait_for", ok, state)
sem = threading.BoundedSemaphore(2)
active = []
peak = []


def limited(i):
    with sem:
        active.append(i)
        peak.append(len(active))
        time.sleep(0.01)
        active.remove(i)


ts = [threading.Thread(target=limited, args=(i,)) for i in range(6)]
for t in ts:
    t.start()
for t in ts:
    t.join()
print("peak <= 2", max(peak) <= 2, len(peak))
try:
    sem.release()
except ValueError as e:
    print("ValueError", e)
errors = []
threading.excepthook = lambda args: errors.append((args.exc_type.__name__, str(args.exc_value), args.thread.name))
t = threading.Thread(target=lambda: 1 / 0, name="bad")
t.start()
t.join()
print(errors)
out = queue.Queue()


def fetch(url):
    time.sleep(0.01 * (3 - len(url) % 3))
    out.put((url, len(url)))


urls = ["a", "bb", "ccc", "dddd", "eeeee"]
ts = [threading.Thread(target=fetch, args=(u,), daemon=True) for u in urls]
for t in ts:
    t.start()
got = [out.get(timeout=5) for _ in urls]
print(sorted(got))
local = threading.local()
seen = []


def setlocal(v):
    local.v = v
    time.sleep(0.01)
    seen.append(local.v)


ts = [threading.Thread(target=setlocal, args=(i,)) for i in range(3)]
for t in ts:
    t.start()
for t in ts:
    t.join()
print(sorted(seen), hasattr(local, "v"))
ev = threading.Event()
t = threading.Timer(0.05, ev.set)
t.start()
print("timer fired", ev.wait(5), ev.is_set())
t = threading.Timer(10, print, args=("never",))
t.start()
t.cancel()
t.join()
print("cancelled", t.is_alive())
print(threading.current_thread().name, threading.main_thread() is threading.current_thread(), threading.active_count())
t = threading.Thread(target=time.sleep, args=(0.01,))
print(repr(t).startswith("<Thread(Thread-"), t.ident, t.daemon)
t.start()
t.join()
print(t.ident is not None, t.native_id is not None, t.is_alive(), threading.main_thread().native_id == os.getpid())
try:
    t.start()
except RuntimeError as e:
    print(e)
