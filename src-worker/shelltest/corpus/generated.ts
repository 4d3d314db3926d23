/**
 * Generated cases, by area id (see index.ts): one check applied to every
 * operator, option, test or operand the manual lists, so each appears in
 * the corpus without a hand-written line apiece.
 */
import { combos, err, type CaseSpec } from './case.js';

const show = 'printf "[%s]" ';

/** 3.5.3: the `-`, `=`, `?`, `+` family, with and without `:`, on every kind of subject. */
function defaultOperators(): CaseSpec[] {
  const states: [string, string][] = [
    ['unset v', 'v'],
    ['v=', 'v'],
    ["v='x y'", 'v'],
    ['a=()', 'a[@]'],
    ["a=('')", 'a[@]'],
    ["a=(x 'y z')", 'a[@]'],
    ['set --', '@'],
    ["set -- ''", '@'],
    ["set -- x 'y z'", '@'],
    ["set -- x 'y z'", '*'],
    ['a=(x y)', 'a[1]'],
    ['a=(x y)', 'a[5]'],
  ];
  const ops = ['-', ':-', '=', ':=', '+', ':+', '?', ':?'];
  const out: CaseSpec[] = [];
  for (const [setup, name] of states)
    for (const op of ops) {
      const word = op.includes('?') ? 'msg' : "'w 1'";
      out.push(err(`${setup}; ${show}"\${${name}${op}${word}}"; echo " $?"`));
      out.push(err(`${setup}; ${show}\${${name}${op}${word}}; echo " $?"`));
    }
  return out;
}

/** 3.5.3: the pattern, case, substring and transformation operators on each subject. */
function stringOperators(): CaseSpec[] {
  const ops = [
    '#a*',
    '##a*',
    '#*b',
    '##*b',
    '%b*',
    '%%b*',
    '%*c',
    '%%*c',
    '#',
    '%',
    '/a/X',
    '//a/X',
    '/#a/X',
    '/%c/X',
    '/a',
    '//a/',
    '//[ab]/-',
    '/*/X',
    '//?/.',
    '/#/X',
    '//a/<&>',
    '//a/\\&',
    '/a/"&"',
    '^',
    '^^',
    ',',
    ',,',
    '~',
    '~~',
    '^^[ab]',
    ',,[AB]',
    ':1',
    ':1:2',
    ': -2',
    ':0:-1',
    ':5',
    ':1:0',
    ':(-1)',
    ':-1',
    '@Q',
    '@E',
    '@U',
    '@u',
    '@L',
    '@a',
    '@A',
    '@K',
  ];
  const subjects: [string, string][] = [
    ["v='abcab\\tcb'", 'v'],
    ['v=aBcAbC', 'v'],
    ['a=(abc Bab cab)', 'a[@]'],
    ['a=(abc Bab cab)', 'a[1]'],
    ['set -- abc Bab cab', '@'],
    ['set -- abc Bab cab', '*'],
  ];
  const out: CaseSpec[] = [];
  for (const [setup, name] of subjects)
    for (const op of ops) out.push(err(`${setup}; ${show}"\${${name}${op}}"; echo`));
  // Lengths and indirection.
  for (const e of [
    '${#v}',
    '${#a[@]}',
    '${#a[1]}',
    '${#a}',
    '${#@}',
    '${!a[@]}',
    '${!a[*]}',
    '${!v*}',
    '${!v@}',
    '${!b}',
  ])
    out.push(err(`v=abc; va=1; vb=2; a=(x yy zzz); b=v; set -- p q; ${show}"${e}"; echo`));
  return out;
}

