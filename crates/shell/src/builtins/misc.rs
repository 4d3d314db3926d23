//! Other builtins: type, command, builtin, hash, alias, unalias, getopts,
//! test/[, umask, ulimit, help, enable, history, compgen, caller; and prompt
//! expansion (`\u \h \w \W \$ ...`).

use crate::ast::Bytes;
use crate::eval::{Ctl, Shell, R};

const UNARY_OPS: &[&[u8]] = &[
    b"-a", b"-b", b"-c", b"-d", b"-e", b"-f", b"-g", b"-h", b"-k", b"-p", b"-r", b"-s", b"-t",
    b"-u", b"-w", b"-x", b"-G", b"-L", b"-N", b"-O", b"-S", b"-z", b"-n", b"-o", b"-v", b"-R",
];
const BINARY_OPS: &[&[u8]] = &[
    b"=", b"==", b"!=", b"<", b">", b"-eq", b"-ne", b"-lt", b"-le", b"-gt", b"-ge", b"-nt", b"-ot",
    b"-ef",
];

struct TestErr(Bytes);

/// `ulimit` resources in bash's `-a` order: option, label, the limit a
/// sandbox starts with (None: unlimited; the usual Linux defaults).
const ULIMITS: &[(u8, &str, Option<u64>)] = &[
    (
        b'R',
        "real-time non-blocking time  (microseconds, -R)",
        None,
    ),
    (b'c', "core file size              (blocks, -c)", Some(0)),
    (b'd', "data seg size               (kbytes, -d)", None),
    (b'e', "scheduling priority                 (-e)", Some(0)),
    (b'f', "file size                   (blocks, -f)", None),
    (b'i', "pending signals                     (-i)", None),
    (b'l', "max locked memory           (kbytes, -l)", Some(8192)),
    (b'm', "max memory size             (kbytes, -m)", None),
    (b'n', "open files                          (-n)", Some(1024)),
    (b'p', "pipe size                (512 bytes, -p)", Some(8)),
    (
        b'q',
        "POSIX message queues         (bytes, -q)",
        Some(819200),
    ),
    (b'r', "real-time priority                  (-r)", Some(0)),
    (b's', "stack size                  (kbytes, -s)", Some(8192)),
    (b't', "cpu time                   (seconds, -t)", None),
    (b'u', "max user processes                  (-u)", None),
    (b'v', "virtual memory              (kbytes, -v)", None),
    (b'x', "file locks                          (-x)", None),
];

impl Shell {
    pub fn b_test(&mut self, args: &[Bytes], bracket: bool) {
        let name = if bracket { "[" } else { "test" };
        let mut args = args.to_vec();
        if bracket {
            if args.last().map(|a| a != b"]").unwrap_or(true) {
                self.berr("[", b"missing `]'");
                self.status = 2;
                return;
            }
            args.pop();
        }
        let r = self.test_expr(&args);
        self.status = match r {
            Ok(true) => 0,
            Ok(false) => 1,
            Err(TestErr(m)) => {
                if !m.is_empty() {
                    self.berr(name, &m);
                }
                2
            }
        };
    }

    fn test_expr(&mut self, a: &[Bytes]) -> Result<bool, TestErr> {
        match a.len() {
            0 => Ok(false),
            1 => Ok(!a[0].is_empty()),
            2 => {
                if a[0] == b"!" {
                    return Ok(a[1].is_empty());
                }
                if UNARY_OPS.contains(&a[0].as_slice()) {
                    return Ok(self.unary_test(&a[0], &a[1]));
                }
                let mut m = a[0].clone();
                m.extend_from_slice(b": unary operator expected");
                Err(TestErr(m))
            }
            3 => {
                if BINARY_OPS.contains(&a[1].as_slice()) {
                    return self
                        .binary_test(&a[1], &a[0], &a[2], false)
                        .map_err(TestErr);
                }
                if a[1] == b"-a" {
                    return Ok(!a[0].is_empty() && !a[2].is_empty());
                }
                if a[1] == b"-o" {
                    return Ok(!a[0].is_empty() || !a[2].is_empty());
                }
                if a[0] == b"!" {
                    return self.test_expr(&a[1..]).map(|b| !b);
                }
                if a[0] == b"(" && a[2] == b")" {
                    return Ok(!a[1].is_empty());
                }
                let mut m = a[1].clone();
                m.extend_from_slice(b": binary operator expected");
                Err(TestErr(m))
            }
            4 if a[0] == b"!" => self.test_expr(&a[1..]).map(|b| !b),
            4 if a[0] == b"(" && a[3] == b")" => self.test_expr(&a[1..3]),
            _ => {
                let mut i = 0;
                let r = self.test_or(a, &mut i)?;
                if i < a.len() {
                    return Err(TestErr(b"too many arguments".to_vec()));
                }
                Ok(r)
            }
        }
    }

    fn test_or(&mut self, a: &[Bytes], i: &mut usize) -> Result<bool, TestErr> {
        let mut l = self.test_and(a, i)?;
        while *i < a.len() && a[*i] == b"-o" {
            *i += 1;
            let r = self.test_and(a, i)?;
            l = l || r;
        }
        Ok(l)
    }

    fn test_and(&mut self, a: &[Bytes], i: &mut usize) -> Result<bool, TestErr> {
        let mut l = self.test_prim(a, i)?;
        while *i < a.len() && a[*i] == b"-a" {
            *i += 1;
            let r = self.test_prim(a, i)?;
            l = l && r;
        }
        Ok(l)
    }

