# threading as scripts use it: workers with results, locks, events, queues, timers, daemon threads, executors.
import threading, queue, time, concurrent.futures as cf
results = []
lock = threading.Lock()
def worker(n):
    time.sleep(0.01 * (n % 3))
    with lock:
        results.append(n * n)
threads = [threading.Thread(target=worker, args=(i,), name=f"w{i}") for i in range(5)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(sorted(results), [t.is_alive() for t in threads], threads[0].name, threading.active_count())
q = queue.Queue()
out = []
def consumer():
    while True:
        item = q.get()
        if item is None:
            q.task_done()
            break
        out.append(item * 2)
        q.task_done()
c = threading.Thread(target=consumer)
c.start()
for i in range(5):
    q.put(i)
q.put(None)
q.join()
c.join()
print(out, q.empty(), q.qsize())
ev = threading.Event()
def waiter():
    ev.wait()
    print("event seen", ev.is_set())
w = threading.Thread(target=waiter)
w.start()
ev.set()
w.join()
tm = threading.Timer(0.05, lambda: print("timer fired"))
tm.start()
tm.join()
tm2 = threading.Timer(5, lambda: print("never"))
tm2.start(); tm2.cancel(); print("cancelled", tm2.finished.is_set())
with cf.ThreadPoolExecutor(max_workers=3) as ex:
    print(list(ex.map(lambda x: x + 1, range(5))))
    futs = [ex.submit(pow, 2, i) for i in range(4)]
    print([f.result() for f in futs], sorted(f.result() for f in cf.as_completed(futs)))
    bad = ex.submit(int, "x")
    try:
        bad.result()
    except ValueError as e:
        print("ValueError", e)
    print(bad.exception().__class__.__name__, bad.done())
local = threading.local()
def setlocal(v):
    local.v = v
    time.sleep(0.01)
    results.append(("local", local.v))
results.clear()
ts = [threading.Thread(target=setlocal, args=(i,)) for i in range(3)]
[t.start() for t in ts]; [t.join() for t in ts]
print(sorted(results), hasattr(local, "v"))
print(threading.current_thread().name, threading.main_thread() is threading.current_thread(), isinstance(threading.get_ident(), int))
r = threading.RLock()
with r:
    with r:
        print("rlock reentrant")
sem = threading.BoundedSemaphore(2)
sem.acquire(); sem.acquire(); print(sem.acquire(blocking=False)); sem.release(); sem.release()
try:
    sem.release()
except ValueError as e:
    print("ValueError", e)
cond = threading.Condition()
items = []
def produce():
    with cond:
        items.append(1)
        cond.notify()
def consume():
    with cond:
        cond.wait_for(lambda: items)
        print("consumed", items)
tc = threading.Thread(target=consume); tp = threading.Thread(target=produce)
tc.start(); tp.start(); tc.join(); tp.join()
b = threading.Barrier(2)
def at_barrier():
    b.wait()
    print("past barrier")
tb = threading.Thread(target=at_barrier); tb.start(); b.wait(); tb.join()
def fails():
    raise RuntimeError("thread error")
seen = []
threading.excepthook = lambda args: seen.append((args.exc_type.__name__, str(args.exc_value), args.thread.name))
tf = threading.Thread(target=fails, name="bad-thread")
tf.start(); tf.join()
print("after failing thread", seen)
d = threading.Thread(target=time.sleep, args=(0.01,), daemon=True)
d.start(); print(d.daemon, d.ident is not None)
d.join()
lk = threading.Lock()
print(lk.acquire(timeout=0.1), lk.acquire(timeout=0.05), lk.locked())
lk.release()
pq = queue.PriorityQueue(); [pq.put(x) for x in (3, 1, 2)]; print([pq.get() for _ in range(3)])
lq = queue.LifoQueue(); [lq.put(x) for x in (1, 2)]; print(lq.get())
try:
    queue.Queue().get(timeout=0.05)
except queue.Empty:
    print("Empty")
try:
    queue.Queue(1).put_nowait(1) or queue.Queue(maxsize=1).get_nowait()
except queue.Empty:
    print("Empty2")