/** 3.5.5 / 6.5: every operator on a few operand pairs, through $(( )), (( )) and let. */
function arithmetic(): CaseSpec[] {
  const binary = [
    '+',
    '-',
    '*',
    '/',
    '%',
    '**',
    '<<',
    '>>',
    '&',
    '|',
    '^',
    '&&',
    '||',
    '<',
    '<=',
    '>',
    '>=',
    '==',
    '!=',
    ',',
  ];
  const pairs: [string, string][] = [
    ['7', '3'],
    ['-7', '3'],
    ['7', '-3'],
    ['0', '5'],
    ['2', '62'],
    ['0x10', '010'],
    ['x', 'y'],
  ];
  const out: CaseSpec[] = [];
  for (const op of binary)
    for (const [l, r] of pairs) out.push(err(`x=6 y=4; echo $(( ${l} ${op} ${r} ))`));
  for (const e of [
    '-x',
    '+x',
    '!x',
    '~x',
    '!0',
    '~0',
    '- -x',
    '!!x',
    'x++',
    'x--',
    '++x',
    '--x',
    'x++ + x',
    '-(x)',
    'x**2**2',
    '-x**2',
    '(x)',
  ])
    out.push(`x=5; echo $(( ${e} )) $x`);
  for (const op of ['=', '+=', '-=', '*=', '/=', '%=', '<<=', '>>=', '&=', '^=', '|='])
    for (const v of ['3', '-2', '0']) out.push(err(`x=12; echo $(( x ${op} ${v} )) $x`));
  for (const e of [
    '1 + 2 * 3',
    '(1 + 2) * 3',
    '2 ** 3 ** 2',
    '10 - 2 - 3',
    '100 / 10 / 5',
    '1 < 2 == 1',
    '1 ? 2 : 3',
    '0 ? 2 : 3',
    '1 ? 0 ? 4 : 5 : 6',
    '1, 2, 3',
    '5 & 3 | 8',
    '5 ^ 3 & 1',
    '1 << 2 + 1',
    '-2 ** 2',
    '2 ** -1',
    '7 % -3',
    '-7 / 2',
    '9223372036854775807 + 1',
    '-9223372036854775808 / -1',
    '2 ** 63',
    '2 ** 64',
    '1 / 0',
    '1 % 0',
    '0 ** 0',
    '08',
    '09',
    '0x',
    '0xfF',
    '0XA',
    '2#1010',
    '8#17',
    '16#ff',
    '36#zz',
    '64#@',
    '64#_',
    '37#1',
    '2#2',
    '1#1',
    ' 1 ',
    '',
    '"1" + 1',
    "'1' + 1",
    'x',
    'x + 1',
    'unset_v + 1',
    'y',
    'z',
    'a[1]',
    'a[1] + a[2]',
    'a',
    '$x + 1',
    '${x} * 2',
    'x = 2, x * 5',
    'x++ + ++x',
    '1 +',
    '+',
    '(1',
    '1)',
    '1 2',
    'a b',
    '3 > 2 > 1',
    '!1 == 0',
    '~-1',
    '- 3',
    '--3',
    '1 && 0 || 1',
    '0 || 0 && 1',
    '0 && 1 / 0',
    '1 || 1 / 0',
    'i = 1 ? 2 : 3',
    '1 ? x = 7 : 9',
    '2.5',
    '1e3',
    'a.b',
  ])
    out.push(err(`x=3 y=z z=4 a=(10 20 30); echo "$(( ${e} ))" $?`));
  for (const e of ['0', '1', '-1', 'x', 'x - 3', 'x = 0', 'y', '1 / 0', '"5"'])
    out.push(err(`x=3; (( ${e} )); echo $?`), err(`x=3; let '${e}'; echo $? $x`));
  out.push(
    err('let x=1 y=x+1 "z = y * 3"; echo $? $x $y $z'),
    err('let; echo $?'),
    err('let 0 1; echo $?'),
    err('let 1 0; echo $?'),
  );
  return out;
}

const fileObjects: [string, string][] = [
  ['missing', ':'],
  ['empty file', ': > t'],
  ['file', 'echo data > t'],
  ['directory', 'mkdir t'],
  ['symlink to file', 'echo d > f; ln -s f t'],
  ['dangling symlink', 'ln -s nosuch t'],
  ['symlink to dir', 'mkdir d; ln -s d t'],
  ['mode 0', 'echo d > t; chmod 0 t'],
  ['mode 755', 'echo d > t; chmod 755 t'],
  ['mode 4755', 'echo d > t; chmod 4755 t'],
  ['mode 1777 dir', 'mkdir t; chmod 1777 t'],
  ['mode 2755', 'echo d > t; chmod 2755 t'],
];

