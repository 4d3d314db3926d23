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

/// A simple command as bash shows it in `$BASH_COMMAND`: assignments, words,
/// then redirections written `2> file`, `1>&2`, `<<< word`.
pub fn simple_text(s: &Simple) -> Bytes {
    let mut items: Vec<Bytes> = Vec::new();
    for a in &s.assigns {
        let mut o = a.name.clone();
        if let Some(ix) = &a.index {
            o.push(b'[');
            o.extend_from_slice(&word_text(ix));
            o.push(b']');
        }
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
