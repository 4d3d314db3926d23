//! The syntax tree of the shell language: words, commands, arithmetic and `[[ ]]`.
//!
//! Every string is bytes (`Vec<u8>`): scripts, values and file names need not be
//! UTF-8. The printer (`printer.rs`) turns a tree back into source that parses to
//! the same tree; that is how functions and subshell code travel to child processes.

use std::cell::RefCell;
use std::rc::Rc;

pub type Bytes = Vec<u8>;

/// One piece of a word, before expansion.
#[derive(Clone, Debug)]
pub enum WordPart {
    /// Unquoted literal text: subject to brace expansion and globbing.
    Lit(Bytes),
    /// Quoted literal text ('..', $'..', or a backslash escape).
    Quoted(Bytes),
    /// "..." contents.
    Double(Vec<WordPart>),
    Param(Box<Param>),
    /// `$(..)` (false) or backquotes (true), with its source text.
    Cmd(Rc<Program>, bool, Rc<Src>),
    Arith(Rc<ArithSrc>),
    /// `~` or `~user` at the start of a word (or after `:`/`=` in assignments).
    Tilde(Bytes),
    /// `<(..)` (false) or `>(..)` (true).
    ProcSub(bool, Rc<Program>, Rc<Src>),
}

/// Source text of a construct that may run in a child shell, with its first line.
#[derive(Clone, Debug, Default)]
pub struct Src {
    pub text: Bytes,
    pub line: u32,
}

#[derive(Clone, Debug, Default)]
pub struct Word {
    /// The word as written, when parsed from source (`declare -f` shows it).
    pub raw: Option<Rc<[u8]>>,
    pub parts: Vec<WordPart>,
}

impl Word {
    pub fn lit(s: &[u8]) -> Word {
        Word {
            raw: None,
            parts: vec![WordPart::Lit(s.to_vec())],
        }
    }
    /// The text of a word made only of unquoted literals (keywords, names).
    pub fn as_plain(&self) -> Option<&[u8]> {
        match self.parts.as_slice() {
            [WordPart::Lit(s)] => Some(s),
            _ => None,
        }
    }
}

