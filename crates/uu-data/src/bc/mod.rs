//! `bc`: an arbitrary-precision calculator language, compatible with GNU bc
//! 1.07 (scale rules, ibase/obase, functions with dynamically scoped autos,
//! arrays, the `-l` math library, output wrapping and runtime messages).
//!
//! Input is read one item at a time (a line of statements or a function
//! definition), compiled to stack code and run at once, as GNU bc does.

pub mod code;
pub mod lexer;
pub mod mathlib;
pub mod num;
pub mod parser;
pub mod vm;

use std::ffi::OsString;
use std::io::Read;

use parser::{Item, Parser};
use vm::{Machine, Outcome};

const USAGE: &str = "usage: bc [options] [file ...]
  -h  --help         print this usage and exit
  -i  --interactive  force interactive mode
  -l  --mathlib      use the predefined math routines
  -q  --quiet        don't print initial banner
  -s  --standard     non-standard bc constructs are errors
  -w  --warn         warn about non-standard bc constructs
  -v  --version      print version information and exit
";

/// Whether the program should go on after a source.
#[derive(PartialEq)]
enum Flow {
    Continue,
    /// The source ended inside a line of statements.
    Unterminated,
    Stop,
}

/// Runs one source text; `name` is how errors name it. `carried` says the
/// previous source ended mid-line: GNU bc's parser then fails on this
/// source's first line.
fn run_source(m: &mut Machine, src: &[u8], name: &str, carried: bool, last: bool) -> Flow {
    let mut p = Parser::new(src);
    if carried {
        m.out.flush();
        eprintln!("{} 1: syntax error", name);
        p.skip_line();
    }
    loop {
        let item = p.next_item();
        if !p.lex_errors.is_empty() {
            m.out.flush();
            for e in p.lex_errors.drain(..) {
                eprintln!("{} {}: {}", name, e.line, e.msg);
            }
        }
        match item {
            Ok(Item::Eof) => return Flow::Continue,
            Ok(Item::Quit) => return Flow::Stop,
            Ok(Item::Define(f)) => {
                if !p.had_error {
                    m.define(f)
                }
            }
            Ok(Item::Chunk(c)) => {
                if p.had_error {
                    continue;
                }
                if let Outcome::Halt = m.run(c) {
                    return Flow::Stop;
                }
            }
            Ok(Item::Unterminated(_)) => {
                if last {
                    m.out.flush();
                    eprintln!("{} {}: syntax error", name, p.line());
                    return Flow::Continue;
                }
                return Flow::Unterminated;
            }
            Err(e) => {
                m.out.flush();
                eprintln!("{} {}: {}", name, e.line, e.msg);
            }
        }
    }
}

fn line_length() -> usize {
    match std::env::var("BC_LINE_LENGTH") {
        Ok(v) => match v.trim().parse::<i64>() {
            Ok(0) => 0,
            Ok(n) if n >= 3 => n as usize,
            _ => 70,
        },
        Err(_) => 70,
    }
}

pub fn uumain(args: Vec<OsString>) -> i32 {
    let mut mathlib = false;
    let mut files: Vec<String> = Vec::new();
    let mut only_files = false;
    for a in args.iter().skip(1) {
        let a = a.to_string_lossy().into_owned();
        if only_files || a == "-" || !a.starts_with('-') {
            files.push(a);
            continue;
        }
        if a == "--" {
            only_files = true;
            continue;
        }
        if let Some(long) = a.strip_prefix("--") {
            match long {
                "mathlib" => mathlib = true,
                "quiet" | "standard" | "warn" | "interactive" => {}
                "help" => {
                    print!("{}", USAGE);
                    return 0;
                }
                "version" => {
                    println!("bc 1.07.1\nCopyright 1991-1994, 1997, 1998, 2000, 2004, 2006, 2008, 2012-2017 Free Software Foundation, Inc.");
                    return 0;
                }
                _ => {
                    eprintln!(
                        "{}: unrecognized option '{}'",
                        coreutils_core::prog("bc"),
                        a
                    );
                    print!("{}", USAGE);
                    return 1;
                }
            }
            continue;
        }
        for c in a.chars().skip(1) {
            match c {
                'l' => mathlib = true,
                'q' | 's' | 'w' | 'i' => {}
                'h' => {
                    print!("{}", USAGE);
                    return 0;
                }
                'v' => {
                    println!("bc 1.07.1\nCopyright 1991-1994, 1997, 1998, 2000, 2004, 2006, 2008, 2012-2017 Free Software Foundation, Inc.");
                    return 0;
                }
                _ => {
                    eprintln!("{}: invalid option -- '{}'", coreutils_core::prog("bc"), c);
                    print!("{}", USAGE);
                    return 1;
                }
            }
        }
    }
    let mut m = Machine::new(line_length());
    if mathlib {
        run_source(
            &mut m,
            mathlib::SOURCE.as_bytes(),
            "(library)",
            false,
            false,
        );
    }
    let mut carried = false;
    for f in &files {
        let data = if f == "-" {
            let mut v = Vec::new();
            if std::io::stdin().read_to_end(&mut v).is_err() {
                v.clear();
            }
            v
        } else {
            match coreutils_core::fs::read(f) {
                Ok(d) => d,
                Err(_) => {
                    m.out.flush();
                    eprintln!("File {} is unavailable.", f);
                    return 1;
                }
            }
        };
        match run_source(&mut m, &data, f, carried, false) {
            Flow::Stop => {
                m.out.flush();
                return 0;
            }
            flow => carried = flow == Flow::Unterminated,
        }
    }
    let mut input = Vec::new();
    if std::io::stdin().read_to_end(&mut input).is_err() {
        input.clear();
    }
    run_source(&mut m, &input, "(standard_in)", carried, true);
    m.out.flush();
    0
}

