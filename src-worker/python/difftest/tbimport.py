# Tracebacks from the program's own modules, run as children: SyntaxError and IndentationError in an
# imported module, errors raised while importing, chained exceptions across modules, ImportError forms.
import os
import re
import subprocess
import sys
import tempfile

d = os.path.realpath(tempfile.mkdtemp())
files = {
    "badsyntax.py": "x = 1\ndef f(:\n    pass\n",
    "badindent.py": "def f():\nreturn 1\n",
    "unclosed.py": "data = [1, 2,\n    3\n",
    "tabs.py": "if True:\n\tx = 1\n        y = 2\n",
    "raising.py": "import helper\nVALUE = helper.compute()\n",
    "helper.py": "def compute():\n    return {}['missing']\n",
    "chain.py": "class ConfigError(Exception):\n    pass\n\ndef load(path):\n    try:\n        open(path)\n    except OSError as e:\n        raise ConfigError(f'cannot load {path}') from e\n",
    "implicit.py": "def parse(s):\n    try:\n        return int(s)\n    except ValueError:\n        return undefined_name\n",
    "pkg/__init__.py": "from .inner import thing\n",
    "pkg/inner.py": "thing = 1\nfrom .nothere import x\n",
    "circ_a.py": "import circ_b\nA = 1\n",
    "circ_b.py": "from circ_a import A\n",
    "badstr.py": "s = 'unterminated\n",
    "badeq.py": "if x = 1:\n    pass\n",
}
for name, src in files.items():
    os.makedirs(os.path.join(d, os.path.dirname(name)), exist_ok=True)
    with open(os.path.join(d, name), "w") as f:
        f.write(src)
mains = [
    "import badsyntax",
    "import badindent",
    "import unclosed",
    "import tabs",
    "import raising",
    "import chain\nchain.load('/nonexistent/cfg')",
    "import implicit\nimplicit.parse('x')",
    "import pkg",
    "import circ_a",
    "import notamodule",
    "from os import nothing",
    "from helper import nothing",
    "import badstr",
    "import badeq",
    "import importlib\ntry:\n    importlib.import_module('badsyntax')\nexcept SyntaxError as e:\n    print(type(e).__name__, e.msg, e.lineno, e.offset, os.path.basename(e.filename), repr(e.text))",
    "import traceback\ntry:\n    import raising\nexcept KeyError:\n    print(''.join(traceback.format_exc()).count('File'))",
    "exec(compile('a = (1,\\n', 'snippet', 'exec'))",
    "eval('1 +')",
]


def clean(text):
    out = []
    text = re.sub(r"\(/\S+/os\.py\)", "(OS)", text.replace(d, "D"))
    for l in text.splitlines():
        if not l.strip(" ~^"):
            continue
        out.append(l)
    return out


for src in mains:
    path = os.path.join(d, "main.py")
    with open(path, "w") as f:
        f.write("import os\n" + src + "\n")
    r = subprocess.run([sys.executable, path], capture_output=True, text=True, cwd=d, env={k: v for k, v in os.environ.items() if not k.startswith("PYTHON")})
    print("==", repr(src), r.returncode, repr(r.stdout))
    for l in clean(r.stderr):
        print("  " + l)