/** 6.4: every unary file test on every kind of file, with test, [ ] and [[ ]]. */
function conditionalExpressions(): CaseSpec[] {
  const out: CaseSpec[] = [];
  const unary = [
    '-a',
    '-b',
    '-c',
    '-d',
    '-e',
    '-f',
    '-g',
    '-h',
    '-k',
    '-p',
    '-r',
    '-s',
    '-u',
    '-w',
    '-x',
    '-G',
    '-L',
    '-N',
    '-O',
    '-S',
  ];
  for (const op of unary)
    for (const [name, setup] of fileObjects) {
      out.push({ name: `[ ${op} ] on ${name}`, script: `${setup}; [ ${op} t ]; echo $?` });
      out.push({ name: `[[ ${op} ]] on ${name}`, script: `${setup}; [[ ${op} t ]]; echo $?` });
    }
  for (const p of ['/dev/null', '/dev/stdin', '/', '/dev/fd/1'])
    for (const op of ['-c', '-b', '-d', '-e', '-p']) out.push(`test ${op} ${p}; echo $?`);
  for (const op of ['-t 0', '-t 1', '-t 9', '-t', '-t x']) out.push(err(`test ${op}; echo $?`));
  // Binary file comparisons.
  for (const op of ['-nt', '-ot', '-ef'])
    for (const [l, r] of [
      ['f', 'f'],
      ['f', 'g'],
      ['f', 'l'],
      ['f', 'nosuch'],
      ['nosuch', 'f'],
    ]) {
      const setup = 'echo a > f; touch -d 2020-01-01 f; echo b > g; ln -s f l';
      out.push(
        `${setup}; [ ${l} ${op} ${r} ]; echo $?`,
        `${setup}; [[ ${l} ${op} ${r} ]]; echo $?`,
      );
    }
  // Strings.
  const strings: [string, string][] = [
    ['a', 'a'],
    ['a', 'b'],
    ['b', 'a'],
    ['', ''],
    ['a', ''],
    ['A', 'a'],
    ['10', '9'],
    ['ab', 'a'],
  ];
  for (const op of ['=', '==', '!=', '<', '>'])
    for (const [l, r] of strings) {
      out.push(err(`[ "${l}" ${op === '<' || op === '>' ? `\\${op}` : op} "${r}" ]; echo $?`));
      out.push(`[[ "${l}" ${op} "${r}" ]]; echo $?`);
    }
  for (const op of ['-z', '-n'])
    for (const v of ['""', 'a', '" "', '"$unset_v"', '-n', '-z'])
      out.push(`[ ${op} ${v} ]; echo $?`, `[[ ${op} ${v} ]]; echo $?`, `test ${op} ${v}; echo $?`);
  // Integers.
  const ints: [string, string][] = [
    ['1', '1'],
    ['1', '2'],
    ['2', '1'],
    ['-1', '0'],
    ['010', '10'],
    [' 3', '3'],
    ['0x10', '16'],
    ['a', '1'],
    ['1', ''],
    ['9999999999999999999', '1'],
  ];
  for (const op of ['-eq', '-ne', '-lt', '-le', '-gt', '-ge'])
    for (const [l, r] of ints) {
      out.push(err(`[ "${l}" ${op} "${r}" ]; echo $?`));
      out.push(err(`[[ "${l}" ${op} "${r}" ]]; echo $?`));
    }
  // Grammar of test with few and many arguments.
  for (const args of [
    '',
    'x',
    '""',
    '!',
    '! x',
    '! ""',
    '-n',
    'x = x -a y = y',
    'x = y -o y = y',
    '! x = y',
    '( x = x )',
    '( ! x )',
    'x -a ""',
    '"" -o x',
    '-e -a -e',
    'x = x -a',
    '= =',
    '! = =',
    '( )',
    'a b',
    'a b c',
    '-x',
    '-f -f',
    '1 -eq',
    '! ! x',
    '\\( x \\)',
  ])
    out.push(err(`test ${args}; echo $?`), err(`[ ${args} ]; echo $?`));
  out.push(
    err('[ x; echo $?'),
    err('[ x ]] ; echo $?'),
    err('test x ]; echo $?'),
    err('[[ -e ]]; echo $?'),
  );
  return out;
}

