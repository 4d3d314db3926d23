"""Doc of main."""
import sys, os
print(sorted(k for k in globals() if k.startswith("__") and k != "__annotations__"), type(__builtins__).__name__, __spec__, __package__, __doc__, type(__loader__).__name__)
print(sys.modules["__main__"].__dict__ is globals(), __file__ == os.path.abspath(sys.argv[0]), __cached__)
import pickle
class P:
    def __init__(self, v): self.v = v
print(pickle.loads(pickle.dumps(P(3))).v, P.__module__, repr(P)[:17])
def f(): pass
print(f.__module__, f.__qualname__, __name__)
import warnings
warnings.simplefilter("error")
try:
    warnings.warn("careful")
except UserWarning as w:
    print("warning", w)
print(sys.flags.optimize, __debug__)
assert True
import inspect
print(os.path.basename(inspect.getfile(f)), inspect.getsource(f).strip())