    fn test_prim(&mut self, a: &[Bytes], i: &mut usize) -> Result<bool, TestErr> {
        if *i >= a.len() {
            return Err(TestErr(b"argument expected".to_vec()));
        }
        if a[*i] == b"!" {
            *i += 1;
            return self.test_prim(a, i).map(|b| !b);
        }
        if a[*i] == b"(" {
            *i += 1;
            let r = self.test_or(a, i)?;
            if *i >= a.len() || a[*i] != b")" {
                return Err(TestErr(b"`)' expected".to_vec()));
            }
            *i += 1;
            return Ok(r);
        }
        if *i + 2 < a.len() && BINARY_OPS.contains(&a[*i + 1].as_slice()) {
            let r = self
                .binary_test(&a[*i + 1], &a[*i], &a[*i + 2], false)
                .map_err(TestErr)?;
            *i += 3;
            return Ok(r);
        }
        if UNARY_OPS.contains(&a[*i].as_slice()) && *i + 1 < a.len() {
            let r = self.unary_test(&a[*i], &a[*i + 1]);
            *i += 2;
            return Ok(r);
        }
        let r = !a[*i].is_empty();
        *i += 1;
        Ok(r)
    }

    /// Every executable file called `name` in the directories of PATH.
    fn path_matches(&mut self, name: &[u8]) -> Vec<Bytes> {
        let path = self.get_var(b"PATH").unwrap_or_default();
        let mut found = Vec::new();
        for dir in path.split(|c| *c == b':') {
            let mut p = if dir.is_empty() {
                b".".to_vec()
            } else {
                dir.to_vec()
            };
            p.push(b'/');
            p.extend_from_slice(name);
            if crate::fsx::stat(&p).map_or(false, |m| m.is_file()) && self.sys.executable(&p) {
                found.push(p);
            }
        }
        found
    }

    pub fn b_type(&mut self, args: &[Bytes]) {
        self.describe_names(args, "type")
    }

    /// `type` and `command -V` (which names itself in its errors).
    fn describe_names(&mut self, args: &[Bytes], who: &str) {
        let mut tflag = false;
        let mut all = false;
        let mut path_only = false;
        let mut force_path = false;
        let mut names = Vec::new();
        for a in args {
            if a.len() > 1 && a[0] == b'-' {
                for c in &a[1..] {
                    match c {
                        b't' => tflag = true,
                        b'a' => all = true,
                        b'p' => path_only = true,
                        b'P' => {
                            path_only = true;
                            force_path = true;
                        }
                        b'f' => {}
                        _ => {}
                    }
                }
            } else {
                names.push(a.clone());
            }
        }
        let mut st = 0;
        for n in names {
            let mut found = false;
            let mut out = Vec::new();
            if !force_path {
                // bash's type and command -v see aliases only where they expand
                let aliases_on = self.opts.expand_aliases || self.opts.interactive;
                if let Some(a) = self.aliases.get(&n).filter(|_| aliases_on) {
                    found = true;
                    if tflag {
                        out.extend_from_slice(b"alias\n");
                    } else {
                        out.extend_from_slice(&n);
                        out.extend_from_slice(b" is aliased to `");
                        out.extend_from_slice(a);
                        out.extend_from_slice(b"'\n");
                    }
                }
                if (!found || all) && crate::eval::exec::is_keyword(&n) {
                    found = true;
                    if tflag {
                        out.extend_from_slice(b"keyword\n");
                    } else {
                        out.extend_from_slice(&n);
                        out.extend_from_slice(b" is a shell keyword\n");
                    }
                }
                if !found || all {
                    if let Some(f) = self.funcs.get(&n).cloned() {
                        found = true;
                        if tflag {
                            out.extend_from_slice(b"function\n");
                        } else {
                            out.extend_from_slice(&n);
                            out.extend_from_slice(b" is a function\n");
                            out.extend_from_slice(&self.function_text(&n, &f));
                        }
                    }
                }
                if (!found || all) && self.builtin_on(&n) {
                    found = true;
                    if tflag {
                        out.extend_from_slice(b"builtin\n");
                    } else {
                        out.extend_from_slice(&n);
                        out.extend_from_slice(b" is a shell builtin\n");
                    }
                }
            }
            if path_only && found && !force_path {
                // `type -p` names files only: nothing for a builtin or function
                out.clear();
            } else if !found || all || force_path {
                // hashed only if an earlier command found it (not this lookup)
                let hashed = self.hash.contains_key(&n) && !n.contains(&b'/');
                let paths: Vec<Bytes> = if all && !n.contains(&b'/') {
                    self.path_matches(&n)
                } else {
                    self.lookup_command(&n, false)
                        .filter(|p| self.sys.executable(p))
                        .into_iter()
                        .collect()
                };
                for (k, p) in paths.iter().enumerate() {
                    found = true;
                    if tflag {
                        out.extend_from_slice(b"file\n");
                    } else if path_only {
                        out.extend_from_slice(p);
                        out.push(b'\n');
                    } else {
                        out.extend_from_slice(&n);
                        if hashed && k == 0 {
                            out.extend_from_slice(b" is hashed (");
                            out.extend_from_slice(p);
                            out.push(b')');
                        } else {
                            out.extend_from_slice(b" is ");
                            out.extend_from_slice(p);
                        }
                        out.push(b'\n');
                    }
                }
            }
            if !found {
                st = 1;
                if !tflag && !path_only {
                    let mut m = n.clone();
                    m.extend_from_slice(b": not found");
                    self.berr(who, &m);
                }
            }
            self.write_fd(1, &out);
        }
        self.status = st;
    }