/** 3.5.8.1: patterns against several strings, through [[ == ]] and case. */
function patternMatching(): CaseSpec[] {
  const strings = "'' a ab abc aXc a.c .a A '*' '?' '[' ']' a-b 'a b' 1 Ab9 é";
  const patterns = [
    '*',
    '?',
    '??',
    'a*',
    '*c',
    'a?c',
    '[ab]*',
    '[!a]*',
    '[^a]*',
    '[a-c]',
    '[a-]*',
    '[]]',
    '[!]]',
    '[[]',
    '[*]',
    '[?]',
    '\\*',
    '"*"',
    "'?'",
    'a\\?c',
    '[[:alpha:]]',
    '[[:digit:]]',
    '[[:upper:]]*',
    '[[:lower:]][[:lower:]]',
    '[[:space:]]*',
    '*[[:space:]]*',
    '[[:punct:]]*',
    '[[:alnum:]]*',
    '[[:xdigit:]]',
    '[[:blank:]]*',
    '[[:print:]]*',
    '[![:alpha:]]*',
    '[a-z][A-Z]?',
    '*.*',
    '.*',
    'a*b*c',
    '*a*',
    '**',
    '[c-a]',
    '[A-z]',
    '[.]a',
    'a[.]c',
    'a\\.c',
    '[a\\-b]*',
    '[-a]*',
    '[[:alpha:][:digit:]]*',
    '[[:nosuch:]]',
    '[',
    ']',
    'a[',
    '*]',
    '[!]',
    'A*',
    'a',
    'é',
    '?é',
    '[é]',
  ];
  const out: CaseSpec[] = [];
  for (const p of patterns) {
    out.push({
      name: `[[ == ${p} ]]`,
      script: `for s in ${strings}; do [[ $s == ${p} ]] && printf 1 || printf 0; done; echo`,
    });
    out.push({
      name: `case ${p}`,
      script: `for s in ${strings}; do case $s in ${p}) printf 1;; *) printf 0;; esac; done; echo`,
    });
  }
  const ext = [
    '?(a)',
    '*(a)',
    '+(a)',
    '@(a|ab)',
    '!(a)',
    '!(a*)',
    'a*(b)c',
    'a+(b|X)c',
    '@(*.c|*.h)',
    '!(*.c)',
    '*(a|b)',
    '+([0-9])',
    '?(a)b?(c)',
    '@()',
    '!()',
    '*(?)',
    'a!(b)*',
    '+(a)+(b)',
    '@(ab|a)*(c)',
    '*([[:alpha:]])',
    '!(*b*)',
    '?([!a])',
  ];
  const extStrings = "'' a ab abc aXc b x.c x.h 123 aa aab abab";
  for (const p of ext) {
    out.push({
      name: `extglob [[ == ${p} ]]`,
      script: `shopt -s extglob\nfor s in ${extStrings}; do [[ $s == ${p} ]] && printf 1 || printf 0; done; echo`,
    });
    out.push({
      name: `extglob case ${p}`,
      script: `shopt -s extglob\nfor s in ${extStrings}; do case $s in ${p}) printf 1;; *) printf 0;; esac; done; echo`,
    });
  }
  for (const p of ['a*', '[A-Z]*', 'abc', '?B?', '[[:lower:]]*'])
    out.push({
      name: `nocasematch ${p}`,
      script: `shopt -s nocasematch; for s in abc ABC aBc xyz; do [[ $s == ${p} ]] && printf 1 || printf 0; case $s in ${p}) printf 1;; *) printf 0;; esac; done; echo`,
    });
  return out;
}