#[cfg(test)]
mod tests {
    use super::parser::{Item, Parser};
    use super::vm::Machine;

    /// Runs a program and returns what it printed.
    fn run(src: &str, lib: bool) -> String {
        let mut m = Machine::new(70);
        m.out.capture = true;
        if lib {
            super::run_source(
                &mut m,
                super::mathlib::SOURCE.as_bytes(),
                "(library)",
                false,
                false,
            );
        }
        super::run_source(&mut m, src.as_bytes(), "(standard_in)", false, true);
        m.out.take()
    }

    #[test]
    fn expressions_and_precedence() {
        assert_eq!(run("1+2*3\n-2^2\n2^3^2\n7%3\n", false), "7\n4\n512\n1\n");
        assert_eq!(run("a=5;a\n(a=6)\nb=a++ + 1;b;a\n", false), "5\n6\n7\n7\n");
        assert_eq!(run("!0;1<2<3;0||2;1&&0\n", false), "1\n1\n1\n0\n");
    }

    #[test]
    fn control_flow_and_functions() {
        let src = "define f(n){ if (n<2) return (n); return (f(n-1)+f(n-2)) }\nf(20)\n";
        assert_eq!(run(src, false), "6765\n");
        let src = "for(i=0;i<5;i++){if(i==1)continue;if(i==3)break;i}\n";
        assert_eq!(run(src, false), "0\n2\n");
        let src = "x=1\ndefine g(){ return x }\ndefine f(){ auto x; x=7; return g() }\nf();x\n";
        assert_eq!(run(src, false), "7\n1\n");
        let src = "define s(a[]){ a[0]=9; return a[0] }\nb[0]=1;s(b[]);b[0]\n";
        assert_eq!(run(src, false), "9\n1\n");
    }

    #[test]
    fn scale_bases_and_wrapping() {
        assert_eq!(run("scale=5;1/3\n", false), ".33333\n");
        assert_eq!(run("obase=16;255\nibase=16;FF\n", false), "FF\nFF\n");
        let out = run("2^300\n", false);
        assert_eq!(out.lines().next().map(|l| l.len()), Some(69));
        assert!(out.lines().next().map_or(false, |l| l.ends_with('\\')));
    }

    #[test]
    fn math_library() {
        assert_eq!(run("e(1)\n", true), "2.71828182845904523536\n");
        assert_eq!(run("l(2)\n", true), ".69314718055994530941\n");
        assert_eq!(
            run("s(1)\nc(1)\n", true),
            ".84147098480789650665\n.54030230586813971740\n"
        );
        assert_eq!(run("a(1)*4\n", true), "3.14159265358979323844\n");
        assert_eq!(run("j(0,1)\n", true), ".76519768655796655144\n");
        assert_eq!(run("c(0)\n", true), "1.00000000000000000000\n");
    }

    #[test]
    fn quit_stops_at_parse_time() {
        assert_eq!(run("1\n2;quit;3\n4\n", false), "1\n");
        let mut p = Parser::new(b"if (0) quit\n");
        assert!(matches!(p.next_item(), Ok(Item::Quit)));
    }
}