    pub fn b_command(&mut self, args: &[Bytes]) -> R<()> {
        let mut i = 0;
        let mut describe = 0;
        while i < args.len() && args[i].len() > 1 && args[i][0] == b'-' {
            if args[i] == b"--" {
                i += 1;
                break;
            }
            for c in &args[i][1..] {
                match c {
                    b'v' => describe = 1,
                    b'V' => describe = 2,
                    b'p' => {}
                    _ => {
                        self.berr(
                            "command",
                            format!("-{}: invalid option", *c as char).as_bytes(),
                        );
                        self.status = 2;
                        return Ok(());
                    }
                }
            }
            i += 1;
        }
        let rest = &args[i..];
        if rest.is_empty() {
            self.status = 0;
            return Ok(());
        }
        if describe > 0 {
            // success when any name was found
            let mut st = 1;
            for n in rest {
                if describe == 2 {
                    self.describe_names(std::slice::from_ref(n), "command");
                    if self.status == 0 {
                        st = 0;
                    }
                    continue;
                }
                let mut out = Vec::new();
                if self.aliases.contains_key(n)
                    && (self.opts.expand_aliases || self.opts.interactive)
                {
                    out.extend_from_slice(b"alias ");
                    out.extend_from_slice(n);
                    out.push(b'=');
                    out.extend_from_slice(&super::quote_q(&self.aliases[n]));
                } else if self.funcs.contains_key(n)
                    || self.builtin_on(n)
                    || crate::eval::exec::is_keyword(n)
                {
                    out.extend_from_slice(n);
                } else if let Some(p) = self.lookup_command(n, false) {
                    if self.sys.executable(&p) {
                        out.extend_from_slice(&p);
                    }
                }
                if !out.is_empty() {
                    st = 0;
                    out.push(b'\n');
                    self.write_fd(1, &out);
                }
            }
            self.status = st;
            return Ok(());
        }
        if self.builtin_on(&rest[0]) {
            return self.run_builtin(rest);
        }
        // external only (functions skipped)
        let path = match self.find_command(&rest[0]) {
            Some(p) => p,
            None => {
                let mut m = rest[0].clone();
                m.extend_from_slice(b": command not found");
                self.err(&m);
                self.status = 127;
                return Ok(());
            }
        };
        match self.spawn_external(&path, rest, &[]) {
            Ok(pid) => self.status = self.wait_pid(pid),
            Err(e) => {
                let mut m = rest[0].clone();
                m.extend_from_slice(b": ");
                m.extend_from_slice(crate::sys::strerror(e).as_bytes());
                self.err(&m);
                self.status = 126;
            }
        }
        Ok(())
    }

    pub fn b_builtin(&mut self, args: &[Bytes]) -> R<()> {
        if args.is_empty() {
            self.status = 0;
            return Ok(());
        }
        if !self.builtin_on(&args[0]) {
            let mut m = args[0].clone();
            m.extend_from_slice(b": not a shell builtin");
            self.berr("builtin", &m);
            self.status = 1;
            return Ok(());
        }
        self.run_builtin(args)
    }

    /// `hash [-lr] [-p path] [-dt] [name ...]`: the table of PATH lookups.
    pub fn b_hash(&mut self, args: &[Bytes]) {
        let (mut list, mut reset, mut delete, mut show) = (false, false, false, false);
        let mut set_path: Option<Bytes> = None;
        let mut i = 0;
        while i < args.len() && args[i].len() > 1 && args[i][0] == b'-' {
            if args[i] == b"--" {
                i += 1;
                break;
            }
            let a = args[i].clone();
            for (k, &o) in a.iter().enumerate().skip(1) {
                match o {
                    b'l' => list = true,
                    b'r' => reset = true,
                    b'd' => delete = true,
                    b't' => show = true,
                    b'p' => {
                        if k + 1 < a.len() {
                            set_path = Some(a[k + 1..].to_vec());
                        } else {
                            i += 1;
                            match args.get(i) {
                                Some(p) => set_path = Some(p.clone()),
                                None => {
                                    self.berr("hash", b"-p: option requires an argument");
                                    self.status = 2;
                                    return;
                                }
                            }
                        }
                        break;
                    }
                    _ => {
                        self.invalid_option(
                            "hash",
                            o,
                            b"hash: usage: hash [-lr] [-p pathname] [-dt] [name ...]\n",
                        );
                        return;
                    }
                }
            }
            i += 1;
        }
        let names = &args[i..];
        if reset {
            self.hash.clear();
            self.hash_hits.clear();
        }
        if !self.opts.hashall {
            self.berr("hash", b"hashing disabled");
            self.status = 1;
            return;
        }
        if delete && self.hash.is_empty() {
            // bash: nothing to delete from an empty table is no error
            self.status = 0;
            return;
        }
        let mut st = 0;
        if names.is_empty() {
            if reset || set_path.is_some() {
                self.status = 0;
                return;
            }
            if self.hash.is_empty() {
                // bash prints this one on stdout, without its line prefix.
                self.write_fd(1, b"hash: hash table empty\n");
                self.status = 0;
                return;
            }
            let mut keys: Vec<Bytes> = self.hash.keys().cloned().collect();
            keys.sort();
            let mut out = if list {
                Vec::new()
            } else {
                b"hits\tcommand\n".to_vec()
            };
            for k in keys {
                let p = self.hash[&k].clone();
                if list {
                    out.extend_from_slice(b"builtin hash -p ");
                    out.extend_from_slice(&p);
                    out.push(b' ');
                    out.extend_from_slice(&k);
                } else {
                    let hits = self.hash_hits.get(&k).copied().unwrap_or(0);
                    out.extend_from_slice(format!("{:4}\t", hits).as_bytes());
                    out.extend_from_slice(&p);
                }
                out.push(b'\n');
            }
            self.write_fd(1, &out);
            self.status = 0;
            return;
        }
        let many = names.len() > 1;
        for n in names {
            if let Some(p) = &set_path {
                self.hash.insert(n.clone(), p.clone());
                self.hash_hits.insert(n.clone(), 0);
                continue;
            }
            if delete {
                if self.hash.remove(n).is_none() {
                    let mut m = n.clone();
                    m.extend_from_slice(b": not found");
                    self.berr("hash", &m);
                    st = 1;
                }
                self.hash_hits.remove(n);
                continue;
            }
            if show || list {
                match self.hash.get(n).cloned() {
                    Some(p) => {
                        let mut o = Vec::new();
                        if list {
                            o.extend_from_slice(b"builtin hash -p ");
                            o.extend_from_slice(&p);
                            o.push(b' ');
                            o.extend_from_slice(n);
                        } else {
                            if many {
                                o.extend_from_slice(n);
                                o.push(b'\t');
                            }
                            o.extend_from_slice(&p);
                        }
                        o.push(b'\n');
                        self.write_fd(1, &o);
                    }
                    None => {
                        let mut m = n.clone();
                        m.extend_from_slice(b": not found");
                        self.berr("hash", &m);
                        st = 1;
                    }
                }
                continue;
            }
            if n.contains(&b'/') || self.funcs.contains_key(n.as_slice()) || self.builtin_on(n) {
                continue;
            }
            // `hash name` looks the name up afresh and starts its count at 0.
            self.hash.remove(n);
            match self.find_command(n) {
                Some(p) if self.sys.executable(&p) => {
                    self.hash_hits.insert(n.clone(), 0);
                }
                _ => {
                    self.hash.remove(n);
                    let mut m = n.clone();
                    m.extend_from_slice(b": not found");
                    self.berr("hash", &m);
                    st = 1;
                }
            }
        }
        self.status = st;
    }

