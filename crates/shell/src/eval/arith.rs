//! Arithmetic evaluation with bash's 64-bit wrapping integer semantics.

use super::{Ctl, Shell, R};
use crate::ast::{Arith, Bytes};

impl Shell {
    pub fn arith(&mut self, e: &Arith, text: &[u8]) -> R<i64> {
        Ok(match e {
            Arith::Num(n) => *n,
            Arith::Var(name, sub) => self.arith_var(name, sub.as_deref(), text)?,
            Arith::Unary(op, x) => {
                let v = self.arith(x, text)?;
                match op {
                    b'!' => (v == 0) as i64,
                    b'~' => !v,
                    b'-' => v.wrapping_neg(),
                    _ => v,
                }
            }
            Arith::Bin(op, a, b) => {
                match *op {
                    "&&" => {
                        let l = self.arith(a, text)?;
                        return Ok(if l == 0 {
                            0
                        } else {
                            (self.arith(b, text)? != 0) as i64
                        });
                    }
                    "||" => {
                        let l = self.arith(a, text)?;
                        return Ok(if l != 0 {
                            1
                        } else {
                            (self.arith(b, text)? != 0) as i64
                        });
                    }
                    _ => {}
                }
                let l = self.arith(a, text)?;
                let r = self.arith(b, text)?;
                self.binop(op, l, r, text)?
            }
            Arith::Assign(op, target, val) => {
                // bash reads the target of `x op= y` before evaluating y
                let cur = if *op == "=" {
                    0
                } else {
                    self.arith(target, text)?
                };
                let r = self.arith(val, text)?;
                let v = if *op == "=" {
                    r
                } else {
                    self.binop(&op[..op.len() - 1], cur, r, text)?
                };
                self.arith_store(target, v, text)?;
                v
            }
            Arith::IncDec(pre, inc, target) => {
                let cur = self.arith(target, text)?;
                let nv = if *inc {
                    cur.wrapping_add(1)
                } else {
                    cur.wrapping_sub(1)
                };
                self.arith_store(target, nv, text)?;
                if *pre {
                    nv
                } else {
                    cur
                }
            }
            Arith::Cond(c, t, f) => {
                if self.arith(c, text)? != 0 {
                    self.arith(t, text)?
                } else {
                    self.arith(f, text)?
                }
            }
            Arith::Comma(a, b) => {
                self.arith(a, text)?;
                self.arith(b, text)?
            }
        })
    }

    fn binop(&mut self, op: &str, l: i64, r: i64, text: &[u8]) -> R<i64> {
        Ok(match op {
            "+" => l.wrapping_add(r),
            "-" => l.wrapping_sub(r),
            "*" => l.wrapping_mul(r),
            "/" | "%" => {
                if r == 0 {
                    let tok = text
                        .iter()
                        .rposition(|c| *c == b'/' || *c == b'%')
                        .map(|i| {
                            // after `/=` the token is the divisor, as after `/`
                            let i = if text.get(i + 1) == Some(&b'=') {
                                i + 1
                            } else {
                                i
                            };
                            let t = &text[i + 1..];
                            let s = t.iter().position(|c| *c != b' ').unwrap_or(0);
                            t[s..].to_vec()
                        });
                    self.arith_error(text, "division by 0", &tok.unwrap_or_else(|| b"0".to_vec()));
                    return Err(Ctl::Abort(1));
                }
                if op == "/" {
                    l.wrapping_div(r)
                } else {
                    l.wrapping_rem(r)
                }
            }
            "**" => {
                if r < 0 {
                    let t = text
                        .iter()
                        .rposition(|c| !(c.is_ascii_alphanumeric() || *c == b'_' || *c == b' '))
                        .map(|p| text[p + 1..].to_vec())
                        .unwrap_or_default();
                    let lead = t.iter().take_while(|c| **c == b' ').count();
                    self.arith_error(text, "exponent less than 0", &t[lead..]);
                    return Err(Ctl::Abort(1));
                }
                let mut acc: i64 = 1;
                let mut b = l;
                let mut e = r as u64;
                while e > 0 {
                    if e & 1 == 1 {
                        acc = acc.wrapping_mul(b);
                    }
                    b = b.wrapping_mul(b);
                    e >>= 1;
                }
                acc
            }
            "<<" => l.wrapping_shl(r as u32),
            ">>" => l.wrapping_shr(r as u32),
            "&" => l & r,
            "|" => l | r,
            "^" => l ^ r,
            "==" => (l == r) as i64,
            "!=" => (l != r) as i64,
            "<" => (l < r) as i64,
            ">" => (l > r) as i64,
            "<=" => (l <= r) as i64,
            ">=" => (l >= r) as i64,
            _ => 0,
        })
    }