/** 3.5.8: globs over a fixed tree, under each shopt that changes them. */
function filenameExpansion(): CaseSpec[] {
  const tree =
    'mkdir -p d/e/f .hd; touch a ab abc b.c c.h .hidden A B d/x d/e/y d/e/f/z .hd/in "sp ace" \'q*\'';
  const globs = [
    '*',
    '.*',
    '*.*',
    'a*',
    '?',
    '??',
    '[ab]*',
    '[!a]*',
    'd/*',
    '*/*',
    '*/',
    'd/*/*',
    '**',
    '**/*',
    'd/**',
    'nomatch*',
    '.?*',
    '[.]*',
    '*[[:upper:]]*',
    '"a"*',
    'a\\*',
    '*\\**',
    'sp*',
    '*e',
    '.[!.]*',
    '*/e',
    './a*',
    'd/../a*',
    '.h*/*',
  ];
  const opts = [
    '',
    'shopt -s nullglob;',
    'shopt -s failglob;',
    'shopt -s dotglob;',
    'shopt -s nocaseglob;',
    'shopt -s globstar;',
    'GLOBIGNORE="a*";',
    'set -f;',
  ];
  const out: CaseSpec[] = [];
  for (const o of opts)
    for (const g of globs)
      out.push({
        name: `glob ${g}${o ? ` after ${o}` : ''}`,
        script: `${tree}; ${o} printf '[%s]' ${g}; echo " $?"`,
        stderr: true,
      });
  const ext = ['!(a*)', '@(a|b.c)', '*(a|b)*', '+(a|b)', '?(a)b', '*.@(c|h)', '!(*.*)'];
  for (const g of ext)
    out.push({
      name: `extglob ${g}`,
      script: `${tree}; shopt -s extglob\nprintf '[%s]' ${g}; echo " $?"`,
      stderr: true,
    });
  for (const g of ['a*', '*.c:*.h', '.*', 'd/*', '*', '.hidden:a*'])
    out.push({
      name: `GLOBIGNORE=${g}`,
      script: `${tree}; GLOBIGNORE='${g}'; printf '[%s]' * .* d/*; echo`,
      stderr: true,
    });
  return out;
}

/** 4.3.1: every option of set -o: on, off, and how set -o / set +o print it. */
function setOptions(): CaseSpec[] {
  const opts = [
    'allexport',
    'braceexpand',
    'emacs',
    'errexit',
    'errtrace',
    'functrace',
    'hashall',
    'histexpand',
    'history',
    'ignoreeof',
    'interactive-comments',
    'keyword',
    'monitor',
    'noclobber',
    'noexec',
    'noglob',
    'nolog',
    'notify',
    'nounset',
    'onecmd',
    'physical',
    'pipefail',
    'posix',
    'privileged',
    'verbose',
    'vi',
    'xtrace',
  ];
  const out: CaseSpec[] = [];
  for (const o of opts) {
    out.push(err(`set -o | grep -w '^${o}'; echo $?`));
    out.push(err(`set +o | grep -w '${o}$'`));
    if (!['noexec', 'onecmd', 'verbose', 'xtrace', 'errexit', 'privileged'].includes(o))
      out.push(
        err(
          `set -o ${o}; set -o | grep -w '^${o}'; set +o ${o}; set +o | grep -w '${o}$'; echo "$-"`,
        ),
      );
    out.push(err(`shopt -o ${o}; shopt -po ${o}; echo $?`));
    out.push(err(`[[ -o ${o} ]]; echo $?`));
  }
  out.push(
    err('set -o nosuchoption; echo $?'),
    err('set +o nosuchoption; echo $?'),
    err('shopt -o nosuch; echo $?'),
  );
  return out;
}