    pub fn b_alias(&mut self, args: &[Bytes]) {
        let mut i = 0;
        let mut print = false;
        while let Some(a) = args.get(i) {
            match a.as_slice() {
                b"-p" => print = true,
                b"--" => {
                    i += 1;
                    break;
                }
                _ => break,
            }
            i += 1;
        }
        let args = &args[i..];
        if args.is_empty() || print {
            let mut keys: Vec<&Bytes> = self.aliases.keys().collect();
            keys.sort();
            let mut out = Vec::new();
            for k in keys {
                out.extend_from_slice(&alias_line(k, &self.aliases[k]));
            }
            self.write_fd(1, &out);
            self.status = 0;
        }
        let mut st = 0;
        for a in args {
            // `=x` names no alias to define: it is looked up
            match a.iter().position(|c| *c == b'=').filter(|p| *p > 0) {
                Some(p)
                    if a[..p].iter().any(|c| {
                        matches!(
                            c,
                            b' ' | b'\t'
                                | b'\n'
                                | b'/'
                                | b'$'
                                | b'`'
                                | b'='
                                | b'|'
                                | b'&'
                                | b';'
                                | b'('
                                | b')'
                                | b'<'
                                | b'>'
                                | b'\''
                                | b'"'
                                | b'\\'
                        )
                    }) =>
                {
                    let mut m = b"`".to_vec();
                    m.extend_from_slice(&a[..p]);
                    m.extend_from_slice(b"': invalid alias name");
                    self.berr("alias", &m);
                    st = 1;
                }
                Some(p) => {
                    self.aliases.insert(a[..p].to_vec(), a[p + 1..].to_vec());
                }
                None => match self.aliases.get(a.as_slice()) {
                    Some(v) => {
                        let out = alias_line(a, v);
                        self.write_fd(1, &out);
                    }
                    None => {
                        let mut m = a.clone();
                        m.extend_from_slice(b": not found");
                        self.berr("alias", &m);
                        st = 1;
                    }
                },
            }
        }
        self.status = st;
    }

    pub fn b_unalias(&mut self, args: &[Bytes]) {
        let usage = b"unalias: usage: unalias [-a] name [name ...]\n";
        let mut all = false;
        let mut i = 0;
        while let Some(a) = args.get(i) {
            if a == b"--" {
                i += 1;
                break;
            }
            if a.len() < 2 || a[0] != b'-' {
                break;
            }
            if a == b"-a" {
                all = true;
            } else {
                let mut m = a.clone();
                m.extend_from_slice(b": invalid option");
                self.berr("unalias", &m);
                self.write_fd(2, usage);
                self.status = 2;
                return;
            }
            i += 1;
        }
        if all {
            // -a removes every alias; names after it are not looked at
            self.aliases.clear();
            self.status = 0;
            return;
        }
        if i >= args.len() {
            self.write_fd(2, usage);
            self.status = 2;
            return;
        }
        let mut st = 0;
        for a in &args[i..] {
            if self.aliases.remove(a.as_slice()).is_none() {
                let mut m = a.clone();
                m.extend_from_slice(b": not found");
                self.berr("unalias", &m);
                st = 1;
            }
        }
        self.status = st;
    }

