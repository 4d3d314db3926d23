# logging to files as agents set it up: FileHandler modes and encodings, RotatingFileHandler rollover,
# dictConfig, record fields (process, filename, lineno, funcName), exceptions, shutdown flushing.
import logging
import logging.config
import logging.handlers
import os
import tempfile
import time

d = tempfile.mkdtemp()
os.chdir(d)
log = logging.getLogger("app")
log.setLevel(logging.DEBUG)
fh = logging.FileHandler("app.log", mode="w", encoding="utf-8")
fh.setFormatter(logging.Formatter("%(levelname)-8s %(name)s %(filename)s:%(funcName)s %(message)s"))
fh.setLevel(logging.INFO)
log.addHandler(fh)


def work():
    log.debug("hidden")
    log.info("started \u2713 %d items", 3)
    log.warning("careful: %s", {"k": [1, 2]})
    try:
        1 / 0
    except ZeroDivisionError:
        log.exception("failed")
    log.error("with stack", stack_info=False)


work()
fh.flush()
text = open("app.log", encoding="utf-8").read()
print("\n".join(l for l in text.splitlines() if not l.startswith("  File") and "^" not in l and "~" not in l))
fmt = logging.Formatter("%(process)d %(processName)s %(threadName)s %(lineno)d %(module)s %(pathname)s")
rec = log.makeRecord("app", logging.INFO, "/x/y.py", 42, "m", (), None, func="f")
out = fmt.format(rec)
print(out.split()[0] == str(os.getpid()), out.split()[1:])
fmt2 = logging.Formatter("%(asctime)s|%(msecs)03d|%(message)s", datefmt="%Y-%m-%d %H:%M:%S")
fmt2.converter = time.gmtime
rec.created = 1_700_000_000.25
rec.msecs = 250.0
print(fmt2.format(rec))
print(logging.Formatter("{levelname}:{message}", style="{").format(rec), logging.Formatter("$levelname $message", style="$").format(rec))
log.removeHandler(fh)
fh.close()
rh = logging.handlers.RotatingFileHandler("rot.log", maxBytes=60, backupCount=2)
rh.setFormatter(logging.Formatter("%(message)s"))
r = logging.getLogger("rot")
r.propagate = False
r.addHandler(rh)
for i in range(12):
    r.warning("message number %02d", i)
rh.close()
for n in sorted(os.listdir(".")):
    if n.startswith("rot"):
        print(n, open(n).read().split())
logging.config.dictConfig({
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"short": {"format": "[%(levelname)s] %(name)s: %(message)s"}},
    "handlers": {
        "file": {"class": "logging.FileHandler", "filename": "dict.log", "mode": "w", "formatter": "short", "level": "DEBUG"},
        "err": {"class": "logging.StreamHandler", "stream": "ext://sys.stdout", "formatter": "short", "level": "ERROR"},
    },
    "loggers": {"svc": {"handlers": ["file", "err"], "level": "DEBUG", "propagate": False}},
})
s = logging.getLogger("svc.db")
s.debug("connect")
s.error("lost connection")
logging.getLogger("svc").info("parent")
logging.shutdown()
print(open("dict.log").read(), end="")
logging.basicConfig(filename="basic.log", filemode="w", level=logging.INFO, format="%(levelname)s:%(name)s:%(message)s", force=True)
logging.info("root info")
logging.getLogger("x.y").warning("child %s", "warn")
logging.debug("not shown")
logging.getLogger().handlers[0].flush()
print(open("basic.log").read(), end="")
logging.basicConfig(level=logging.DEBUG)
print("basicConfig again is a no-op", logging.getLogger().level == logging.INFO)
print(logging.getLevelName(15), logging.getLevelName("WARNING"), logging.getLevelName(logging.CRITICAL))
logging.addLevelName(15, "VERBOSE")
logging.log(15, "custom level dropped")
logging.getLogger().setLevel(10)
logging.log(15, "custom level kept")
logging.getLogger().handlers[0].flush()
print(open("basic.log").read().splitlines()[-1])
try:
    logging.FileHandler(os.path.join(d, "nodir", "x.log"))
except FileNotFoundError as e:
    print("FileHandler", e.errno, e.strerror)
w = logging.handlers.WatchedFileHandler("w.log")
wl = logging.getLogger("w")
wl.addHandler(w)
wl.propagate = False
wl.warning("one")
os.rename("w.log", "w.log.1")
wl.warning("two")
w.close()
print(open("w.log.1").read().split(), open("w.log").read().split())
dh = logging.FileHandler("delayed.log", delay=True)
print("delay", os.path.exists("delayed.log"))
dl = logging.getLogger("d")
dl.addHandler(dh)
dl.warning("now")
print("delay", os.path.exists("delayed.log"))