/** 4.3.2: every shopt option: query, set, print. */
function shoptOptions(): CaseSpec[] {
  const opts = [
    'assoc_expand_once',
    'autocd',
    'cdable_vars',
    'cdspell',
    'checkhash',
    'checkjobs',
    'checkwinsize',
    'cmdhist',
    'compat31',
    'compat32',
    'compat40',
    'compat41',
    'compat42',
    'compat43',
    'compat44',
    'complete_fullquote',
    'direxpand',
    'dirspell',
    'dotglob',
    'execfail',
    'expand_aliases',
    'extdebug',
    'extglob',
    'extquote',
    'failglob',
    'force_fignore',
    'globasciiranges',
    'globskipdots',
    'globstar',
    'gnu_errfmt',
    'histappend',
    'histreedit',
    'histverify',
    'hostcomplete',
    'huponexit',
    'inherit_errexit',
    'interactive_comments',
    'lastpipe',
    'lithist',
    'localvar_inherit',
    'localvar_unset',
    'login_shell',
    'mailwarn',
    'no_empty_cmd_completion',
    'nocaseglob',
    'nocasematch',
    'noexpand_translation',
    'nullglob',
    'patsub_replacement',
    'progcomp',
    'progcomp_alias',
    'promptvars',
    'restricted_shell',
    'shift_verbose',
    'sourcepath',
    'varredir_close',
    'xpg_echo',
  ];
  const out: CaseSpec[] = [];
  for (const o of opts) {
    out.push(err(`shopt ${o}; echo $?`));
    out.push(err(`shopt -p ${o}; shopt -q ${o}; echo $?`));
    if (!['login_shell', 'restricted_shell'].includes(o))
      out.push(err(`shopt -s ${o}; shopt -p ${o}; shopt -u ${o}; shopt ${o}; echo $?`));
  }
  out.push(
    err('shopt -s nosuch; echo $?'),
    err('shopt nosuch; echo $?'),
    err('shopt -q nosuch; echo $?'),
    err('shopt -p | wc -l'),
    err('shopt -s | wc -l'),
    err('shopt -u | wc -l'),
    err('shopt -s -o | wc -l'),
    err('shopt -q extglob nullglob; echo $?'),
    err('shopt -s extglob nullglob; shopt -p extglob nullglob'),
    err('shopt -x; echo $?'),
  );
  return out;
}

/** 5: each variable the shell sets or uses: whether it is set, and its attributes. */
function shellVariables(): CaseSpec[] {
  const vars = [
    'BASH',
    'BASHOPTS',
    'BASHPID',
    'BASH_ALIASES',
    'BASH_ARGC',
    'BASH_ARGV',
    'BASH_ARGV0',
    'BASH_CMDS',
    'BASH_COMMAND',
    'BASH_EXECUTION_STRING',
    'BASH_LINENO',
    'BASH_LOADABLES_PATH',
    'BASH_REMATCH',
    'BASH_SOURCE',
    'BASH_SUBSHELL',
    'BASH_VERSINFO',
    'BASH_VERSION',
    'COLUMNS',
    'COMP_WORDBREAKS',
    'DIRSTACK',
    'EPOCHREALTIME',
    'EPOCHSECONDS',
    'EUID',
    'FUNCNAME',
    'GROUPS',
    'HISTCMD',
    'HISTFILE',
    'HISTFILESIZE',
    'HISTSIZE',
    'HOME',
    'HOSTNAME',
    'HOSTTYPE',
    'IFS',
    'LINENO',
    'LINES',
    'MACHTYPE',
    'MAILCHECK',
    'OLDPWD',
    'OPTARG',
    'OPTERR',
    'OPTIND',
    'OSTYPE',
    'PATH',
    'PIPESTATUS',
    'PPID',
    'PS1',
    'PS2',
    'PS4',
    'PWD',
    'RANDOM',
    'READLINE_LINE',
    'REPLY',
    'SECONDS',
    'SHELL',
    'SHELLOPTS',
    'SHLVL',
    'SRANDOM',
    'UID',
    'CDPATH',
    'ENV',
    'FIGNORE',
    'GLOBIGNORE',
    'HISTCONTROL',
    'INPUTRC',
    'LANG',
    'LC_ALL',
    'MAIL',
    'PROMPT_COMMAND',
    'PS0',
    'PS3',
    'TIMEFORMAT',
    'TMOUT',
    'TMPDIR',
    'auto_resume',
    'histchars',
  ];
  const out: CaseSpec[] = [];
  for (const v of vars) {
    out.push({ name: `${v} is set`, script: `echo "\${${v}+set}"` });
    out.push({
      name: `${v} attributes`,
      script: `declare -p ${v} 2>&1 | cut -d' ' -f1-2 | sed 's/=.*//'`,
    });
  }
  return out;
}