    pub fn b_getopts(&mut self, args: &[Bytes]) -> R<()> {
        if args.len() < 2 {
            self.write_fd(2, b"getopts: usage: getopts optstring name [arg ...]\n");
            self.status = 2;
            return Ok(());
        }
        let spec = args[0].clone();
        let name = args[1].clone();
        if !crate::parse::is_name(&name) {
            let mut m = b"`".to_vec();
            m.extend_from_slice(&name);
            m.extend_from_slice(b"': not a valid identifier");
            self.berr("getopts", &m);
            self.status = 1;
            return Ok(());
        }
        let params: Vec<Bytes> = if args.len() > 2 {
            args[2..].to_vec()
        } else {
            self.positional.clone()
        };
        let silent = spec.first() == Some(&b':');
        let spec = if silent { spec[1..].to_vec() } else { spec };
        let mut optind = self
            .get_var(b"OPTIND")
            .and_then(|v| crate::bytes::parse_i64(&v))
            .unwrap_or(1)
            .max(1) as usize;
        if optind == 1 && self.getopts_sub > 0 && self.last_optind != 1 {
            self.getopts_sub = 0;
        }
        let done = |sh: &mut Shell, optind: usize| -> R<()> {
            sh.assign_scalar(&name, None, b"?".to_vec(), false)?;
            sh.set_var(b"OPTIND", optind.to_string().into_bytes());
            sh.last_optind = optind;
            sh.getopts_sub = 0;
            sh.status = 1;
            Ok(())
        };
        if optind > params.len() {
            // past the end (a stale OPTIND): bash leaves it just past the last
            return done(self, params.len() + 1);
        }
        let arg = params[optind - 1].clone();
        if self.getopts_sub == 0 {
            if arg.len() < 2 || arg[0] != b'-' {
                return done(self, optind);
            }
            if arg == b"--" {
                return done(self, optind + 1);
            }
            self.getopts_sub = 1;
        }
        let c = arg[self.getopts_sub];
        self.getopts_sub += 1;
        let at_end = self.getopts_sub >= arg.len();
        // OPTERR=0 silences the messages (only a leading `:` changes OPTARG)
        let opterr = self.get_var(b"OPTERR").map_or(true, |v| v != b"0");
        let pos = spec.iter().position(|x| *x == c && c != b':');
        match pos {
            None => {
                if silent {
                    self.set_var(b"OPTARG", vec![c]);
                } else {
                    let m = format!(
                        "{}: illegal option -- {}\n",
                        String::from_utf8_lossy(&self.err_name),
                        c as char
                    );
                    if opterr {
                        self.write_fd(2, m.as_bytes());
                    }
                    self.vars.unset(b"OPTARG");
                }
                self.assign_scalar(&name, None, b"?".to_vec(), false)?;
            }
            Some(p) => {
                let needs = spec.get(p + 1) == Some(&b':');
                if needs {
                    if !at_end {
                        self.set_var(b"OPTARG", arg[self.getopts_sub..].to_vec());
                        self.getopts_sub = arg.len();
                    } else if optind < params.len() {
                        self.set_var(b"OPTARG", params[optind].clone());
                        optind += 1;
                    } else {
                        if silent {
                            self.set_var(b"OPTARG", vec![c]);
                            self.assign_scalar(&name, None, b":".to_vec(), false)?;
                        } else {
                            let m = format!(
                                "{}: option requires an argument -- {}\n",
                                String::from_utf8_lossy(&self.err_name),
                                c as char
                            );
                            if opterr {
                                self.write_fd(2, m.as_bytes());
                            }
                            self.vars.unset(b"OPTARG");
                            self.assign_scalar(&name, None, b"?".to_vec(), false)?;
                        }
                        self.getopts_sub = 0;
                        optind += 1;
                        self.set_var(b"OPTIND", optind.to_string().into_bytes());
                        self.last_optind = optind;
                        self.status = 0;
                        return Ok(());
                    }
                    self.getopts_sub = arg.len();
                } else {
                    self.vars.unset(b"OPTARG");
                }
                self.assign_scalar(&name, None, vec![c], false)?;
            }
        }
        if self.getopts_sub >= arg.len() {
            self.getopts_sub = 0;
            optind += 1;
        }
        self.set_var(b"OPTIND", optind.to_string().into_bytes());
        self.last_optind = optind;
        self.status = 0;
        Ok(())
    }

    pub fn b_umask(&mut self, args: &[Bytes]) {
        let mut symbolic = false;
        let mut reusable = false;
        let mut i = 0;
        while let Some(a) = args.get(i) {
            if a.len() < 2 || a[0] != b'-' {
                break;
            }
            i += 1;
            if a == b"--" {
                break;
            }
            for &c in &a[1..] {
                match c {
                    b'S' => symbolic = true,
                    b'p' => reusable = true,
                    _ => {
                        self.invalid_option("umask", c, b"umask: usage: umask [-p] [-S] [mode]\n");
                        return;
                    }
                }
            }
        }
        self.status = 0;
        if let Some(m) = args.get(i) {
            let cur = self.sys.umask(-1) as u32;
            let new = if m.first().map_or(false, |c| c.is_ascii_digit()) {
                match u32::from_str_radix(&String::from_utf8_lossy(m), 8) {
                    Ok(v) if v <= 0o777 => Ok(v),
                    _ => {
                        let mut msg = m.clone();
                        msg.extend_from_slice(b": octal number out of range");
                        Err(msg)
                    }
                }
            } else {
                symbolic_umask(cur, m)
            };
            match new {
                Ok(v) => {
                    self.sys.umask(v as i32);
                    if !symbolic {
                        return;
                    }
                }
                Err(msg) => {
                    self.berr("umask", &msg);
                    self.status = 1;
                    return;
                }
            }
        }
        let cur = self.sys.umask(-1) as u32;
        let mut line = String::new();
        if reusable {
            line.push_str(if symbolic { "umask -S " } else { "umask " });
        }
        if symbolic {
            let p = |bits: u32| -> String {
                let allowed = !bits & 7;
                [(4, 'r'), (2, 'w'), (1, 'x')]
                    .iter()
                    .filter(|(b, _)| allowed & b != 0)
                    .map(|(_, c)| *c)
                    .collect()
            };
            put(
                &mut line,
                format_args!("u={},g={},o={}", p(cur >> 6), p(cur >> 3), p(cur)),
            );
        } else {
            put(&mut line, format_args!("{:04o}", cur));
        }
        line.push('\n');
        self.write_fd(1, line.as_bytes());
    }

    /// `ulimit`: the sandbox enforces none of these, but the shell keeps
    /// the values set (and subshells theirs), so scripts read back theirs.
    pub fn b_ulimit(&mut self, args: &[Bytes]) {
        let mut which: Vec<u8> = Vec::new();
        let mut value: Option<&Bytes> = None;
        for a in args {
            if a.len() > 1 && a[0] == b'-' {
                which.extend(a[1..].iter().filter(|c| !matches!(c, b'S' | b'H')));
            } else {
                value = Some(a);
            }
        }
        if which.contains(&b'a') {
            which = ULIMITS.iter().map(|u| u.0).collect();
        } else if which.is_empty() {
            which.push(b'f');
        }
        if let Some(v) = value {
            let limit = match v.as_slice() {
                b"unlimited" | b"hard" | b"soft" => None,
                n => match crate::bytes::parse_i64(n).filter(|n| *n >= 0) {
                    Some(n) => Some(n as u64),
                    None => {
                        let mut m = v.clone();
                        m.extend_from_slice(b": invalid number");
                        self.berr("ulimit", &m);
                        self.status = 1;
                        return;
                    }
                },
            };
            for c in which {
                self.limits.insert(c, limit);
            }
            self.status = 0;
            return;
        }
        let mut out = Vec::new();
        for c in &which {
            let (label, default) = ULIMITS
                .iter()
                .find(|u| u.0 == *c)
                .map_or(("", None), |u| (u.1, u.2));
            let v = match self.limits.get(c) {
                Some(v) => *v,
                None => default,
            };
            let v = v.map_or_else(|| "unlimited".to_string(), |n| n.to_string());
            // several limits are labelled, one is shown bare
            if which.len() > 1 {
                out.extend_from_slice(label.as_bytes());
                out.push(b' ');
            }
            out.extend_from_slice(v.as_bytes());
            out.push(b'\n');
        }
        self.write_fd(1, &out);
        self.status = 0;
    }

