# re: groups, flags, sub with functions and backrefs, split, errors with positions, unicode classes.
import re
print(re.findall(r"\d+", "a1b22c333"), re.findall(r"(\w)(\d)", "a1 b2"), re.findall(r"(?:x)(y)?", "x xy"))
m = re.search(r"(?P<y>\d{4})-(?P<m>\d\d)-(?P<d>\d\d)", "on 2024-03-15 ok")
print(m, m.group(), m.groups(), m.groupdict(), m.span("m"), m.start(), m.end(), m["y"], m.lastgroup, m.lastindex, m.re.pattern, m.string)
print(re.sub(r"(\w+)@(\w+)", r"\2 at \1", "me@host you@there"), re.sub(r"(?P<w>\w+)", r"<\g<w>>", "a b"), re.sub(r"x", lambda m: m.group().upper(), "axbx", count=1))
print(re.subn(r"\s+", " ", "a  b \t\n c"), re.sub("", "-", "abc"), re.sub(r"a|", "_", "bab"))
print(re.split(r"[,;]\s*", "a, b;c ,d"), re.split(r"(,)", "a,b"), re.split(r"\W+", "Words, words.", maxsplit=1), re.split(r"x*", "axbc"))
print(re.fullmatch(r"\w+", "abc"), re.fullmatch(r"\w+", "ab c"), re.match(r"a", "ba"), bool(re.search("^b", "a\nb", re.M)))
print(re.compile(r"a.b", re.S | re.I), re.compile(r"x", re.X | re.A), re.I, re.M | re.S, repr(re.compile("q").flags))
print([m.span() for m in re.finditer(r"a+", "aa baaa a")], re.escape("a.b*c?[d]-e f/g"), re.escape("é\t"))
print(re.findall(r"\bcat\b", "cat concat cat."), re.findall(r"(?<=\$)\d+", "$10 $20 30"), re.findall(r"(?<!\$)\b\d+", "$10 20"), re.findall(r"\w+(?=!)", "hi! no yes!"))
print(re.findall(r"\w+", "héllo wörld ñ 日本"), re.findall(r"\w+", "héllo", re.A), re.findall(r"[[:alpha:]]", "a") if False else "", re.findall(r"\d", "١٢3"))
print(re.sub(r"(?i)HELLO", "bye", "Hello hello"), re.findall(r"(a)(b)?", "a ab"), re.match(r"(a)|(b)", "b").groups(), re.match(r"(a)|(b)", "b").groups("-"))
print(re.sub(r"(\d)", r"\1\1", "a1b2"), re.sub(r"\d", "\\\\", "a1"), re.sub("a", r"\n", "bab"))
for bad in ["(", "a)", "[a-", "*a", "a{2,1}", r"\k", "(?P<1>x)", "(?P<a>x)(?P<a>y)", r"(?<=a+)b", "x**", "[z-a]", r"\1", "(?z)"]:
    try:
        re.compile(bad)
        print("compiled", bad)
    except re.error as e:
        print(repr(bad), "->", e.msg, e.pos, e.lineno, e.colno, "|", e)
try:
    re.sub(r"(a)", r"\2", "a")
except re.error as e:
    print("sub error", e)
try:
    re.sub(r"a", r"\g<nope>", "a")
except (re.error, IndexError) as e:
    print(type(e).__name__, e)
p = re.compile(r"""
    (?P<key>\w+)   # the key
    \s*=\s*
    (?P<val>[^;]*) # the value
""", re.VERBOSE)
print([m.groupdict() for m in p.finditer("a = 1; bb=two ;c= ")])
print(p.groups, sorted(p.groupindex.items()), p.pattern.count("\n"))
print(re.findall(r"^\s*#.*$", "x\n # c1\n#c2\ny", re.M), re.search(r"$", "ab\n").span(), re.findall(r".", "a\nb"), re.findall(r"(?s).", "a\nb"))
print(re.match(rb"\x00(.)", b"\x00\xff").group(1), re.findall(rb"\w+", b"ab \xe9"), re.sub(b"a", b"b", b"aa"))
try:
    re.search("a", b"a")
except TypeError as e:
    print("TypeError", e)
print(re.match(r"(?P<a>x)(?P=a)", "xx"), re.match(r"(x)\1", "xy"), re.search(r"(?i:A)b", "aB"), re.search(r"a{,2}", "aaa").group(), re.search(r"a{3}", "aa"))
m = re.match(r"(\w+) (\w+)", "Isaac Newton, physicist")
print(m.expand(r"\2, \1"), m.regs if hasattr(m, "regs") else "", m.pos, m.endpos)
print(re.sub(r"\s", "", " a b "), re.sub("(?m)^", "> ", "l1\nl2"), re.purge(), re.template if False else "")
print(re.findall(r"[\u4e00-\u9fff]+", "abc中文def"), re.findall(r"\N{GREEK SMALL LETTER ALPHA}", "αβ"), re.findall(r"[^\x00-\x7f]", "aéb"))
print(re.split(r"\b", "a b"), re.findall(r"(?<=a)(?=b)", "ab"), re.sub(r"(?=b)", "^", "abab"))
print(re.search(r"(\d+)(?!px)", "100px 200em").group(), re.match(r"(?>a+)b" if hasattr(re, "NOFLAG") else r"a+b", "aab"))
