//! Turns words back into shell text (for messages such as "ambiguous redirect"
//! and xtrace of `(( ))`).

use crate::ast::*;

pub fn word_text(w: &Word) -> Bytes {
    let mut o = Vec::new();
    for p in &w.parts {
        part(p, &mut o);
    }
    o
}

fn part(p: &WordPart, o: &mut Bytes) {
    match p {
        WordPart::Lit(s) => o.extend_from_slice(s),
        WordPart::Quoted(s) => {
            o.push(b'\'');
            o.extend_from_slice(s);
            o.push(b'\'');
        }
        WordPart::Double(ps) => {
            o.push(b'"');
            for q in ps {
                part(q, o);
            }
            o.push(b'"');
        }
        WordPart::Param(pa) => {
            o.push(b'$');
            let simple =
                matches!(pa.op, ParamOp::None) && pa.index.is_none() && !pa.length && !pa.indirect;
            if !simple {
                o.push(b'{');
            }
            if pa.length {
                o.push(b'#');
            }
            if pa.indirect {
                o.push(b'!');
            }
            match &pa.name {
                ParamName::Var(n) => o.extend_from_slice(n),
                ParamName::Positional(n) => o.extend_from_slice(n.to_string().as_bytes()),
                ParamName::Special(c) => o.push(*c),
            }
            if let Some(ix) = &pa.index {
                o.push(b'[');
                o.extend_from_slice(&word_text(ix));
                o.push(b']');
            }
            if !simple {
                o.push(b'}');
            }
        }
        WordPart::Cmd(_, bq, src) => {
            o.extend_from_slice(if *bq { b"`" } else { b"$(" });
            o.extend_from_slice(&src.text);
            o.extend_from_slice(if *bq { b"`" } else { b")" });
        }
        WordPart::Arith(a) => {
            o.extend_from_slice(b"$((");
            o.extend_from_slice(&word_text(&a.word));
            o.extend_from_slice(b"))");
        }
        WordPart::Tilde(u) => {
            o.push(b'~');
            o.extend_from_slice(u);
        }
        WordPart::ProcSub(w, _, src) => {
            o.extend_from_slice(if *w { b">(" } else { b"<(" });
            o.extend_from_slice(&src.text);
            o.push(b')');
        }
    }
}

/// `name` or `name[sub]` of an assignment, as written.
pub fn assign_target(a: &Assign) -> Bytes {
    let mut o = a.name.clone();
    if let Some(ix) = &a.index {
        o.push(b'[');
        o.extend_from_slice(&word_text(ix));
        o.push(b']');
    }
    o
}

/// A simple command as bash shows it in `$BASH_COMMAND`: assignments, words,
/// then redirections written `2> file`, `1>&2`, `<<< word`.
pub fn simple_text(s: &Simple) -> Bytes {
    let mut items: Vec<Bytes> = Vec::new();
    for a in &s.assigns {
        let mut o = assign_target(a);
        o.extend_from_slice(if a.append { b"+=" } else { b"=" });
        match &a.value {
            AssignValue::Scalar(w) => o.extend_from_slice(&word_text(w)),
            AssignValue::Array(elems) => {
                o.push(b'(');
                for (i, (k, v)) in elems.iter().enumerate() {
                    if i > 0 {
                        o.push(b' ');
                    }
                    if let Some(k) = k {
                        o.push(b'[');
                        o.extend_from_slice(&word_text(k));
                        o.extend_from_slice(b"]=");
                    }
                    o.extend_from_slice(&word_text(v));
                }
                o.push(b')');
            }
        }
        items.push(o);
    }
    items.extend(s.words.iter().map(word_text));
    for r in &s.redirs {
        items.push(redir_text(r));
    }
    items.join(&b' ')
}

fn redir_text(r: &Redir) -> Bytes {
    let (default_fd, op): (i32, &[u8]) = match r.op {
        RedirOp::In => (0, b"<"),
        RedirOp::Out => (1, b">"),
        RedirOp::Append => (1, b">>"),
        RedirOp::Clobber => (1, b">|"),
        RedirOp::InOut => (0, b"<>"),
        RedirOp::DupIn => (0, b"<&"),
        RedirOp::DupOut => (1, b">&"),
        RedirOp::AndOut => (1, b"&>"),
        RedirOp::AndAppend => (1, b"&>>"),
        RedirOp::HereDoc => (0, b"<<"),
        RedirOp::HereStr => (0, b"<<<"),
    };
    let mut o = Vec::new();
    if let Some(v) = &r.var {
        o.push(b'{');
        o.extend_from_slice(v);
        o.push(b'}');
    } else if matches!(r.op, RedirOp::DupIn | RedirOp::DupOut) {
        o.extend_from_slice(r.fd.unwrap_or(default_fd).to_string().as_bytes());
    } else if let Some(fd) = r.fd.filter(|fd| *fd != default_fd) {
        o.extend_from_slice(fd.to_string().as_bytes());
    }
    o.extend_from_slice(op);
    match &r.heredoc {
        Some(h) => {
            let h = h.borrow();
            o.extend_from_slice(&h.delim);
        }
        None => {
            if !matches!(r.op, RedirOp::DupIn | RedirOp::DupOut) {
                o.push(b' ');
            }
            o.extend_from_slice(&word_text(&r.target));
        }
    }
    o
}

