//! The jq syntax tree.

use super::value::Value;
use std::rc::Rc;

/// Binary operators with ordinary (non-short-circuit) evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Mod,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

/// Update-assignment operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssignOp {
    /// `=`
    Set,
    /// `|=`
    Update,
    /// `+=` etc.
    Arith(BinOp),
    /// `//=`
    Alt,
}

/// A piece of a string literal.
#[derive(Clone, Debug)]
pub enum StrPart {
    /// Literal text.
    Lit(String),
    /// `\(expr)`
    Interp(Ast),
}

/// A destructuring pattern.
#[derive(Clone, Debug)]
pub enum Pattern {
    /// `$name`
    Var(Rc<str>),
    /// `[p, ...]`
    Arr(Vec<Pattern>),
    /// `{key: p, ...}`; a `$name` key binds the whole value too.
    Obj(Vec<(ObjPatKey, Option<Pattern>)>),
}

/// Key of an object pattern entry.
#[derive(Clone, Debug)]
pub enum ObjPatKey {
    /// `$name` (binds and indexes by "name")
    Var(Rc<str>),
    /// A key expression (identifier, string, `(expr)`).
    Expr(Ast),
}

/// A function definition.
#[derive(Debug)]
pub struct FuncDef {
    /// Name.
    pub name: Rc<str>,
    /// Parameter names; `$x` params are marked by `true`.
    pub params: Vec<(Rc<str>, bool)>,
    /// Body.
    pub body: Ast,
}

/// Object construction entry.
#[derive(Clone, Debug)]
pub struct ObjEntry {
    /// Key expression (string-producing).
    pub key: Ast,
    /// Value expression.
    pub value: Ast,
}

/// Expression node.
#[derive(Clone, Debug)]
pub enum Ast {
    /// `.`
    Identity,
    /// `..`
    RecurseAll,
    /// A constant.
    Lit(Value),
    /// String with interpolation, with an optional `@format` applied to parts.
    Str(Vec<StrPart>, Option<Rc<str>>),
    /// `@format` as a filter.
    Format(Rc<str>),
    /// `t[i]` / `t.name`
    Index(Box<Ast>, Box<Ast>),
    /// `t[a:b]`
    Slice(Box<Ast>, Option<Box<Ast>>, Option<Box<Ast>>),
    /// `t[]`
    Iterate(Box<Ast>),
    /// `try a catch b` / `a?`
    Try(Box<Ast>, Option<Box<Ast>>),
    /// `a | b`
    Pipe(Box<Ast>, Box<Ast>),
    /// `a, b`
    Comma(Box<Ast>, Box<Ast>),
    /// `-a`
    Neg(Box<Ast>),
    /// Arithmetic and comparison.
    Bin(BinOp, Box<Ast>, Box<Ast>),
    /// `a and b`
    And(Box<Ast>, Box<Ast>),
    /// `a or b`
    Or(Box<Ast>, Box<Ast>),
    /// `a // b`
    Alt(Box<Ast>, Box<Ast>),
    /// `[a]`, `[]`
    Array(Option<Box<Ast>>),
    /// `{...}`
    Object(Vec<ObjEntry>),
    /// `if c then a elif ... else b end`
    If(Vec<(Ast, Ast)>, Option<Box<Ast>>),
    /// `reduce src as $p (init; update)`
    Reduce(Box<Ast>, Vec<Pattern>, Box<Ast>, Box<Ast>),
    /// `foreach src as $p (init; update; extract)`
    Foreach(Box<Ast>, Vec<Pattern>, Box<Ast>, Box<Ast>, Option<Box<Ast>>),
    /// `def f: body; rest`
    Def(&'static FuncDef, Box<Ast>),
    /// Call of a function or builtin.
    Call(Rc<str>, Vec<Ast>),
    /// `$name`
    Var(Rc<str>),
    /// `src as $p ?// $q | body`
    As(Box<Ast>, Vec<Pattern>, Box<Ast>),
    /// `label $name | body`
    Label(Rc<str>, Box<Ast>),
    /// `break $name`
    Break(Rc<str>),
    /// Assignment forms.
    Assign(AssignOp, Box<Ast>, Box<Ast>),
    /// `$__loc__`
    Loc(usize),
}