    pub fn b_help(&mut self, args: &[Bytes]) {
        use super::help_topics::HELP_TOPICS;
        let mut form = b'f';
        let mut i = 0;
        while let Some(a) = args.get(i) {
            if a == b"--" {
                i += 1;
                break;
            }
            if a.len() < 2 || a[0] != b'-' {
                break;
            }
            for &c in &a[1..] {
                match c {
                    b'd' | b's' | b'm' => form = c,
                    _ => {
                        self.invalid_option("help", c, b"help: usage: help [-dms] [pattern ...]\n");
                        return;
                    }
                }
            }
            i += 1;
        }
        let pats = &args[i..];
        if pats.is_empty() {
            let mut out = b"GNU bash, version 5.2.15(1)-release (wasm32-sandglass)\nThese shell commands are defined internally.  Type `help' to see this list.\nType `help name' to find out more about the function `name'.\n\n".to_vec();
            for (_, syn, _) in HELP_TOPICS {
                out.extend_from_slice(syn.as_bytes());
                out.push(b'\n');
            }
            self.write_fd(1, &out);
            self.status = 0;
            return;
        }
        let mode = crate::eval::pattern::MatchMode {
            nocase: false,
            extglob: false,
            dotglob: true,
        };
        let mut out = Vec::new();
        let mut found = false;
        for p in pats {
            if crate::eval::pattern::pattern_is_glob(p) {
                out.extend_from_slice(b"Shell commands matching keyword `");
                out.extend_from_slice(p);
                out.extend_from_slice(b"'\n\n");
            }
            // bash shows the topic of that name, else those it prefixes or matches
            let exact = HELP_TOPICS.iter().any(|t| t.0.as_bytes() == p.as_slice());
            for (topic, syn, desc) in HELP_TOPICS {
                let t = topic.as_bytes();
                let hit = if exact {
                    t == p.as_slice()
                } else {
                    t.starts_with(p) || crate::eval::pattern::pat_match(p, t, mode)
                };
                if !hit {
                    continue;
                }
                found = true;
                let line = match form {
                    b's' => format!("{}: {}\n", topic, syn),
                    b'd' => format!("{} - {}\n", topic, desc),
                    b'm' => format!(
                        "NAME\n    {} - {}\n\nSYNOPSIS\n    {}\n\n",
                        topic, desc, syn
                    ),
                    _ => format!("{}: {}\n    {}\n", topic, syn, desc),
                };
                out.extend_from_slice(line.as_bytes());
            }
        }
        self.write_fd(1, &out);
        self.status = 0;
        if !found {
            let p = pats.last().cloned().unwrap_or_default();
            let mut m = b"no help topics match `".to_vec();
            m.extend_from_slice(&p);
            m.extend_from_slice(b"'.  Try `help help' or `man -k ");
            m.extend_from_slice(&p);
            m.extend_from_slice(b"' or `info ");
            m.extend_from_slice(&p);
            m.extend_from_slice(b"'.");
            self.berr("help", &m);
            self.status = 1;
        }
    }

    pub fn b_enable(&mut self, args: &[Bytes]) {
        let mut off = false;
        let mut all = false;
        let mut special = false;
        let mut i = 0;
        while let Some(a) = args.get(i) {
            if a == b"--" {
                i += 1;
                break;
            }
            if a.len() < 2 || a[0] != b'-' {
                break;
            }
            for &c in &a[1..] {
                match c {
                    b'n' => off = true,
                    b'a' => all = true,
                    b's' => special = true,
                    b'p' => {}
                    _ => {
                        self.invalid_option(
                            "enable",
                            c,
                            b"enable: usage: enable [-a] [-dnps] [-f filename] [name ...]\n",
                        );
                        return;
                    }
                }
            }
            i += 1;
        }
        let names = &args[i..];
        self.status = 0;
        if names.is_empty() {
            // list: enabled ones, disabled ones (-n) or all (-a)
            let mut out = Vec::new();
            for b in super::BUILTINS {
                let is_off = self.disabled.contains(b.as_bytes());
                if (special && !super::is_special(b.as_bytes())) || (!all && is_off != off) {
                    continue;
                }
                out.extend_from_slice(if is_off { b"enable -n " } else { b"enable " });
                out.extend_from_slice(b.as_bytes());
                out.push(b'\n');
            }
            self.write_fd(1, &out);
            return;
        }
        for n in names {
            if !super::is_builtin(n) {
                let mut m = n.clone();
                m.extend_from_slice(b": not a shell builtin");
                self.berr("enable", &m);
                self.status = 1;
            } else if off {
                self.disabled.insert(n.clone());
            } else {
                self.disabled.remove(n.as_slice());
            }
        }
    }

    pub fn b_history(&mut self, name: &str, args: &[Bytes]) {
        if name == "history" && args.first().map_or(false, |a| a == b"-d") {
            let len = self.history.len() as i64;
            let ok = args
                .get(1)
                .and_then(|a| crate::bytes::parse_i64(a))
                .filter(|n| *n != 0 && n.abs() <= len);
            self.status = 0;
            if ok.is_none() {
                let mut m = args.get(1).cloned().unwrap_or_default();
                m.extend_from_slice(b": history position out of range");
                self.berr("history", &m);
                self.status = 1;
            }
            return;
        }
        if name == "fc" && self.history.is_empty() && args.iter().any(|a| a == b"-l") {
            // nothing to list
            self.status = 0;
            return;
        }
        if name == "history" {
            let mut out = Vec::new();
            for (i, h) in self.history.iter().enumerate() {
                out.extend_from_slice(format!("{:5}  ", i + 1).as_bytes());
                out.extend_from_slice(h);
                out.push(b'\n');
            }
            self.write_fd(1, &out);
            self.status = 0;
        } else {
            self.berr("fc", b"history specification out of range");
            self.status = 1;
        }
    }

