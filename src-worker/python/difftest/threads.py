# Threads as scripts use them: start/join, worker queues, events, pools.
import queue
import threading
from concurrent.futures import ThreadPoolExecutor, as_completed
from multiprocessing.pool import ThreadPool
from multiprocessing.dummy import Pool as DummyPool

threading.excepthook = lambda a: print("thread error:", a.exc_type.__name__, a.exc_value, a.thread.name)

results = {}
lock = threading.Lock()


def work(i):
    with lock:
        results[i] = i * i


ts = [threading.Thread(target=work, args=(i,)) for i in range(5)]
for t in ts:
    t.start()
for t in ts:
    t.join()
print(sorted(results.items()), [t.is_alive() for t in ts])

q = queue.Queue()
out = []


def worker():
    while True:
        item = q.get()
        out.append(item * 2)
        q.task_done()


for _ in range(3):
    threading.Thread(target=worker, daemon=True).start()
for i in range(10):
    q.put(i)
q.join()
print(sorted(out))

q2 = queue.Queue()
got = []


def consumer():
    while (x := q2.get()) is not None:
        got.append(x)


c = threading.Thread(target=consumer)
c.start()
for x in "abc":
    q2.put(x)
q2.put(None)
c.join()
print(got, c.is_alive())

ev = threading.Event()
threading.Thread(target=ev.set).start()
print("event", ev.wait(5))


class Named(threading.Thread):
    def run(self):
        print("in", threading.current_thread().name, self.name)


t = Named(name="custom")
t.start()
t.join()
print("main is", threading.current_thread().name, threading.current_thread() is threading.main_thread())


def boom():
    raise ValueError("bad thing")


t = threading.Thread(target=boom, name="B")
t.start()
t.join()
try:
    t.start()
except RuntimeError as e:
    print(e)
with ThreadPool(4) as p:
    print(p.map(lambda x: x + 1, range(5)), p.apply(pow, (2, 10)), p.apply_async(len, ("abc",)).get())
with DummyPool(2) as p:
    print(list(p.imap(str, range(3))), p.starmap(max, [(1, 2), (4, 3)]))
with ThreadPoolExecutor(max_workers=4) as ex:
    print(list(ex.map(lambda x: x * 3, range(4))))
    futs = [ex.submit(pow, 2, n) for n in range(5)]
    print(sorted(f.result() for f in as_completed(futs)))
sem = threading.Semaphore(2)
with sem:
    print("semaphore", sem._value)
cond = threading.Condition()
box = []


def producer():
    with cond:
        box.append(1)
        cond.notify()


threading.Thread(target=producer).start()
with cond:
    print("condition", cond.wait_for(lambda: box, timeout=5))
local = threading.local()
local.x = 1
print(local.x, threading.active_count() >= 1)
threading.Thread(target=print, args=("thread at exit",)).start()
