//! Executor tests against the mock host (`sys::mock`): what the shell spawns
//! (path, argv, env, process groups), how it wires pipes and redirections,
//! command substitution of external programs, statuses, builtins and job
//! control bookkeeping — without a kernel.

use super::Shell;
use crate::sys::mock::{Log, MockSys, Program, STOPPED};
use std::cell::RefCell;
use std::rc::Rc;

type Bytes = Vec<u8>;

struct T {
    sh: Shell,
    out: Rc<RefCell<Bytes>>,
    err: Rc<RefCell<Bytes>>,
    log: Rc<RefCell<Log>>,
}

fn prog(f: impl Fn(&[Bytes], &[u8]) -> (Bytes, i32) + 'static) -> Program {
    Box::new(f)
}

/// A shell with a few canned programs in /bin and PATH=/bin.
fn setup(stdin: &[u8]) -> T {
    let (mut sys, out, err) = MockSys::new(stdin);
    // echoes its arguments, like /bin/echo
    sys.program(
        "/bin/args",
        prog(|argv, _| {
            let mut o = argv[1..].join(&b' ');
            o.push(b'\n');
            (o, 0)
        }),
    );
    sys.program("/bin/cat", prog(|_, input| (input.to_vec(), 0)));
    sys.program(
        "/bin/upper",
        prog(|_, input| (input.to_ascii_uppercase(), 0)),
    );
    sys.program("/bin/fail", prog(|_, _| (Vec::new(), 3)));
    sys.program("/bin/stopper", prog(|_, _| (Vec::new(), STOPPED)));
    sys.program("/bin/date", prog(|_, _| (b"Mon Jan  1\n\n".to_vec(), 0)));
    let log = sys.log.clone();
    let mut sh = Shell::new(Box::new(sys));
    sh.set_var(b"PATH", b"/bin".to_vec());
    sh.arg0 = b"bash".to_vec();
    sh.err_name = b"bash".to_vec();
    sh.c_mode = true;
    T { sh, out, err, log }
}

impl T {
    fn run(&mut self, code: &str) -> i32 {
        let _ = self.sh.run_text(code.as_bytes(), 1, true);
        self.sh.status
    }
    fn out(&self) -> String {
        String::from_utf8_lossy(&self.out.borrow()).into_owned()
    }
    fn err(&self) -> String {
        String::from_utf8_lossy(&self.err.borrow()).into_owned()
    }
    fn argvs(&self) -> Vec<Vec<String>> {
        self.log
            .borrow()
            .spawns
            .iter()
            .map(|s| {
                s.argv
                    .iter()
                    .map(|a| String::from_utf8_lossy(a).into_owned())
                    .collect()
            })
            .collect()
    }
}

#[test]
fn simple_command_is_found_on_path_and_spawned_with_expanded_argv() {
    let mut t = setup(b"");
    let st = t.run("x='a  b'; args $x \"$x\" 'q*'");
    assert_eq!(st, 0);
    assert_eq!(t.out(), "a b a  b q*\n");
    let log = t.log.borrow();
    assert_eq!(log.spawns.len(), 1);
    assert_eq!(log.spawns[0].path, b"/bin/args");
    assert_eq!(
        log.spawns[0].argv,
        vec![
            b"args".to_vec(),
            b"a".to_vec(),
            b"b".to_vec(),
            b"a  b".to_vec(),
            b"q*".to_vec()
        ]
    );
    // the shell waited for exactly that child
    assert_eq!(log.waits, vec![log.spawns[0].pid]);
    // no job control outside interactive mode: the child stays in our group
    assert_eq!(log.spawns[0].pgid, -1);
    assert!(!log.spawns[0].foreground);
}

