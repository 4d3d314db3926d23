//! Compiled bc: instructions for a small stack machine. Each instruction
//! records how many bytes GNU bc's own bytecode spends on it, so runtime
//! errors can quote the same `adr=N` as GNU bc.

use super::num::Num;

/// A named scalar: a user variable or one of bc's special variables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Var {
    Named(String),
    Scale,
    Ibase,
    Obase,
    Last,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Pow,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RelOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// How an increment or decrement applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub pre: bool,
    pub delta: i64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    Const(Num),
    /// A constant as written, converted with the ibase in force when run.
    Lit(String),
    Load(Var),
    /// Stores the top of stack, leaving it there.
    Store(Var),
    /// Pops an index, pushes the element.
    LoadArr(String),
    /// Pops a value and an index, stores, pushes the value.
    StoreArr(String),
    IncVar(Var, Step),
    /// Pops an index.
    IncArr(String, Step),
    Dup,
    Bin(BinOp),
    Rel(RelOp),
    Neg,
    Not,
    Sqrt,
    Length,
    ScaleOf,
    Read,
    /// Pushes a whole array, for an array argument.
    PushArr(String),
    /// Calls with this many arguments already pushed.
    Call(String, usize),
    /// Pops and prints with a newline, setting `last`.
    PrintLine,
    /// Pops and prints without newline (the `print` statement).
    PrintVal,
    Pop,
    /// Prints a string literally (a string statement).
    Str(String),
    /// Prints a string with bc's backslash escapes (the `print` statement).
    PrintStr(String),
    Jump(usize),
    /// Pops; jumps if zero.
    JumpZero(usize),
    /// Jumps if the top is zero (or non-zero), keeping it when jumping.
    JumpKeepZero(usize),
    JumpKeepNonZero(usize),
    Return(bool),
    Halt,
}

#[derive(Clone, Debug)]
pub struct Ins {
    pub op: Op,
    /// GNU bytecode bytes this instruction stands for.
    pub size: u32,
}

/// A compiled function, or a top-level chunk (named `(main)`).
#[derive(Clone, Debug, Default)]
pub struct Func {
    pub name: String,
    /// Parameters and autos: (name, is_array).
    pub params: Vec<(String, bool)>,
    pub autos: Vec<(String, bool)>,
    pub code: Vec<Ins>,
}

impl Func {
    /// Byte address just past each instruction, as GNU bc counts.
    pub fn ends(&self) -> Vec<u32> {
        let mut at = 0;
        self.code
            .iter()
            .map(|i| {
                at += i.size;
                at
            })
            .collect()
    }
}
