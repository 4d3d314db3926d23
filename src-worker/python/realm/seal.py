# Run once after Pyodide boots, before any user code: take away the bridge to
# JavaScript. The realm holds no host capability anyway (see docs/python.md);
# this is defence in depth, so `import js` fails as in CPython.
import sys
from _pyodide._importhook import jsfinder

jsfinder.jsproxies.clear()
sys.meta_path[:] = [f for f in sys.meta_path if f is not jsfinder]
for _name in ("js", "pyodide_js"):
    sys.modules.pop(_name, None)
del _name, jsfinder
