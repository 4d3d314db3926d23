//! Pieces shared by the text utilities: byte/OS-string
//! conversion, whole-input reading and number parsing.

pub mod bytes;
pub mod input;
pub mod num;
pub mod ranges;
