# asyncio as scripts use it: run, sleep, gather, tasks, queues, timeouts, subprocesses, streams over pipes.
import asyncio, hashlib, os, signal, sys, time
async def worker(name, q, out):
    while True:
        item = await q.get()
        if item is None:
            q.task_done()
            return
        await asyncio.sleep(0.01 * item)
        out.append((name, item))
        q.task_done()
async def main():
    t = time.monotonic()
    r = await asyncio.gather(*(asyncio.sleep(0.05, result=i) for i in range(5)))
    print("gather", r, time.monotonic() - t < 2)
    q, out = asyncio.Queue(), []
    ws = [asyncio.create_task(worker(f"w{i}", q, out)) for i in range(2)]
    for i in [3, 1, 2]:
        await q.put(i)
    for _ in ws:
        await q.put(None)
    await q.join()
    await asyncio.gather(*ws)
    print("queue", sorted(i for _, i in out))
    try:
        await asyncio.wait_for(asyncio.sleep(10), timeout=0.1)
    except TimeoutError:
        print("wait_for timed out")
    async def slow():
        try:
            await asyncio.sleep(10)
        except asyncio.CancelledError:
            print("cancelled")
            raise
    task = asyncio.create_task(slow())
    await asyncio.sleep(0)
    task.cancel()
    try:
        await task
    except asyncio.CancelledError:
        print("task cancelled", task.cancelled())
    async with asyncio.timeout(0.1):
        await asyncio.sleep(0.01)
    done, pending = await asyncio.wait([asyncio.create_task(asyncio.sleep(0.01, "x"))], timeout=5)
    print("wait", [d.result() for d in done], pending)
    p = await asyncio.create_subprocess_exec("sh", "-c", "read x; echo got $x; echo err >&2; exit 3",
                                             stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await p.communicate(b"data\n")
    print("subprocess", out, err, p.returncode)
    p = await asyncio.create_subprocess_shell("echo one; sleep 0.1; echo two", stdout=asyncio.subprocess.PIPE)
    lines = [line async for line in p.stdout]
    print("lines", lines, await p.wait())
    loop = asyncio.get_running_loop()
    fut = loop.create_future()
    loop.call_later(0.05, fut.set_result, "later")
    print(await fut, await loop.run_in_executor(None, sum, [1, 2, 3]) if False else "no executor")
    got = []
    loop.add_signal_handler(signal.SIGUSR1, got.append, "usr1")
    os.kill(os.getpid(), signal.SIGUSR1)
    await asyncio.sleep(0.05)
    print("signal", got, loop.remove_signal_handler(signal.SIGUSR1))
    return "done"
print(asyncio.run(main()))
async def boom():
    await asyncio.sleep(0)
    raise ValueError("inside")
try:
    asyncio.run(boom())
except ValueError as e:
    print("raised", e)
loop = asyncio.new_event_loop()
print(loop.run_until_complete(asyncio.sleep(0.01, "ruc")))
loop.close()
try:
    asyncio.get_running_loop()
except RuntimeError as e:
    print("no loop", e)
print(hashlib.pbkdf2_hmac("sha256", b"password", b"salt", 1000).hex())
print(hashlib.pbkdf2_hmac("sha1", b"pw", b"NaCl", 2, 40).hex(), hashlib.pbkdf2_hmac("sha512", memoryview(b"p"), bytearray(b"s"), 5, 10).hex())