/** 4.1 / 4.2: every builtin and keyword, as type, command -v/-V and enable see it. */
function builtinsKnown(): CaseSpec[] {
  const builtins = [
    '.',
    ':',
    '[',
    'alias',
    'bg',
    'bind',
    'break',
    'builtin',
    'caller',
    'cd',
    'command',
    'compgen',
    'complete',
    'compopt',
    'continue',
    'declare',
    'dirs',
    'disown',
    'echo',
    'enable',
    'eval',
    'exec',
    'exit',
    'export',
    'false',
    'fc',
    'fg',
    'getopts',
    'hash',
    'help',
    'history',
    'jobs',
    'kill',
    'let',
    'local',
    'logout',
    'mapfile',
    'popd',
    'printf',
    'pushd',
    'pwd',
    'read',
    'readarray',
    'readonly',
    'return',
    'set',
    'shift',
    'shopt',
    'source',
    'suspend',
    'test',
    'times',
    'trap',
    'true',
    'type',
    'typeset',
    'ulimit',
    'umask',
    'unalias',
    'unset',
    'wait',
  ];
  const keywords = [
    'if',
    'then',
    'else',
    'elif',
    'fi',
    'case',
    'esac',
    'for',
    'select',
    'while',
    'until',
    'do',
    'done',
    'in',
    'function',
    'time',
    '{',
    '}',
    '!',
    '[[',
    ']]',
    'coproc',
  ];
  const out: CaseSpec[] = [];
  for (const b of builtins) {
    out.push(err(`type '${b}'; type -t '${b}'; command -v '${b}'; echo $?`));
    out.push(
      err(
        `command -V '${b}'; enable -p | grep -c -- " ${b.replace('[', '\\[').replace('.', '\\.')}$"`,
      ),
    );
  }
  for (const k of keywords)
    out.push(err(`type '${k}'; type -t '${k}'; command -v '${k}'; echo $?`));
  return out;
}

/** The printf builtin: every conversion with a few arguments. */
function printfFormats(): CaseSpec[] {
  const formats = [
    '%s',
    '%5s',
    '%-5s|',
    '%.2s',
    '%5.1s',
    '%d',
    '%5d',
    '%-5d|',
    '%05d',
    '%+d',
    '% d',
    '%x',
    '%X',
    '%#x',
    '%o',
    '%#o',
    '%u',
    '%i',
    '%c',
    '%e',
    '%E',
    '%f',
    '%.2f',
    '%10.3f',
    '%g',
    '%G',
    '%a',
    '%%',
    '%b',
    '%q',
    '%Q',
    '%*d',
    '%-*d|',
    '%.*f',
    '%s %s',
    '%s\\n',
    '%3$s %1$s',
    '%ld',
    '%lld',
    '%hd',
    '%zd',
    '%5%',
    '%',
    '%y',
    '[%s]',
    '%b%b',
    '%c%c',
    '%s-',
  ];
  const args = [
    '42',
    '-7 x',
    'abc def ghi',
    "'A' \"'b\"",
    '3.14159 2',
    '0x1F 010',
    '\'a\\tb\\101\' "x y"',
    '',
  ];
  const out: CaseSpec[] = [];
  for (const f of formats) for (const a of args) out.push(err(`printf '${f}' ${a}; echo " $?"`));
  return out;
}

