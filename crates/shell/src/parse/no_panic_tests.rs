//! Property tests (quickcheck): the parser returns a program or a syntax
//! error for any input, and never panics. Inputs are drawn from a shell
//! vocabulary (keywords, operators, quotes, expansions, here-docs, deep
//! nesting) mixed with arbitrary bytes, so they reach deep into the grammar
//! rather than failing at the first byte.

use super::{parse_arith, Parser};
use quickcheck::{Arbitrary, Gen, QuickCheck};

const PIECES: &[&str] = &[
    "if ",
    "then ",
    "elif ",
    "else ",
    "fi",
    "for ",
    "in ",
    "do ",
    "done",
    "while ",
    "until ",
    "case ",
    "esac",
    ")",
    "(",
    ";;",
    ";&",
    ";;&",
    "{ ",
    " }",
    "function ",
    "select ",
    "time ",
    "! ",
    "[[ ",
    " ]]",
    "((",
    "))",
    "$((",
    "$(",
    "`",
    "${",
    "}",
    "${#",
    "${x:-",
    "${x//",
    "${x[",
    "]",
    "$",
    "'",
    "\"",
    "\\",
    "$'",
    "$\"",
    "<<",
    "<<-",
    "<<<",
    "EOF",
    "\nEOF\n",
    ">",
    ">>",
    "<",
    "<>",
    ">&",
    "<&",
    "&>",
    "&>>",
    "2>",
    ">|",
    "|",
    "||",
    "&&",
    "&",
    ";",
    "\n",
    " ",
    "\t",
    "=",
    "+=",
    "x",
    "a=(",
    "declare ",
    "echo ",
    "-eq ",
    "==",
    "=~",
    "*",
    "?",
    "[a-z]",
    "@(",
    "+(",
    "!(",
    "#",
    "~",
    "{a,b}",
    "{1..3}",
    "<(",
    ">(",
    "coproc ",
    "alias ",
    "\0",
    "\u{80}",
    "\u{ff}",
    "0x",
    "1",
    "-",
    "++",
    "<<=",
    "**",
    ",",
    "?:",
    ":",
];

/// Source text made of vocabulary pieces and raw bytes.
#[derive(Clone, Debug)]
struct Source(Vec<u8>);

impl Arbitrary for Source {
    fn arbitrary(g: &mut Gen) -> Source {
        let n = usize::arbitrary(g) % (g.size() + 1);
        let mut out = Vec::new();
        for _ in 0..n {
            if u8::arbitrary(g) % 8 == 0 {
                out.push(u8::arbitrary(g));
            } else if let Some(p) = g.choose(PIECES) {
                out.extend_from_slice(p.as_bytes());
            }
        }
        Source(out)
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Source>> {
        Box::new(self.0.shrink().map(Source))
    }
}

fn parses_without_panic(src: Source) -> bool {
    let _ = Parser::parse_all(&src.0, 1);
    true
}

fn arith_without_panic(src: Source) -> bool {
    let _ = parse_arith(&src.0);
    true
}

fn raw_bytes_without_panic(src: Vec<u8>) -> bool {
    let _ = Parser::parse_all(&src, 1);
    let _ = parse_arith(&src);
    true
}

#[test]
fn parser_never_panics_on_shell_like_text() {
    QuickCheck::new()
        .gen(Gen::new(60))
        .tests(20_000)
        .quickcheck(parses_without_panic as fn(Source) -> bool);
}

#[test]
fn arithmetic_parser_never_panics() {
    QuickCheck::new()
        .gen(Gen::new(30))
        .tests(20_000)
        .quickcheck(arith_without_panic as fn(Source) -> bool);
}

#[test]
fn parser_never_panics_on_raw_bytes() {
    QuickCheck::new()
        .gen(Gen::new(200))
        .tests(10_000)
        .quickcheck(raw_bytes_without_panic as fn(Vec<u8>) -> bool);
}

/// Deeply nested input must end in a syntax error, not a stack overflow, on
/// the 8 MiB stack shell.wasm links with (crates/shell/build.rs). Each opener
/// runs on its own named thread, so an overflow names the construct. Debug
/// builds' frames are several times larger than optimised ones (shell.wasm is
/// always a release build), so they get a proportionally larger stack.
#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    for open in [
        "(",
        "{ ",
        "$(",
        "`",
        "((",
        "$((",
        "if true; then ",
        "[[ ( ",
        "${x:-",
        "\"$(",
        "a=(",
        "<(",
        "case x in x) ",
        "while ",
        "! ",
        "f() ",
        "$[",
    ] {
        let src = open.repeat(5_000);
        let t = std::thread::Builder::new()
            .name(format!("nesting {:?}", open))
            .stack_size(if cfg!(debug_assertions) {
                64 << 20
            } else {
                8 << 20
            })
            .spawn(move || {
                let _ = Parser::parse_all(src.as_bytes(), 1);
                let _ = parse_arith(src.as_bytes());
            })
            .expect("spawn");
        assert!(t.join().is_ok(), "{:?} nested 5000 deep panicked", open);
    }
}

/// Found by `parser_never_panics_on_raw_bytes`: `$[` at the very end of the
/// input sliced backwards.
#[test]
fn unterminated_dollar_bracket_is_a_syntax_error() {
    for src in [&b"$["[..], b"echo $[1+", b"$[[]"] {
        assert!(Parser::parse_all(src, 1).is_err(), "{:?}", src);
    }
    assert!(Parser::parse_all(b"echo $[1+[2]]", 1).is_ok());
}