#[test]
fn exported_and_prefix_variables_reach_the_child_environment() {
    let mut t = setup(b"");
    t.run("export E1=one; local_only=2; E2=two args x");
    let log = t.log.borrow();
    let env = &log.spawns[0].env;
    assert!(env.contains(&b"E1=one".to_vec()));
    assert!(env.contains(&b"E2=two".to_vec()));
    assert!(!env.iter().any(|e| e.starts_with(b"local_only=")));
    drop(log);
    // the prefix assignment did not stick
    assert_eq!(t.sh.get_var(b"E2"), None);
}

#[test]
fn exit_status_and_command_not_found() {
    let mut t = setup(b"");
    assert_eq!(t.run("fail"), 3);
    assert_eq!(t.run("fail; echo $?"), 0);
    assert_eq!(t.out(), "3\n");
    assert_eq!(t.run("nosuch arg"), 127);
    assert_eq!(t.err(), "bash: line 1: nosuch: command not found\n");
    assert_eq!(t.log.borrow().spawns.len(), 2);
}

#[test]
fn pipeline_connects_stages_and_sets_pipestatus() {
    let mut t = setup(b"");
    let st = t.run("args hello world | upper | cat");
    assert_eq!(st, 0);
    assert_eq!(t.out(), "HELLO WORLD\n");
    assert_eq!(t.argvs().len(), 3);
    {
        let log = t.log.borrow();
        assert_eq!(log.spawns[1].stdin, b"hello world\n");
        assert_eq!(log.spawns[2].stdin, b"HELLO WORLD\n");
    }
    t.out.borrow_mut().clear();
    t.run("fail | cat; echo ${PIPESTATUS[@]}");
    assert_eq!(t.out(), "3 0\n");
    t.out.borrow_mut().clear();
    assert_eq!(t.run("set -o pipefail; fail | cat"), 3);
}

#[test]
fn command_substitution_of_an_external_command_strips_trailing_newlines() {
    let mut t = setup(b"");
    t.run("d=$(date); echo \"[$d]\"");
    assert_eq!(t.out(), "[Mon Jan  1]\n");
    assert_eq!(t.argvs(), vec![vec!["date".to_string()]]);
}

#[test]
fn shell_code_in_a_pipeline_runs_as_a_child_shell() {
    let mut t = setup(b"");
    t.run("printf '%s\\n' a | upper; f() { :; }; f | cat");
    let log = t.log.borrow();
    let kinds: Vec<&[u8]> = log
        .spawns
        .iter()
        .map(|s| {
            if s.argv.get(1).map(|a| a.as_slice()) == Some(b"--sandglass-subshell") {
                &b"subshell"[..]
            } else {
                s.path.as_slice()
            }
        })
        .collect();
    assert_eq!(
        kinds,
        vec![&b"subshell"[..], b"/bin/upper", b"subshell", b"/bin/cat"]
    );
    // every stage was waited for
    assert_eq!(log.waits.len(), 4);
}

#[test]
fn redirections_go_through_the_host() {
    let mut t = setup(b"");
    t.run("args one > /mock/f; args two >> /mock/f; cat < /mock/f");
    assert_eq!(t.out(), "one\ntwo\n");
    t.out.borrow_mut().clear();
    t.run("args err 2>&1 1>/mock/g | cat; cat </mock/g");
    assert_eq!(t.out(), "err\n");
    assert_eq!(t.run("cat < /mock/missing"), 1);
    assert!(t.err().contains("/mock/missing: No such file or directory"));
}

#[test]
fn read_builtin_takes_the_shells_stdin() {
    let mut t = setup(b"first line\nsecond\n");
    t.run("read -r a b; read c; echo \"$b|$a|$c\"");
    assert_eq!(t.out(), "line|first|second\n");
    assert_eq!(t.run("read x"), 1);
}

#[test]
fn cd_tells_the_kernel() {
    let mut t = setup(b"");
    let tmp = std::env::temp_dir();
    let tmp = tmp.to_string_lossy().into_owned();
    let st = t.run(&format!("cd '{}'", tmp));
    assert_eq!(st, 0, "{}", t.err());
    let log = t.log.borrow();
    assert!(log.chdirs.iter().any(|c| c.as_slice() == tmp.as_bytes()));
}

