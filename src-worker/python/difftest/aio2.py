# asyncio: gather order, sleeps, timeouts, cancellation, queues, tasks groups, subprocesses, wait_for, as_completed.
import asyncio, sys, time
async def work(name, delay, out):
    await asyncio.sleep(delay)
    out.append(name)
    return name.upper()
async def main():
    out = []
    res = await asyncio.gather(work("a", 0.3, out), work("b", 0.1, out), work("c", 0.2, out))
    print(res, out)
    try:
        await asyncio.wait_for(asyncio.sleep(5), timeout=0.2)
    except asyncio.TimeoutError as e:
        print("wait_for timeout", type(e).__name__, isinstance(e, TimeoutError))
    try:
        async with asyncio.timeout(0.1):
            await asyncio.sleep(2)
    except TimeoutError:
        print("timeout ctx")
    t = asyncio.create_task(asyncio.sleep(10))
    await asyncio.sleep(0)
    t.cancel()
    try:
        await t
    except asyncio.CancelledError:
        print("cancelled", t.cancelled(), t.done())
    order = []
    for f in asyncio.as_completed([work("x", 0.3, order), work("y", 0.1, order), work("z", 0.2, order)]):
        print("as_completed", await f)
    done, pending = await asyncio.wait([asyncio.create_task(work("p", 0.05, [])), asyncio.create_task(work("q", 1, []))], timeout=0.3)
    print(len(done), len(pending))
    for p in pending:
        p.cancel()
    q = asyncio.Queue()
    async def producer():
        for i in range(3):
            await q.put(i)
            await asyncio.sleep(0.01)
        await q.put(None)
    async def consumer():
        got = []
        while (item := await q.get()) is not None:
            got.append(item)
        return got
    print(await asyncio.gather(producer(), consumer()))
    async with asyncio.TaskGroup() as tg:
        t1 = tg.create_task(work("tg1", 0.1, []))
        t2 = tg.create_task(work("tg2", 0.05, []))
    print(t1.result(), t2.result())
    try:
        async with asyncio.TaskGroup() as tg:
            tg.create_task(work("ok", 0.05, []))
            tg.create_task(asyncio.sleep(0.01, result=None))
            async def boom():
                await asyncio.sleep(0.02)
                raise ValueError("boom")
            tg.create_task(boom())
    except* ValueError as eg:
        print("ExceptionGroup", [str(e) for e in eg.exceptions])
    r = await asyncio.gather(asyncio.sleep(0.01, "v"), asyncio.sleep(0.02), return_exceptions=True)
    print(r)
    async def fails():
        raise KeyError("k")
    print(await asyncio.gather(fails(), asyncio.sleep(0, 1), return_exceptions=True))
    proc = await asyncio.create_subprocess_exec("sh", "-c", "echo sub; echo err >&2; exit 3", stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await proc.communicate()
    print(out, err, proc.returncode)
    proc = await asyncio.create_subprocess_shell("cat", stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
    out, _ = await proc.communicate(b"piped")
    print(out, proc.returncode)
    proc = await asyncio.create_subprocess_exec("sh", "-c", "for i in 1 2 3; do echo line$i; sleep 0.05; done", stdout=asyncio.subprocess.PIPE)
    lines = []
    async for line in proc.stdout:
        lines.append(line)
    print(lines, await proc.wait())
    proc = await asyncio.create_subprocess_exec("sleep", "5")
    try:
        await asyncio.wait_for(proc.wait(), 0.2)
    except TimeoutError:
        proc.kill()
        print("killed", await proc.wait())
    loop = asyncio.get_running_loop()
    fut = loop.create_future()
    loop.call_later(0.05, fut.set_result, "fut done")
    print(await fut)
    print(await loop.run_in_executor(None, sum, [1, 2, 3]), await asyncio.to_thread(len, "abc"))
    ev = asyncio.Event()
    async def setter():
        await asyncio.sleep(0.05)
        ev.set()
    asyncio.create_task(setter())
    await ev.wait()
    print("event", ev.is_set())
    sem = asyncio.Semaphore(2)
    running = []
    async def limited(i):
        async with sem:
            running.append(i)
            await asyncio.sleep(0.01)
    await asyncio.gather(*(limited(i) for i in range(5)))
    print(sorted(running))
    lock = asyncio.Lock()
    async with lock:
        print("locked", lock.locked())
    print(asyncio.current_task().get_name() if False else "", type(asyncio.get_running_loop()).__name__ in ("_UnixSelectorEventLoop", "KernelEventLoop"))
t0 = time.monotonic()
asyncio.run(main())
print("elapsed ok", time.monotonic() - t0 < 5)
async def bad():
    raise RuntimeError("in coroutine")
try:
    asyncio.run(bad())
except RuntimeError as e:
    print("RuntimeError", e)
async def nested():
    return await asyncio.sleep(0, "n")
print(asyncio.run(nested()))
print(asyncio.run(asyncio.sleep(0.01, "x")))
with asyncio.Runner() as runner:
    print(runner.run(nested()))
async def forever():
    await asyncio.sleep(100)
try:
    asyncio.run(asyncio.wait_for(forever(), 0.1))
except TimeoutError:
    print("outer timeout")
