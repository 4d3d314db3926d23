# asyncio with subprocesses and time as agents script tools: create_subprocess_exec/shell, streaming
# lines, stdin writes with drain, wait_for timeouts and kills, gather of commands, to_thread, timeouts.
import asyncio
import sys
import time


async def run(cmd):
    p = await asyncio.create_subprocess_shell(cmd, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await p.communicate()
    return cmd, p.returncode, out.decode(), err.decode()


async def main():
    print(await asyncio.gather(run("echo one"), run("echo two >&2; exit 3"), run("sleep 0.1; echo three")))
    p = await asyncio.create_subprocess_exec("sh", "-c", "for i in 1 2 3; do echo tick $i; sleep 0.05; done", stdout=asyncio.subprocess.PIPE)
    async for line in p.stdout:
        print("line", line.decode().strip())
    print("rc", await p.wait())
    p = await asyncio.create_subprocess_exec("cat", stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
    for i in range(3):
        p.stdin.write(f"in {i}\n".encode())
        await p.stdin.drain()
    p.stdin.close()
    print(await p.stdout.read(), await p.wait())
    p = await asyncio.create_subprocess_exec("sleep", "10")
    try:
        await asyncio.wait_for(p.wait(), 0.3)
    except asyncio.TimeoutError:
        print("wait_for timed out")
        p.kill()
        print("killed rc", await p.wait())
    p = await asyncio.create_subprocess_exec(sys.executable, "-c", "import sys; print(sys.stdin.read().upper())", stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
    out, _ = await p.communicate(b"hello from asyncio")
    print(out, p.returncode)
    p = await asyncio.create_subprocess_exec("sh", "-c", "echo out; echo err >&2", stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    print(sorted((await p.stdout.read()).split()), await p.wait())
    try:
        await asyncio.create_subprocess_exec("no-such-command-xyz")
    except FileNotFoundError as e:
        print("FileNotFoundError", e.errno, e.strerror)
    p = await asyncio.create_subprocess_exec("sh", "-c", "exit 7")
    print("exit", await p.wait(), p.returncode)
    p = await asyncio.create_subprocess_exec("sleep", "10")
    p.terminate()
    print("terminated", await p.wait())
    t0 = time.monotonic()
    order = []

    async def napper(n, s):
        await asyncio.sleep(s)
        order.append(n)
        return n

    print(await asyncio.gather(napper("a", 0.2), napper("b", 0.1), napper("c", 0)), order)
    print("slept in parallel", time.monotonic() - t0 < 2)
    print(await asyncio.to_thread(sum, [1, 2, 3]))
    try:
        async with asyncio.timeout(0.1):
            await asyncio.sleep(5)
    except TimeoutError:
        print("asyncio.timeout")
    res = await asyncio.gather(napper("x", 0), asyncio.sleep(0, "val"), run("exit 1"), return_exceptions=True)
    print(res[:2], res[2][1])
    q = asyncio.Queue()

    async def prod():
        for i in range(3):
            await q.put(i)
            await asyncio.sleep(0.01)
        await q.put(None)

    async def cons():
        got = []
        while (x := await q.get()) is not None:
            got.append(x)
        return got

    print(await asyncio.gather(prod(), cons()))
    loop = asyncio.get_running_loop()
    r = await loop.run_in_executor(None, lambda: "from executor")
    print(r)
    fut = loop.create_future()
    loop.call_later(0.05, fut.set_result, "later")
    print(await fut)
    task = asyncio.create_task(asyncio.sleep(10))
    await asyncio.sleep(0)
    task.cancel()
    try:
        await task
    except asyncio.CancelledError:
        print("cancelled", task.cancelled())
    async with asyncio.TaskGroup() as tg:
        t1 = tg.create_task(napper("tg1", 0.01))
        t2 = tg.create_task(run("echo tg"))
    print(t1.result(), t2.result()[2].strip())
    try:
        async with asyncio.TaskGroup() as tg:
            tg.create_task(napper("ok", 0.01))
            tg.create_task(run("exit 2"))
            tg.create_task(asyncio.sleep(0.01, result=1 / 1))
            raise ValueError("in body")
    except* ValueError as eg:
        print("TaskGroup", [str(e) for e in eg.exceptions])


asyncio.run(main())
print(asyncio.run(asyncio.sleep(0, "done")))
