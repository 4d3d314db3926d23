//! Sandglass coreutils: the pattern group of utilities.

use coreutils_core::Applet;

/// The utilities this crate provides, in the order `--list` shows them.
pub const APPLETS: &[Applet] = &[];