    /// Candidates for completion of a given kind.
    pub fn completions(&mut self, kind: &[u8], prefix: &[u8]) -> Vec<Bytes> {
        let mut out = Vec::new();
        match kind {
            b"builtin" => out.extend(super::BUILTINS.iter().map(|b| b.as_bytes().to_vec())),
            b"keyword" => {
                // bash's reserved-word table order
                return super::complete::KEYWORDS
                    .iter()
                    .filter(|k| k.as_bytes().starts_with(prefix))
                    .map(|b| b.as_bytes().to_vec())
                    .collect();
            }
            b"alias" => out.extend(self.aliases.keys().cloned()),
            b"function" => out.extend(self.funcs.keys().cloned()),
            b"variable" => out.extend(self.vars.names()),
            b"export" => {
                for n in self.vars.names() {
                    if self
                        .vars
                        .get(&n)
                        .map(|v| v.attrs & crate::state::A_EXPORT != 0)
                        .unwrap_or(false)
                    {
                        out.push(n);
                    }
                }
            }
            b"command" => {
                out.extend(self.completions(b"alias", prefix));
                out.extend(self.completions(b"builtin", prefix));
                out.extend(self.completions(b"function", prefix));
                out.extend(self.completions(b"keyword", prefix));
                let path = self.get_var(b"PATH").unwrap_or_default();
                for d in path.split(|c| *c == b':') {
                    if let Ok(rd) = std::fs::read_dir(crate::bytes::path(d)) {
                        for e in rd.flatten() {
                            out.push(crate::bytes::os_bytes(&e.file_name()));
                        }
                    }
                }
            }
            b"file" | b"directory" => {
                let (dir, base) = match prefix.iter().rposition(|c| *c == b'/') {
                    Some(p) => (prefix[..p + 1].to_vec(), prefix[p + 1..].to_vec()),
                    None => (Vec::new(), prefix.to_vec()),
                };
                let rd_dir = if dir.is_empty() {
                    b".".to_vec()
                } else {
                    dir.clone()
                };
                if let Ok(rd) = std::fs::read_dir(crate::bytes::path(&rd_dir)) {
                    let mut names: Vec<(Bytes, bool)> = rd
                        .flatten()
                        .map(|e| (crate::bytes::os_bytes(&e.file_name()), e.path().is_dir()))
                        .filter(|(n, _)| {
                            n.starts_with(&base) && (base.starts_with(b".") || !n.starts_with(b"."))
                        })
                        .collect();
                    names.sort();
                    for (n, is_dir) in names {
                        if kind == b"directory" && !is_dir {
                            continue;
                        }
                        let mut p = dir.clone();
                        p.extend_from_slice(&n);
                        out.push(p);
                    }
                }
                return out;
            }
            _ => {}
        }
        let mut v: Vec<Bytes> = out.into_iter().filter(|c| c.starts_with(prefix)).collect();
        v.sort();
        v.dedup();
        v
    }

    /// `caller [N]`: "LINE FILE" of the current call, or "LINE FUNC FILE" of
    /// frame N counted outwards; status 1 past the outermost frame.
    pub fn b_caller(&mut self, args: &[Bytes]) {
        if self.frames.is_empty() {
            // outside any function or sourced file there is no caller
            self.status = 1;
            return;
        }
        let n = match args.first() {
            None => None,
            Some(a) => match crate::bytes::parse_i64(a) {
                Some(n) if n >= 0 => Some(n as usize),
                _ => {
                    let mut m = a.clone();
                    m.extend_from_slice(b": invalid number");
                    self.berr("caller", &m);
                    self.write_fd(2, b"caller: usage: caller [expr]\n");
                    self.status = 2;
                    return;
                }
            },
        };
        // Innermost first, as bash's FUNCNAME / BASH_SOURCE / BASH_LINENO.
        let frames: Vec<(Bytes, Bytes, u32)> = self.frames.iter().rev().cloned().collect();
        let line = match n {
            None => match frames.first() {
                Some((_, _, l)) => {
                    let src = frames
                        .get(1)
                        .map(|f| f.1.clone())
                        .unwrap_or_else(|| b"NULL".to_vec());
                    let mut o = format!("{} ", l).into_bytes();
                    o.extend_from_slice(&src);
                    Some(o)
                }
                None => None,
            },
            Some(n) => match (frames.get(n), frames.get(n + 1)) {
                (Some((_, _, l)), Some((name, src, _))) => {
                    let mut o = format!("{} ", l).into_bytes();
                    o.extend_from_slice(name);
                    o.push(b' ');
                    o.extend_from_slice(src);
                    Some(o)
                }
                _ => None,
            },
        };
        match line {
            Some(mut o) => {
                o.push(b'\n');
                self.write_fd(1, &o);
                self.status = 0;
            }
            None => self.status = 1,
        }
    }