    fn arith_var(&mut self, name: &[u8], sub: Option<&Arith>, text: &[u8]) -> R<i64> {
        let val: Option<Bytes> = match sub {
            Some(s) => {
                let is_assoc = self
                    .vars
                    .get(name)
                    .map(|v| {
                        v.attrs & crate::state::A_ASSOC != 0
                            || matches!(v.value, Some(crate::state::Value::Assoc(_)))
                    })
                    .unwrap_or(false);
                if is_assoc {
                    let key = arith_key(s);
                    match self.vars.get(name).and_then(|v| v.value.as_ref()) {
                        Some(crate::state::Value::Assoc(m)) => m.get(&key).cloned(),
                        _ => None,
                    }
                } else {
                    let mut i = self.arith(s, text)?;
                    if i < 0 {
                        if let Some(crate::state::Value::Arr(m)) =
                            self.vars.get(name).and_then(|v| v.value.as_ref())
                        {
                            i += m.keys().next_back().map(|k| k + 1).unwrap_or(0);
                        }
                    }
                    self.array_get(name, i)
                }
            }
            None => {
                if name == b"RANDOM" && self.is_dynamic(name) {
                    return Ok(self.next_random());
                }
                self.get_var(name)
            }
        };
        let v = match val {
            Some(v) => v,
            None => {
                if self.opts.nounset {
                    let mut m = name.to_vec();
                    m.extend_from_slice(b": unbound variable");
                    self.err(&m);
                    return Err(self.expansion_fatal());
                }
                return Ok(0);
            }
        };
        if v.is_empty() {
            return Ok(0);
        }
        let digits = v.strip_prefix(b"-").unwrap_or(&v);
        if !(digits.len() > 1 && digits[0] == b'0') {
            if let Some(n) = crate::bytes::parse_i64(&v) {
                return Ok(n);
            }
        }
        // the value is itself an expression (or an octal/hex/base# number)
        self.eval_depth += 1;
        if self.eval_depth > super::MAX_EVAL_DEPTH {
            self.eval_depth -= 1;
            self.arith_error(&v, "expression recursion level exceeded", &v);
            return Err(Ctl::Abort(1));
        }
        let r = self.eval_arith_text(&v);
        self.eval_depth -= 1;
        r
    }

    fn arith_store(&mut self, target: &Arith, v: i64, text: &[u8]) -> R<()> {
        if let Arith::Var(name, sub) = target {
            let val = v.to_string().into_bytes();
            match sub {
                None => self.assign_scalar(name, None, val, false),
                Some(s) => {
                    let is_assoc = self
                        .vars
                        .get(name)
                        .map(|v| {
                            v.attrs & crate::state::A_ASSOC != 0
                                || matches!(v.value, Some(crate::state::Value::Assoc(_)))
                        })
                        .unwrap_or(false);
                    let idx_word = if is_assoc {
                        crate::ast::Word::lit(&arith_key(s))
                    } else {
                        let i = self.arith(s, text)?;
                        crate::ast::Word::lit(i.to_string().as_bytes())
                    };
                    self.assign_scalar(name, Some(&idx_word), val, false)
                }
            }
        } else {
            self.arith_error(text, "attempted assignment to non-variable", text);
            Err(Ctl::Abort(1))
        }
    }
}

/// Key text for an associative subscript written inside arithmetic.
fn arith_key(s: &Arith) -> Bytes {
    match s {
        Arith::Var(n, None) => n.clone(),
        Arith::Num(n) => n.to_string().into_bytes(),
        _ => Vec::new(),
    }
}
