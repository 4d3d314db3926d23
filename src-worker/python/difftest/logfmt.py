# logging formats and levels, warnings to stderr (stdout and stderr share one pipe here).
import logging
import os
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__)) + os.sep

sys.stderr = sys.stdout  # one ordered stream for the comparison
logging.basicConfig(level=logging.INFO, format="%(levelname)s:%(name)s:%(message)s", stream=sys.stdout)
log = logging.getLogger("app")
log.debug("hidden")
log.info("started %d workers", 3)
log.warning("disk at %s%%", 91)
logging.getLogger("app.db").error("query failed: %r", {"id": 1})
child = logging.getLogger("app.child")
child.setLevel(logging.WARNING)
child.info("not shown")
child.critical("shown")
h = logging.StreamHandler(sys.stdout)
class Relative(logging.Formatter):
    def formatException(self, ei):
        return super().formatException(ei).replace(HERE, "")


h.setFormatter(Relative("[%(levelname)-8s] %(name)s %(funcName)s:%(lineno)d %(message)s"))
other = logging.getLogger("other")
other.addHandler(h)
other.propagate = False
other.setLevel(logging.DEBUG)


def fn():
    other.debug("from fn")


fn()
try:
    1 / 0
except ZeroDivisionError:
    other.exception("failed")
print(logging.getLevelName(logging.WARNING), logging.getLevelName(15), logging.INFO)
adapter = logging.LoggerAdapter(log, {"extra": "x"})
adapter.info("adapted")
logging.getLogger().handlers[0].setFormatter(logging.Formatter("%(message)s|%(levelno)s"))
log.info("plain")
logging.disable(logging.CRITICAL)
log.critical("disabled")
logging.disable(logging.NOTSET)
show = warnings.showwarning
warnings.showwarning = lambda m, c, f, l, file=None, line=None: show(m, c, os.path.basename(f), l, file, line)
warnings.warn("old api", DeprecationWarning)
warnings.simplefilter("always")
warnings.warn("careful")
warnings.warn("dep", DeprecationWarning, stacklevel=1)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    warnings.warn("recorded", UserWarning)
print([str(w.message) for w in caught], caught[0].category.__name__)
warnings.filterwarnings("error", category=RuntimeWarning)
try:
    warnings.warn("now an error", RuntimeWarning)
except RuntimeWarning as e:
    print("raised", e)
print(warnings.formatwarning("msg", UserWarning, "f.py", 3), end="")
logging.shutdown()