/// `declare -f` / `type` layout of a function whose body is a brace group
/// of plain commands (no compound commands, no `&`): bash's
/// `name () \n{ \n    cmd;\n    cmd\n}`. None for other bodies, which are
/// shown as written.
pub fn function_listing(name: &[u8], text: &[u8]) -> Option<Bytes> {
    let mut t = text;
    let skip_ws = |t: &[u8]| -> usize { t.iter().take_while(|c| c.is_ascii_whitespace()).count() };
    if let Some(r) = t.strip_prefix(b"function") {
        t = r;
    }
    t = &t[skip_ws(t)..];
    t = t.strip_prefix(name)?;
    t = &t[skip_ws(t)..];
    if let Some(r) = t.strip_prefix(b"()") {
        t = r;
    }
    t = &t[skip_ws(t)..];
    let mut end = t.len();
    while end > 0 && t[end - 1].is_ascii_whitespace() {
        end -= 1;
    }
    let body = t[..end].strip_prefix(b"{")?.strip_suffix(b"}")?;
    let cmds = split_commands(body)?;
    let mut o = name.to_vec();
    o.extend_from_slice(b" () \n{ \n");
    let n = cmds.len();
    for (i, c) in cmds.iter().enumerate() {
        o.extend_from_slice(b"    ");
        o.extend_from_slice(c);
        if i + 1 < n {
            o.push(b';');
        }
        o.push(b'\n');
    }
    o.extend_from_slice(b"}\n");
    Some(o)
}

/// The commands of a body split at top-level `;` and newlines, blanks
/// collapsed and comments dropped; None when a command is compound or runs
/// in the background (their layout is not reproduced).
fn split_commands(body: &[u8]) -> Option<Vec<Bytes>> {
    const COMPOUND: &[&[u8]] = &[
        b"if",
        b"for",
        b"while",
        b"until",
        b"case",
        b"select",
        b"{",
        b"(",
        b"[[",
        b"((",
        b"function",
        b"coproc",
        b"time",
    ];
    let mut cmds = Vec::new();
    let mut cur: Bytes = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    let finish = |cur: &mut Bytes, cmds: &mut Vec<Bytes>| -> Option<()> {
        while cur.last() == Some(&b' ') {
            cur.pop();
        }
        if !cur.is_empty() {
            let first = cur.split(|c| *c == b' ').next().unwrap_or(&[]);
            if COMPOUND.iter().any(|k| *k == first)
                || first.starts_with(b"((")
                || first.starts_with(b"(")
            {
                return None;
            }
            cmds.push(std::mem::take(cur));
        }
        Some(())
    };
    while i < body.len() {
        let c = body[i];
        match c {
            b'\\' => {
                cur.push(c);
                if let Some(&n) = body.get(i + 1) {
                    if n == b'\n' {
                        cur.pop();
                    } else {
                        cur.push(n);
                    }
                }
                i += 2;
                continue;
            }
            b'\'' => {
                let close = body[i + 1..].iter().position(|&x| x == b'\'')? + i + 1;
                cur.extend_from_slice(&body[i..=close]);
                i = close + 1;
                continue;
            }
            b'"' | b'`' => {
                let mut j = i + 1;
                while j < body.len() && body[j] != c {
                    if body[j] == b'\\' {
                        j += 1;
                    }
                    j += 1;
                }
                if j >= body.len() {
                    return None;
                }
                cur.extend_from_slice(&body[i..=j]);
                i = j + 1;
                continue;
            }
            b'(' | b'{' if i > 0 && body[i - 1] == b'$' => depth += 1,
            b'(' if depth > 0 => depth += 1,
            b')' | b'}' if depth > 0 => depth -= 1,
            b'#' if depth == 0 && (cur.is_empty() || cur.last() == Some(&b' ')) => {
                while i < body.len() && body[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'&' if depth == 0 => {
                let prev = if i > 0 { body[i - 1] } else { 0 };
                let next = body.get(i + 1).copied().unwrap_or(0);
                if prev != b'&' && next != b'&' && prev != b'>' && prev != b'<' && next != b'>' {
                    return None;
                }
            }
            b';' | b'\n' if depth == 0 => {
                if body.get(i + 1) == Some(&b';') {
                    return None;
                }
                finish(&mut cur, &mut cmds)?;
                i += 1;
                continue;
            }
            b' ' | b'\t' if depth == 0 => {
                if !cur.is_empty() && cur.last() != Some(&b' ') {
                    cur.push(b' ');
                }
                i += 1;
                continue;
            }
            _ => {}
        }
        cur.push(c);
        i += 1;
    }
    if depth != 0 {
        return None;
    }
    finish(&mut cur, &mut cmds)?;
    Some(cmds)
}
