# More thread shapes from scripts: Event.wait loops, join(timeout) on a busy thread, get(timeout) workers,
# threads still running at exit, RLock re-entry, Semaphore-limited workers, a Barrier of one.
import queue
import threading
import time

stop = threading.Event()
ticks = []


def ticker():
    while not stop.wait(0.05):
        ticks.append(time.monotonic())


t = threading.Thread(target=ticker, daemon=True)
t.start()
time.sleep(0.32)
stop.set()
t.join()
print("ticker", 3 <= len(ticks) <= 7, t.is_alive())

q = queue.Queue()
for i in range(5):
    q.put(i)
done = []


def drain():
    while True:
        try:
            item = q.get(timeout=0.1)
        except queue.Empty:
            return
        done.append(item)
        q.task_done()


ws = [threading.Thread(target=drain) for _ in range(2)]
for w in ws:
    w.start()
for w in ws:
    w.join()
print("drained", sorted(done), q.empty())

forever = threading.Thread(target=lambda: [time.sleep(0.05) for _ in iter(int, 1)], daemon=True)
forever.start()
forever.join(timeout=0.2)
print("join timeout", forever.is_alive())

rl = threading.RLock()
with rl:
    with rl:
        print("rlock reentered")
sem = threading.BoundedSemaphore(2)
active = []
peak = [0]


def limited(i):
    with sem:
        active.append(i)
        peak[0] = max(peak[0], len(active))
        time.sleep(0.01)
        active.remove(i)


ls = [threading.Thread(target=limited, args=(i,)) for i in range(5)]
for x in ls:
    x.start()
for x in ls:
    x.join()
print("semaphore peak <= 2", peak[0] <= 2)
try:
    sem.release()
except ValueError as e:
    print("bounded", e)
print(threading.Barrier(1).wait(), threading.get_ident() == threading.main_thread().ident)
res = []
late = threading.Thread(target=lambda: (time.sleep(0.05), res.append("late"), print("late thread done")))
late.start()
print("main ends first")
