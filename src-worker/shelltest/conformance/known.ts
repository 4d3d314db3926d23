/**
 * Why the corpus cases that still disagree with bash do: shown beside each
 * failing case in docs/shell-conformance.md. Keyed by a fragment of the
 * case's name (its script); the first fragment found in the name wins.
 */
export const KNOWN_DIFFERENCES: readonly (readonly [string, string])[] = [
  // no fork: some subshells run in the shell's own process
  [
    'differs-in-subshell',
    'a subshell that needs no process runs in the shell itself, so $BASHPID is the same',
  ],
  [
    'kill -TERM $BASHPID',
    'the subshell runs in the shell itself: the signal ends the whole script',
  ],
  [
    "bash -c 'trap -p INT'",
    'a new shell cannot ask the kernel which signals it inherited as ignored (no such call in the ABI)',
  ],
  [
    'set -a; f() { :; }; bash -c',
    'functions are not exported to a new bash through the environment under set -a',
  ],
  ['exec -c bash', 'exec -c does not clear the environment of the program it runs'],
  [
    'kill -USR1 $$',
    'a signal the shell sends itself is handled before its next command; the script ends first',
  ],
  [
    'trap with LINENO on a later line',
    'a signal the shell sends itself is handled before its next command; the script ends first',
  ],
  ['caller 0 | cut', 'a pipeline stage does not carry the call stack for caller'],
  // kernel / VFS
  ['[ -p /dev/stdin ]', 'the kernel reports no file type for pipes'],
  ['[ -h /dev/stdin ]', '/dev/stdin is a device node in the VFS, not a symbolic link'],
  ['test -c /dev/fd/1', '/dev/fd/N is a character device in the VFS whatever it is connected to'],
  ['globskipdots', 'the VFS lists no . and .. entries'],
  ['rmdir ../d; pwd', 'pwd fails once its directory is removed from the VFS'],
  ['exec {fd}>g', 'the sandbox keeps fd 10 open in the shell, so the first free fd is 11'],
  ['echo hi > >(cat)', 'the shell exits before the process substitution writes'],
  // not implemented
  ['bash -r', 'restricted mode (bash -r) is not implemented'],
  ['BASH_ARGC', 'extdebug does not keep BASH_ARGC/BASH_ARGV'],
  ['BASH_ALIASES assignment', 'assigning BASH_ALIASES does not define an alias'],
  ['DIRSTACK[1]=', 'assigning DIRSTACK does not change the directory stack'],
  ['times', 'CPU time of the host process'],
  ["printf '%a'", 'bash formats %a from an 80-bit long double; the shell has 64-bit doubles'],
  ['${x##+( )}', 'extended patterns match even with extglob off'],
  ["declare a='(1 2)'", 'declare parses a quoted "(..)" value as an array literal'],
  ['export -p | grep -c', 'one exported variable fewer than bash starts with'],
  ['umask a b', 'extra arguments to umask are not reported'],
  ['false & true & wait -n', 'a race: which of two jobs started together ends first'],
  [
    'true & wait; jobs',
    'a race in bash itself: whether the job is still in its table depends on when SIGCHLD arrives',
  ],
  [
    'true & wait; kill %1',
    'a race in bash itself: whether the job is still in its table depends on when SIGCHLD arrives',
  ],
  ['select x in a b', 'select at end of input'],
  ['set -o | grep posix', "the host's /bin/sh is dash, not bash"],
  ['${!-unset}', '${!-word} is read as an indirect expansion'],
  // syntax-error details
  ['((echo a); echo b)', 'a leading `((` is read as arithmetic, not two subshells'],
  ['[[ a =~ ( ]]', 'message for an unterminated regex group'],
  ['$(( 64#~ ))', 'the text shown before the error token of an invalid base-64 digit'],
  [
    '/usr/bin/printf',
    "coreutils name themselves by argv[0]'s basename in messages; GNU prints argv[0] as given",
  ],
  ['${x:1:x:}', 'message for a bad substring length'],
  ['${x@Z}', 'exit status after an unknown transformation'],
  // scripts and traps
  ['coproc x y z', 'a coprocess still starting when the shell exits is ended with it'],
  ['exec ./', 'exec of a directory: the kernel refuses it as permission denied'],
  ['f() { . ./s; }', 'a sourced file adds no `source` frame to FUNCNAME'],
  [
    "trap 'echo $FUNCNAME-exit' EXIT",
    'the EXIT trap runs after `exit` has left the function, not inside it',
  ],
  [
    'set -o posix; readonly r=1; r=2',
    'in POSIX mode an assignment to a readonly variable does not end the shell',
  ],
  ["extdebug; trap 'false' DEBUG", 'under extdebug a failing DEBUG trap does not skip the command'],
  ['${x@}', 'message for an empty transformation operator'],
  ['${a@Q@Q}', 'exit status after an unknown transformation'],
  [
    "LC_ALL=C.UTF-8; printf '%s' $'\\u00e9'",
    "$'..' is decoded when the command runs; bash decodes it as the line is read, before LC_ALL= on that line applies",
  ],
  ['echo a\\', 'a backslash ending the script is dropped instead of kept'],
  [
    'read -t 0.',
    'read -t does not time out on a pipe: the kernel gives the shell no poll with a timeout',
  ],
  ['rm -rf ../d 2>/dev/null; cd .', 'cd . fails once its directory is removed from the VFS'],
];

/** The reason recorded for a failing case, if any. */
export function knownReason(name: string): string | undefined {
  return KNOWN_DIFFERENCES.find(([k]) => name.includes(k))?.[1];
}
