//! The awk syntax tree. Variables are resolved at parse time to global
//! slots or to local (function parameter) slots.

/// A variable reference.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Var {
    Global(usize),
    Local(usize),
}

/// Expressions.
#[derive(Debug, Clone)]
pub enum Expr {
    Num(f64),
    Str(Vec<u8>),
    /// A regex literal; alone it means `$0 ~ /re/`.
    Regex(usize),
    Var(Var),
    Field(Box<Expr>),
    Index(Var, Vec<Expr>),
    In(Vec<Expr>, Var),
    Assign(Box<Expr>, Option<&'static str>, Box<Expr>),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    Not(Box<Expr>),
    Neg(Box<Expr>),
    Plus(Box<Expr>),
    Bin(&'static str, Box<Expr>, Box<Expr>),
    Cmp(&'static str, Box<Expr>, Box<Expr>),
    Match(bool, Box<Expr>, Box<Expr>),
    Concat(Box<Expr>, Box<Expr>),
    PreInc(Box<Expr>, f64),
    PostInc(Box<Expr>, f64),
    Call(usize, Vec<Expr>),
    Builtin(String, Vec<Expr>),
    /// getline [var] [< file]
    Getline(Option<Box<Expr>>, Option<Box<Expr>>),
    /// cmd | getline [var]
    PipeGetline(Box<Expr>, Option<Box<Expr>>),
    Group(Box<Expr>),
}

/// Output redirection of print/printf.
#[derive(Debug, Clone)]
pub enum Redir {
    File(Expr),
    Append(Expr),
    Pipe(Expr),
}

/// Statements.
#[derive(Debug, Clone)]
pub enum Stmt {
    Expr(Expr),
    Print(Vec<Expr>, Option<Redir>),
    Printf(Vec<Expr>, Option<Redir>),
    If(Expr, Box<Stmt>, Option<Box<Stmt>>),
    While(Expr, Box<Stmt>),
    Do(Box<Stmt>, Expr),
    For(
        Option<Box<Stmt>>,
        Option<Expr>,
        Option<Box<Stmt>>,
        Box<Stmt>,
    ),
    ForIn(Var, Var, Box<Stmt>),
    Block(Vec<Stmt>),
    Next,
    NextFile,
    Exit(Option<Expr>),
    Return(Option<Expr>),
    Break,
    Continue,
    Delete(Var, Option<Vec<Expr>>),
    Getline(Expr),
}

/// A pattern of a rule.
#[derive(Debug, Clone)]
pub enum Pattern {
    All,
    Begin,
    End,
    Expr(Expr),
    Range(Expr, Expr),
}

/// A rule: pattern and action (None = print $0).
#[derive(Debug, Clone)]
pub struct Rule {
    pub pattern: Pattern,
    pub action: Option<Vec<Stmt>>,
}

/// A user function.
#[derive(Debug, Clone)]
pub struct Func {
    pub name: String,
    pub nparams: usize,
    pub body: Vec<Stmt>,
    pub defined: bool,
}

/// A whole program.
#[derive(Debug, Default)]
pub struct Program {
    pub rules: Vec<Rule>,
    pub funcs: Vec<Func>,
    pub globals: Vec<String>,
    pub regexes: Vec<Vec<u8>>,
}
