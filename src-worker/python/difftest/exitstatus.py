# Exit statuses and stderr of uncaught exceptions, run as children.
import os, subprocess, sys
def run(src, input=None):
    p = subprocess.run([sys.executable, "-c", src], input=input, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr
print(run("import sys\ntry:\n    sys.exit(3)\nfinally:\n    print('finally')"))
print(run("import sys\ntry:\n    sys.exit(3)\nexcept SystemExit as e:\n    print('caught', e.code)"))
print(run("class E(Exception):\n    def __str__(self): return 'custom'\nraise E()")[0])
print(run("raise ValueError")[2].splitlines()[-1])
print(run("raise ValueError('')")[2].splitlines()[-1])
print(run("raise OSError('plain')")[2].splitlines()[-1])
print(run("open('/nonexistent/file')")[2].splitlines()[-1])
print(run("import os; os.listdir('/nonexistent')")[2].splitlines()[-1])
print(run("import os; os.mkdir('/tmp')")[2].splitlines()[-1])
print(run("open('/tmp')")[2].splitlines()[-1])
print(run("import os; os.rmdir('/nonexistent_dir_x')")[2].splitlines()[-1])
print(run("try:\n    1/0\nexcept ZeroDivisionError as e:\n    raise ValueError('wrapped') from e")[2].count("direct cause"))
print(run("try:\n    1/0\nexcept ZeroDivisionError:\n    raise ValueError('during')")[2].count("During handling"))
print(run("import sys; sys.stderr.write('err\\n'); sys.exit(0)"))
print(run("import sys; print(input('prompt> '))", input="typed\n"))
print(run("print(input())", input="")[2].splitlines()[-1])
print(run("import sys; sys.stdout.close()"))
print(run("import sys; print(sys.stdin.read().upper(), end='')", input="abc\ndef\n"))