/** The read builtin: each option over a few inputs. */
function readVariants(): CaseSpec[] {
  const inputs = [
    "'a b c'",
    "'  lead  trail  '",
    "'a\\\\b c\\\\'",
    "'x:y:z'",
    "$'l1\\nl2'",
    "''",
    "$'a\\tb'",
  ];
  const variants = [
    'read v; echo "[$v]"',
    'read -r v; echo "[$v]"',
    'read a b; echo "[$a][$b]"',
    'read -r a b; echo "[$a][$b]"',
    'IFS=: read a b; echo "[$a][$b]"',
    'IFS= read v; echo "[$v]"',
    'read; echo "[$REPLY]"',
    'read -a arr; echo "${#arr[@]} ${arr[@]}"',
    'read -n 2 v; echo "[$v]"',
    'read -N 3 v; echo "[$v]"',
    'read -d : v; echo "[$v] $?"',
    'read -d "" v; echo "[$v] $?"',
    'read v; echo "$?"',
    'read -r -a arr; declare -p arr',
    'read a b c d; echo "[$d]"',
  ];
  const out: CaseSpec[] = [];
  for (const v of variants) for (const i of inputs) out.push(`printf '%s' ${i} | { ${v}; }`);
  return out;
}

/** 3.5.7: word splitting of a value under each IFS. */
function wordSplitting(): CaseSpec[] {
  const ifss = [
    'unset IFS',
    "IFS=' '",
    'IFS=:',
    "IFS=' :'",
    "IFS=':,'",
    "IFS=''",
    "IFS=$'\\t\\n'",
    "IFS=' \\t'",
    'IFS=a',
  ];
  const values = [
    "' a  b '",
    "'a::b'",
    "':a:'",
    "'a : b'",
    "' : '",
    "'a,b:c'",
    "'a\\tb c'",
    "'banana'",
    "''",
  ];
  const out: CaseSpec[] = [];
  for (const i of ifss)
    for (const v of values) {
      out.push(`${i}; x=${v}; printf '[%s]' $x; echo`);
      out.push(`${i}; x=${v}; set -- $x; echo $#; read -r a b <<< "$x"; echo "[$a][$b]"`);
    }
  return out;
}

/** declare and its friends: each attribute on each kind of value, as declare -p shows it. */
function declareAttributes(): CaseSpec[] {
  const flags = [
    '',
    '-i',
    '-l',
    '-u',
    '-r',
    '-x',
    '-a',
    '-A',
    '-t',
    '-il',
    '-ix',
    '-ri',
    '-ax',
    '-ar',
    '-Ar',
    '-lu',
    '-g',
  ];
  const values = ['v=5', 'v=aBc', 'v=(1 2)', 'v=([k]=x)', 'v', 'v="a b"', "v='$x'"];
  const out: CaseSpec[] = [];
  for (const f of flags)
    for (const v of values) out.push(err(`declare ${f} ${v}; declare -p v; echo $?`));
  for (const f of ['+i', '+x', '+r', '+a', '+l', '-x', '-r', '-i'])
    out.push(err(`declare -ixu v=1; declare ${f} v; declare -p v; echo $?`));
  return out;
}

export const GENERATED: Readonly<Record<string, readonly CaseSpec[]>> = {
  'parameter-expansion': [...defaultOperators(), ...stringOperators()],
  arithmetic: arithmetic(),
  'conditional-expressions': conditionalExpressions(),
  'pattern-matching': patternMatching(),
  'filename-expansion': filenameExpansion(),
  'set-builtin': setOptions(),
  'shopt-builtin': shoptOptions(),
  'shell-variables': shellVariables(),
  'bash-builtins': builtinsKnown(),
  printf: printfFormats(),
  read: readVariants(),
  'word-splitting': wordSplitting(),
  declare: declareAttributes(),
  'brace-expansion': combos(
    'echo {}{}',
    ['{a,b}', '{1..3}', 'x', '{,y}'],
    ['{c,d}', '{5..3}', '{a..c..2}', ''],
  ),
};