    /// Expand prompt escapes (PS1/PS2/PS4 and `${x@P}`).
    pub fn prompt_expand(&mut self, s: &[u8]) -> Bytes {
        let mut o = Vec::new();
        let mut i = 0;
        while i < s.len() {
            let c = s[i];
            i += 1;
            if c != b'\\' || i >= s.len() {
                o.push(c);
                continue;
            }
            let e = s[i];
            i += 1;
            match e {
                b'u' => {
                    o.extend_from_slice(&self.get_var(b"USER").unwrap_or_else(|| b"user".to_vec()))
                }
                b'h' | b'H' => {
                    let h = self
                        .get_var(b"HOSTNAME")
                        .unwrap_or_else(|| b"sandbox".to_vec());
                    if e == b'h' {
                        o.extend_from_slice(h.split(|c| *c == b'.').next().unwrap_or(&h));
                    } else {
                        o.extend_from_slice(&h);
                    }
                }
                b'w' => {
                    let cwd = self.cwd();
                    let home = self.home();
                    if home.len() > 1
                        && cwd.starts_with(&home)
                        && (cwd.len() == home.len() || cwd[home.len()] == b'/')
                    {
                        o.push(b'~');
                        o.extend_from_slice(&cwd[home.len()..]);
                    } else {
                        o.extend_from_slice(&cwd);
                    }
                }
                b'W' => {
                    let cwd = self.cwd();
                    if cwd == self.home() {
                        o.push(b'~');
                    } else if cwd == b"/" {
                        o.push(b'/');
                    } else {
                        o.extend_from_slice(cwd.rsplit(|c| *c == b'/').next().unwrap_or(&cwd));
                    }
                }
                b'$' => o.push(b'$'),
                b's' => o.extend_from_slice(b"bash"),
                b'v' => o.extend_from_slice(b"5.2"),
                b'V' => o.extend_from_slice(b"5.2.15"),
                b'n' => o.push(b'\n'),
                b'r' => o.push(b'\r'),
                b'e' => o.push(27),
                b'a' => o.push(7),
                b'\\' => o.push(b'\\'),
                b'[' | b']' => {}
                b'j' => o.extend_from_slice(self.jobs.len().to_string().as_bytes()),
                b'#' | b'!' => o.extend_from_slice((self.history.len() + 1).to_string().as_bytes()),
                b'?' => o.extend_from_slice(self.status.to_string().as_bytes()),
                b't' | b'T' | b'@' | b'A' | b'd' => {
                    let secs = std::time::SystemTime::now()
                        .duration_since(std::time::UNIX_EPOCH)
                        .map(|d| d.as_secs())
                        .unwrap_or(0);
                    let (h, m, sec) = ((secs / 3600) % 24, (secs / 60) % 60, secs % 60);
                    let t = match e {
                        b't' => format!("{:02}:{:02}:{:02}", h, m, sec),
                        b'T' => format!("{:02}:{:02}:{:02}", (h + 11) % 12 + 1, m, sec),
                        b'A' => format!("{:02}:{:02}", h, m),
                        b'@' => format!(
                            "{:02}:{:02} {}",
                            (h + 11) % 12 + 1,
                            m,
                            if h < 12 { "AM" } else { "PM" }
                        ),
                        _ => String::from("today"),
                    };
                    o.extend_from_slice(t.as_bytes());
                }
                b'0'..=b'7' => {
                    let mut v = (e - b'0') as u32;
                    let mut n = 1;
                    while n < 3 && i < s.len() && (b'0'..=b'7').contains(&s[i]) {
                        v = v * 8 + (s[i] - b'0') as u32;
                        i += 1;
                        n += 1;
                    }
                    o.push(v as u8);
                }
                other => {
                    o.push(b'\\');
                    o.push(other);
                }
            }
        }
        // parameter expansion in the prompt (promptvars)
        if o.contains(&b'$') || o.contains(&b'`') {
            if let Ok(w) = crate::parse::Parser::new(o.clone(), 1).parse_heredoc_text(&o) {
                if let Ok(v) = self.expand_single(&w) {
                    return v;
                }
            }
        }
        let _ = Ctl::Abort(0);
        o
    }
}

/// A symbolic umask (`u=rwx,g+w,o-x`, `a+r`, `=`) applied to the current
/// mask: the clauses change the permissions the mask leaves, as chmod would.
fn symbolic_umask(cur: u32, spec: &[u8]) -> Result<u32, Bytes> {
    let mut perm = !cur & 0o777;
    for clause in spec.split(|c| *c == b',') {
        let mut i = 0;
        let mut who = 0u32;
        while let Some(&c) = clause.get(i) {
            who |= match c {
                b'u' => 0o700,
                b'g' => 0o070,
                b'o' => 0o007,
                b'a' => 0o777,
                _ => break,
            };
            i += 1;
        }
        if who == 0 {
            who = 0o777;
        }
        loop {
            let op = match clause.get(i) {
                Some(&c @ (b'+' | b'-' | b'=')) => c,
                Some(&c) => {
                    return Err(
                        format!("`{}': invalid symbolic mode operator", c as char).into_bytes()
                    )
                }
                None if i == 0 => return Err(b"`': invalid symbolic mode operator".to_vec()),
                None => break,
            };
            i += 1;
            let mut bits = 0u32;
            while let Some(&c) = clause.get(i) {
                bits |= match c {
                    b'r' => 0o444,
                    b'w' => 0o222,
                    b'x' => 0o111,
                    b'+' | b'-' | b'=' => break,
                    _ => {
                        return Err(format!("`{}': invalid symbolic mode character", c as char)
                            .into_bytes())
                    }
                };
                i += 1;
            }
            let bits = bits & who;
            match op {
                b'+' => perm |= bits,
                b'-' => perm &= !bits,
                _ => perm = (perm & !who) | bits,
            }
        }
    }
    Ok(!perm & 0o777)
}

/// Formats straight into `o` (no intermediate String).
fn put(o: &mut String, a: std::fmt::Arguments) {
    use std::fmt::Write;
    let _ = o.write_fmt(a);
}

/// `alias name='value'` as `alias` lists it (`alias -- -x=...` for a name
/// that looks like an option).
fn alias_line(name: &[u8], value: &[u8]) -> Bytes {
    let mut out = b"alias ".to_vec();
    if name.first() == Some(&b'-') {
        out.extend_from_slice(b"-- ");
    }
    out.extend_from_slice(name);
    out.push(b'=');
    out.extend_from_slice(&super::quote_q(value));
    out.push(b'\n');
    out
}