#[test]
fn functions_and_loops_run_in_process_without_spawning() {
    let mut t = setup(b"");
    t.run(
        "f() { local i; for i in 1 2 3; do echo \"$1$i\"; done; }; f x; (( n = 6 * 7 )); echo $n",
    );
    assert_eq!(t.out(), "x1\nx2\nx3\n42\n");
    assert!(t.log.borrow().spawns.is_empty());
}

#[test]
fn job_control_gives_foreground_jobs_their_own_group_and_takes_the_tty_back() {
    let mut t = setup(b"");
    t.sh.jc = true;
    t.sh.shell_pgid = 100;
    t.run("args a | upper | cat");
    assert_eq!(t.out(), "A\n");
    {
        let log = t.log.borrow();
        let s = &log.spawns;
        assert_eq!(s.len(), 3);
        // the first stage leads a new group and gets the terminal
        assert_eq!((s[0].pgid, s[0].foreground), (0, true));
        // the others join it
        assert_eq!((s[1].pgid, s[1].foreground), (s[0].pid, false));
        assert_eq!((s[2].pgid, s[2].foreground), (s[0].pid, false));
        // after the job the shell owns the terminal again
        assert_eq!(log.tcsetpgrp, vec![100]);
    }
    t.run("date");
    {
        let log = t.log.borrow();
        assert_eq!((log.spawns[3].pgid, log.spawns[3].foreground), (0, true));
        assert_eq!(log.tcsetpgrp, vec![100, 100]);
    }
    // command substitution is not a job: it stays in the shell's group
    t.run("x=$(date)");
    let log = t.log.borrow();
    assert_eq!((log.spawns[4].pgid, log.spawns[4].foreground), (-1, false));
    assert_eq!(log.tcsetpgrp.len(), 2);
}

#[test]
fn background_job_runs_as_a_child_shell() {
    let mut t = setup(b"");
    t.run("fail & echo $!");
    let log = t.log.borrow();
    assert_eq!(log.spawns.len(), 1);
    // `&` runs as a child shell (the shell state travels through a pipe)
    assert_eq!(log.spawns[0].argv[1], b"--sandglass-subshell");
    assert_eq!(t.out(), format!("{}\n", log.spawns[0].pid));
}

#[test]
fn a_stopped_foreground_job_is_kept_and_bg_continues_its_group() {
    let mut t = setup(b"");
    t.sh.jc = true;
    t.sh.shell_pgid = 100;
    let st = t.run("stopper x y");
    assert_eq!(st, 148);
    assert_eq!(t.err(), "\n[1]+  Stopped                 stopper x y\n");
    let pid = t.log.borrow().spawns[0].pid;
    // the shell took the terminal back
    assert_eq!(t.log.borrow().tcsetpgrp, vec![100]);
    t.run("jobs");
    assert_eq!(t.out(), "[1]+  Stopped                 stopper x y\n");
    t.err.borrow_mut().clear();
    assert_eq!(t.run("bg %1"), 0);
    assert_eq!(t.err(), "[1]+ stopper x y &\n");
    // SIGCONT went to the job's process group
    assert_eq!(t.log.borrow().kills, vec![(-pid, 18)]);
    assert_eq!(t.run("fg %7"), 1);
}

#[test]
fn unbound_variable_in_an_external_stage_ends_only_the_stage_with_127() {
    let mut t = setup(b"");
    let st = t.run("set -u; args $nosuch | cat; echo ${PIPESTATUS[@]}");
    assert_eq!(st, 0);
    assert_eq!(t.out(), "127 0\n");
    assert!(t.err().contains("nosuch: unbound variable"));
}

#[test]
fn unbound_variable_in_an_in_process_substitution_ends_only_it() {
    let mut t = setup(b"");
    t.run("set -u; echo \"[$(echo $x)]\" $?");
    assert_eq!(t.out(), "[] 1\n");
}