/// Arithmetic text (`$((..))`, `((..))`, `for ((..))`): expanded then parsed, with
/// the parse cached when the text has no expansions (the common, hot case).
#[derive(Debug)]
pub struct ArithSrc {
    pub word: Word,
    pub cached: Option<Rc<Arith>>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamName {
    Var(Bytes),
    Positional(usize),
    /// One of `@ * # ? - $ ! 0`.
    Special(u8),
}

#[derive(Clone, Debug)]
pub struct Param {
    pub name: ParamName,
    pub index: Option<Word>,
    /// `${#x}`
    pub length: bool,
    /// `${!x}`
    pub indirect: bool,
    pub op: ParamOp,
    /// Written `${...}` (bash names an unset `${1}` "1", `$1` "$1").
    pub braced: bool,
}

#[derive(Clone, Debug)]
pub enum ParamOp {
    None,
    /// `-`, `=`, `+`, `?` with or without `:`.
    Default {
        colon: bool,
        kind: u8,
        word: Word,
    },
    Remove {
        suffix: bool,
        longest: bool,
        pat: Word,
    },
    /// anchor: 0 none, b'#' start, b'%' end.
    Replace {
        all: bool,
        anchor: u8,
        pat: Word,
        rep: Word,
    },
    Case {
        upper: bool,
        /// `${x~}` / `${x~~}`: swap each matching character's case.
        toggle: bool,
        all: bool,
        pat: Word,
    },
    Substr {
        off: Word,
        len: Option<Word>,
    },
    Transform(u8),
    /// `${!prefix*}` / `${!prefix@}`.
    Names(bool),
    /// `${!a[@]}` / `${!a[*]}`.
    Keys(bool),
}

#[derive(Clone, Debug, Default)]
pub struct Program {
    pub items: Vec<ListItem>,
}

#[derive(Clone, Debug)]
pub struct ListItem {
    pub and_or: AndOr,
    pub background: bool,
    /// Source of a background item (run by a child shell).
    pub src: Option<Rc<Src>>,
}

#[derive(Clone, Debug)]
pub struct AndOr {
    pub first: Pipeline,
    /// (true for `&&`, false for `||`, pipeline)
    pub rest: Vec<(bool, Pipeline)>,
}

#[derive(Clone, Debug)]
pub struct Pipeline {
    pub bang: bool,
    pub time: bool,
    /// `time -p`: the POSIX format instead of $TIMEFORMAT.
    pub time_posix: bool,
    pub cmds: Vec<Command>,
    /// `|&` after command i (stderr joins stdout).
    pub amp: Vec<bool>,
    /// Source of each command when there is more than one.
    pub srcs: Vec<Rc<Src>>,
}

#[derive(Clone, Debug)]
pub enum Command {
    Simple(Simple),
    Compound(Box<Compound>, Vec<Redir>, u32),
    FuncDef(Rc<FuncDef>),
}

#[derive(Clone, Debug)]
pub struct FuncDef {
    pub src: Src,
    pub name: Bytes,
    pub body: Compound,
    pub redirs: Vec<Redir>,
    pub line: u32,
}

#[derive(Clone, Debug, Default)]
pub struct Simple {
    pub assigns: Vec<Assign>,
    pub words: Vec<Word>,
    pub redirs: Vec<Redir>,
    pub line: u32,
}

#[derive(Clone, Debug)]
pub struct Assign {
    pub name: Bytes,
    pub index: Option<Word>,
    pub append: bool,
    pub value: AssignValue,
}

#[derive(Clone, Debug)]
pub enum AssignValue {
    Scalar(Word),
    /// `(a b [k]=v)`
    Array(Vec<(Option<Word>, Word)>),
}

#[derive(Clone, Debug)]
pub enum Compound {
    Brace(Program),
    Subshell(Program, Rc<Src>),
    If(Vec<(Program, Program)>, Option<Program>),
    While(bool, Program, Program),
    For(Bytes, Option<Vec<Word>>, Program),
    ArithFor(
        Option<Rc<ArithSrc>>,
        Option<Rc<ArithSrc>>,
        Option<Rc<ArithSrc>>,
        Program,
    ),
    Case(Word, Vec<CaseArm>),
    Select(Bytes, Option<Vec<Word>>, Program),
    Arith(Rc<ArithSrc>),
    Cond(CondExpr),
    /// `coproc [NAME] command`: the name and the command's text, which a
    /// child shell runs with pipes to and from this shell.
    Coproc(Bytes, Rc<Src>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaseTerm {
    Break,
    FallThrough,
    Continue,
}

#[derive(Clone, Debug)]
pub struct CaseArm {
    pub pats: Vec<Word>,
    pub body: Program,
    pub term: CaseTerm,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RedirOp {
    In,
    Out,
    Append,
    Clobber,
    InOut,
    DupIn,
    DupOut,
    /// `&>`
    AndOut,
    /// `&>>`
    AndAppend,
    HereDoc,
    HereStr,
}

#[derive(Clone, Debug)]
pub struct HereDoc {
    pub strip: bool,
    pub quoted: bool,
    pub delim: Bytes,
    /// Raw body text as read (tabs already stripped for `<<-`).
    pub raw: Bytes,
    /// Parsed body for unquoted here-docs.
    pub body: Word,
}

#[derive(Clone, Debug)]
pub struct Redir {
    pub fd: Option<i32>,
    /// `{name}>file`
    pub var: Option<Bytes>,
    pub op: RedirOp,
    pub target: Word,
    pub heredoc: Option<Rc<RefCell<HereDoc>>>,
}

#[derive(Clone, Debug)]
pub enum CondExpr {
    Unary(Bytes, Word),
    Binary(Bytes, Word, Word),
    Word(Word),
    Not(Box<CondExpr>),
    /// `( expr )`, kept for printing.
    Group(Box<CondExpr>),
    And(Box<CondExpr>, Box<CondExpr>),
    Or(Box<CondExpr>, Box<CondExpr>),
}

/// Parsed arithmetic expression.
#[derive(Clone, Debug)]
pub enum Arith {
    Num(i64),
    /// Variable, with optional subscript text.
    Var(Bytes, Option<Box<Arith>>),
    Unary(u8, Box<Arith>),
    /// Binary operator spelled as text ("+", "<<", "&&", ...).
    Bin(&'static str, Box<Arith>, Box<Arith>),
    /// `x op= e` ("=" for plain assignment).
    Assign(&'static str, Box<Arith>, Box<Arith>),
    /// ++x / --x (pre: true) and x++ / x--.
    IncDec(bool, bool, Box<Arith>),
    Cond(Box<Arith>, Box<Arith>, Box<Arith>),
    Comma(Box<Arith>, Box<Arith>),
}
