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
