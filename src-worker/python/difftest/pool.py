# concurrent.futures' thread pool as scripts use it (results, errors, map order, asyncio's executor).
import asyncio, concurrent.futures as cf, hashlib
def work(n):
    if n == 3:
        raise ValueError(f"bad {n}")
    return hashlib.sha1(str(n).encode()).hexdigest()[:8]
with cf.ThreadPoolExecutor(max_workers=4) as ex:
    futs = {ex.submit(work, n): n for n in range(5)}
    done = {}
    for f in cf.as_completed(futs):
        try:
            done[futs[f]] = f.result()
        except ValueError as e:
            done[futs[f]] = f"error: {e}"
    print(sorted(done.items()))
    print(list(ex.map(work, [0, 1, 2])))
    try:
        list(ex.map(work, [2, 3]))
    except ValueError as e:
        print("map raised", e)
    f = ex.submit(pow, 2, 10)
    print(f.result(timeout=5), f.done(), f.exception())
    r = cf.wait([ex.submit(abs, -1)], return_when=cf.ALL_COMPLETED)
    print(len(r.done), len(r.not_done))
try:
    ex.submit(abs, 1)
except RuntimeError as e:
    print("after shutdown", e)
try:
    cf.ThreadPoolExecutor(max_workers=0)
except ValueError as e:
    print(e)
async def main():
    loop = asyncio.get_running_loop()
    a = await loop.run_in_executor(None, work, 5)
    b = await asyncio.to_thread(work, 6)
    return a, b
print(asyncio.run(main()))
