//! `sed` (GNU flavour): command line, in-place editing and exit status.
//! The script language is parsed in [`parse`] and run by [`exec`].

pub mod exec;
pub mod parse;

use coreutils_core::args::{getopt_items, long, Getopt, HasArg, Item, LongOpt};
use coreutils_core::bytes::{os_bytes, os_str};
use coreutils_core::error::strerror;
use exec::{Engine, ExecOpts, Input, Output};
use parse::Chunk;
use std::ffi::OsString;
use std::io::Write;

const USAGE: &str = "Usage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...

  -n, --quiet, --silent
                 suppress automatic printing of pattern space
      --debug
                 annotate program execution
  -e script, --expression=script
                 add the script to the commands to be executed
  -f script-file, --file=script-file
                 add the contents of script-file to the commands to be executed
  --follow-symlinks
                 follow symlinks when processing in place
  -i[SUFFIX], --in-place[=SUFFIX]
                 edit files in place (makes backup if SUFFIX supplied)
  -l N, --line-length=N
                 specify the desired line-wrap length for the `l' command
  --posix
                 disable all GNU extensions.
  -E, -r, --regexp-extended
                 use extended regular expressions in the script
                 (for portability use POSIX -E).
  -s, --separate
                 consider files as separate rather than as a single,
                 continuous long stream.
      --sandbox
                 operate in sandbox mode (disable e/r/w commands).
  -u, --unbuffered
                 load minimal amounts of data from the input files and flush
                 the output buffers more often
  -z, --null-data
                 separate lines by NUL characters
      --help     display this help and exit
      --version  output version information and exit

If no -e, --expression, -f, or --file option is given, then the first
non-option argument is taken as the sed script to interpret.  All
remaining arguments are names of input files; if no input files are
specified, then the standard input is read.

GNU sed home page: <https://www.gnu.org/software/sed/>.
General help using GNU software: <https://www.gnu.org/gethelp/>.
";

const O_DEBUG: char = '\u{e000}';
const O_FOLLOW: char = '\u{e001}';
const O_POSIX: char = '\u{e002}';
const O_SANDBOX: char = '\u{e003}';
const O_HELP: char = '\u{e004}';
const O_VERSION: char = '\u{e005}';

const LONG: &[LongOpt] = &[
    long("quiet", HasArg::No, 'n'),
    long("silent", HasArg::No, 'n'),
    long("debug", HasArg::No, O_DEBUG),
    long("expression", HasArg::Required, 'e'),
    long("file", HasArg::Required, 'f'),
    long("follow-symlinks", HasArg::No, O_FOLLOW),
    long("in-place", HasArg::Optional, 'i'),
    long("line-length", HasArg::Required, 'l'),
    long("posix", HasArg::No, O_POSIX),
    long("regexp-extended", HasArg::No, 'E'),
    long("separate", HasArg::No, 's'),
    long("sandbox", HasArg::No, O_SANDBOX),
    long("unbuffered", HasArg::No, 'u'),
    long("null-data", HasArg::No, 'z'),
    long("zero-terminated", HasArg::No, 'z'),
    long("help", HasArg::No, O_HELP),
    long("version", HasArg::No, O_VERSION),
];

fn usage_error(msg: Option<&str>) -> i32 {
    if let Some(m) = msg {
        eprintln!("{}: {}", coreutils_core::prog("sed"), m);
    }
    eprint!("{}", USAGE);
    1
}

/// Entry point of sed.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let spec = Getopt {
        short: "ne:f:i::l:Ersuz",
        long: LONG,
        permute: true,
        digits: false,
    };
    let items = match getopt_items(args.get(1..).unwrap_or(&[]), &spec) {
        Ok(i) => i,
        Err(e) => return usage_error(Some(&e.message)),
    };
    let mut chunks: Vec<Chunk> = Vec::new();
    let mut files: Vec<Vec<u8>> = Vec::new();
    let mut quiet = false;
    let mut extended = false;
    let mut separate = false;
    let mut in_place: Option<Vec<u8>> = None;
    let mut eol = b'\n';
    let mut wrap = 70usize;
    let mut posix = false;
    let mut sandbox = false;
    for it in items {
        match it {
            Item::Operand(o) => files.push(os_bytes(&o).to_vec()),
            Item::Opt(k, v) => {
                let val = v.as_deref().map(os_bytes).unwrap_or(b"").to_vec();
                match k {
                    'n' => quiet = true,
                    'e' => chunks.push(Chunk {
                        text: val,
                        file: None,
                    }),
                    'f' => {
                        let data = if val == b"-" {
                            let mut d = Vec::new();
                            let _ = std::io::Read::read_to_end(&mut std::io::stdin(), &mut d);
                            Ok(d)
                        } else {
                            coreutils_core::fs::read(os_str(&val))
                        };
                        match data {
                            Ok(mut d) => {
                                if d.last() == Some(&b'\n') {
                                    d.pop();
                                }
                                chunks.push(Chunk {
                                    text: d,
                                    file: Some(String::from_utf8_lossy(&val).into_owned()),
                                })
                            }
                            Err(e) => {
                                eprintln!(
                                    "{}: couldn't open file {}: {}",
                                    coreutils_core::prog("sed"),
                                    String::from_utf8_lossy(&val),
                                    strerror(&e)
                                );
                                return 4;
                            }
                        }
                    }
                    'i' => {
                        in_place = Some(val);
                        separate = true;
                    }
                    'l' => match std::str::from_utf8(&val).ok().and_then(|s| s.parse().ok()) {
                        Some(n) => wrap = n,
                        None => {
                            eprintln!(
                                "{}: invalid line length: {}",
                                coreutils_core::prog("sed"),
                                String::from_utf8_lossy(&val)
                            );
                            return 1;
                        }
                    },
                    'E' | 'r' => extended = true,
                    's' => separate = true,
                    'z' => eol = 0,
                    O_POSIX => posix = true,
                    O_SANDBOX => sandbox = true,
                    O_HELP => {
                        print!("{}", USAGE);
                        return 0;
                    }
                    O_VERSION => {
                        println!("sed (GNU sed) 4.9\nSandglass coreutils implementation.");
                        return 0;
                    }
                    _ => {}
                }
            }
        }
    }
    if chunks.is_empty() {
        if files.is_empty() {
            return usage_error(None);
        }
        chunks.push(Chunk {
            text: files.remove(0),
            file: None,
        });
    }
    let script = match parse::parse(&chunks, extended, sandbox) {
        Ok(s) => s,
        Err(e) => {
            // A leading \x04 marks errors GNU reports with status 4.
            if let Some(m) = e.strip_prefix('\x04') {
                eprintln!("{}: {}", coreutils_core::prog("sed"), m);
                return 4;
            }
            eprintln!("{}: {}", coreutils_core::prog("sed"), e);
            return 1;
        }
    };
    if script.hash_n {
        quiet = true;
    }
    let opts = ExecOpts {
        quiet,
        separate,
        eol,
        line_wrap: wrap,
        debug_posix: posix,
    };
    let mut engine = match Engine::new(script, opts) {
        Ok(e) => e,
        Err(m) => {
            eprintln!("{}: {}", coreutils_core::prog("sed"), m);
            return 4;
        }
    };
    if files.is_empty() {
        if in_place.is_some() {
            eprintln!("{}: no input files", coreutils_core::prog("sed"));
            return 1;
        }
        files.push(b"-".to_vec());
    }
    let mut status = 0;
    if let Some(suffix) = in_place {
        for f in files {
            match edit_in_place(&mut engine, &f, &suffix) {
                Ok(()) => {}
                Err((code, msg)) => {
                    eprintln!("{}: {}", coreutils_core::prog("sed"), msg);
                    status = status.max(code);
                }
            }
            if engine.exit_code.is_some() {
                break;
            }
        }
    } else {
        let mut out = Output::new(Box::new(crate::common::stdout::stdout()));
        if engine.o.separate {
            let mut input = Input::new(files, eol, true);
            while input.start() {
                engine.reset_lines();
                if let Err(m) = engine.run(&mut input, &mut out) {
                    out.flush();
                    eprintln!("{}: {}", coreutils_core::prog("sed"), m);
                    return 4;
                }
                if engine.exit_code.is_some() {
                    break;
                }
            }
            status = input.status;
        } else {
            let mut input = Input::new(files, eol, false);
            input.start();
            if let Err(m) = engine.run(&mut input, &mut out) {
                out.flush();
                eprintln!("{}: {}", coreutils_core::prog("sed"), m);
                return 4;
            }
            status = input.status;
        }
        out.flush();
    }
    engine.flush_files();
    let _ = std::io::stdout().flush();
    match engine.exit_code {
        Some(c) if c != 0 => c,
        _ => status,
    }
}

fn edit_in_place(engine: &mut Engine, f: &[u8], suffix: &[u8]) -> Result<(), (i32, String)> {
    let name = String::from_utf8_lossy(f).into_owned();
    let path = os_str(f);
    let meta = match coreutils_core::fs::metadata(path) {
        Ok(m) => m,
        Err(e) => return Err((2, format!("can't read {}: {}", name, strerror(&e)))),
    };
    if !meta.is_file() {
        return Err((4, format!("couldn't edit {}: not a regular file", name)));
    }
    let dir_end = f
        .iter()
        .rposition(|&b| b == b'/')
        .map(|i| i + 1)
        .unwrap_or(0);
    let tmp: Vec<u8> = [&f[..dir_end], b".sed-tmp-", &f[dir_end..]].concat();
    let tmp_path = os_str(&tmp).to_os_string();
    let file = match coreutils_core::fs::create(&tmp_path) {
        Ok(x) => x,
        Err(e) => {
            return Err((
                4,
                format!("couldn't open temporary file {}: {}", name, strerror(&e)),
            ))
        }
    };
    let mut out = Output::new(Box::new(std::io::BufWriter::with_capacity(64 * 1024, file)));
    let mut input = Input::new(vec![f.to_vec()], engine.o.eol, true);
    input.start();
    engine.reset_lines();
    let r = engine.run(&mut input, &mut out);
    out.flush();
    drop(out);
    if let Err(m) = r {
        let _ = coreutils_core::fs::remove_file(&tmp_path);
        return Err((4, m));
    }
    let _ = std::fs::set_permissions(&tmp_path, meta.permissions());
    if !suffix.is_empty() {
        let base = &f[dir_end..];
        let backup: Vec<u8> = if suffix.contains(&b'*') {
            let mut b = Vec::new();
            for &c in suffix {
                if c == b'*' {
                    b.extend_from_slice(base);
                } else {
                    b.push(c);
                }
            }
            if b.contains(&b'/') {
                b
            } else {
                [&f[..dir_end], &b[..]].concat()
            }
        } else {
            [f, suffix].concat()
        };
        if let Err(e) = coreutils_core::fs::rename(path, os_str(&backup)) {
            return Err((4, format!("cannot rename {}: {}", name, strerror(&e))));
        }
    }
    if let Err(e) = coreutils_core::fs::rename(&tmp_path, path) {
        let _ = coreutils_core::fs::remove_file(&tmp_path);
        return Err((4, format!("cannot rename {}: {}", name, strerror(&e))));
    }
    Ok(())
}
