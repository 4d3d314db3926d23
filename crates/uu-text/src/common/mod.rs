//! Pieces shared by the text utilities: option parsing, byte/OS-string
//! conversion, whole-input reading and number parsing.

pub mod args;
pub mod bytes;
pub mod input;
pub mod num;
pub mod ranges;
