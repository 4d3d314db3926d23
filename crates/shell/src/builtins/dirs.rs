//! Directory builtins: cd, pwd, pushd, popd, dirs.

use crate::ast::Bytes;
use crate::eval::Shell;

/// Normalize an absolute path lexically (`.`, `..`, duplicate slashes). As
/// in bash, exactly two leading slashes stay (POSIX leaves `//` to the system).
pub fn normalize(p: &[u8]) -> Bytes {
    let double = p.starts_with(b"//") && p.get(2) != Some(&b'/');
    let mut parts: Vec<&[u8]> = Vec::new();
    for c in p.split(|c| *c == b'/') {
        match c {
            b"" | b"." => {}
            b".." => {
                parts.pop();
            }
            c => parts.push(c),
        }
    }
    let mut o = Vec::new();
    for c in parts {
        o.push(b'/');
        o.extend_from_slice(c);
    }
    if o.is_empty() {
        o.push(b'/');
    }
    if double {
        o.insert(0, b'/');
    }
    o
}

/// Symlinks followed before a path counts as a loop (Linux's limit).
const MAX_LINKS: usize = 40;

/// The path an absolute, normalized `p` names with every symlink resolved
/// (`cd -P`, `pwd -P`); None when a component is missing or links loop.
/// Resolved here, component by component: WASI has no realpath.
pub fn physical_path(p: &[u8]) -> Option<Bytes> {
    let mut todo: Vec<Bytes> = p
        .split(|c| *c == b'/')
        .filter(|c| !c.is_empty())
        .rev()
        .map(|c| c.to_vec())
        .collect();
    let mut out: Bytes = Vec::new();
    let mut links = 0;
    while let Some(c) = todo.pop() {
        match c.as_slice() {
            b"." => continue,
            b".." => {
                let cut = out.iter().rposition(|b| *b == b'/').unwrap_or(0);
                out.truncate(cut);
                continue;
            }
            _ => {}
        }
        let mut next = out.clone();
        next.push(b'/');
        next.extend_from_slice(&c);
        let md = crate::fsx::lstat(&next)?;
        if md.kind != crate::fsx::Kind::Symlink {
            out = next;
            continue;
        }
        links += 1;
        if links > MAX_LINKS {
            return None;
        }
        let target = std::fs::read_link(crate::bytes::path(&next)).ok()?;
        let target = crate::bytes::os_bytes(target.as_os_str());
        if target.first() == Some(&b'/') {
            out.clear();
        }
        todo.extend(
            target
                .split(|c| *c == b'/')
                .filter(|c| !c.is_empty())
                .rev()
                .map(|c| c.to_vec()),
        );
    }
    if out.is_empty() {
        out.push(b'/');
    }
    Some(out)
}

impl Shell {
    /// Change directory: std (wasi-libc's cwd) and the kernel's cwd, PWD/OLDPWD.
    pub fn chdir(&mut self, target: &[u8], physical: bool) -> Result<(), i32> {
        let cur = self.cwd();
        let abs = if target.first() == Some(&b'/') {
            target.to_vec()
        } else {
            let mut a = cur.clone();
            if a.last() != Some(&b'/') {
                a.push(b'/');
            }
            a.extend_from_slice(target);
            a
        };
        let mut newp = normalize(&abs);
        if physical {
            // `..` after a symlink goes up from where the link leads
            newp = match physical_path(&abs) {
                Some(p) => p,
                None => {
                    let looped = crate::fsx::lstat(&newp).is_some();
                    return Err(if looped {
                        crate::sys::ELOOP
                    } else {
                        crate::sys::ENOENT
                    });
                }
            };
        }
        match std::fs::metadata(crate::bytes::path(&newp)) {
            Ok(m) if m.is_dir() => {}
            Ok(_) => return Err(54),
            Err(e) => return Err(crate::sys::io_errno(&e)),
        }
        if let Err(e) = std::env::set_current_dir(crate::bytes::path(&newp)) {
            return Err(crate::sys::io_errno(&e));
        }
        self.sys.chdir(&newp)?;
        self.set_var(b"OLDPWD", cur);
        self.logical_pwd = newp.clone();
        self.set_var(b"PWD", newp);
        Ok(())
    }

    pub fn b_cd(&mut self, args: &[Bytes]) {
        // `set -P` makes -P the default; the last of -L/-P counts (`-LP`)
        let mut physical = self.opts.physical;
        let mut i = 0;
        while i < args.len() && args[i].len() > 1 && args[i][0] == b'-' {
            if args[i] == b"--" {
                i += 1;
                break;
            }
            if !args[i][1..].iter().all(|c| b"LPe@".contains(c)) {
                break;
            }
            for c in &args[i][1..] {
                match c {
                    b'P' => physical = true,
                    b'L' => physical = false,
                    _ => {}
                }
            }
            i += 1;
        }
        let rest = &args[i..];
        if rest.len() > 1 {
            self.berr("cd", b"too many arguments");
            self.status = 1;
            return;
        }
        let mut print = false;
        let target = match rest.first() {
            None => match self.get_var(b"HOME") {
                Some(h) => h,
                None => {
                    self.berr("cd", b"HOME not set");
                    self.status = 1;
                    return;
                }
            },
            Some(a) if a == b"-" => match self.get_var(b"OLDPWD") {
                Some(o) => {
                    print = true;
                    o
                }
                None => {
                    self.berr("cd", b"OLDPWD not set");
                    self.status = 1;
                    return;
                }
            },
            Some(a) => a.clone(),
        };
        if target.is_empty() {
            // `cd ""` stays; `cd -` with an empty OLDPWD still prints it
            if print {
                self.write_fd(1, b"\n");
            }
            self.status = 0;
            return;
        }
        // CDPATH
        let mut candidates = vec![target.clone()];
        if !target.starts_with(b"/") && !target.starts_with(b".") {
            if let Some(cdpath) = self.get_var(b"CDPATH") {
                let mut c = Vec::new();
                for d in cdpath.split(|c| *c == b':') {
                    if d.is_empty() {
                        continue;
                    }
                    let mut p = d.to_vec();
                    p.push(b'/');
                    p.extend_from_slice(&target);
                    c.push(p);
                }
                c.push(target.clone());
                if c.len() > 1 {
                    print = true;
                }
                candidates = c;
            }
        }
        let mut last_err = 0;
        for (k, c) in candidates.iter().enumerate() {
            match self.chdir(c, physical) {
                Ok(()) => {
                    if print
                        && (k + 1 < candidates.len()
                            || rest.first().map(|a| a == b"-").unwrap_or(false))
                    {
                        let mut p = self.cwd();
                        p.push(b'\n');
                        self.write_fd(1, &p);
                    }
                    self.status = 0;
                    return;
                }
                Err(e) => last_err = e,
            }
        }
        // `shopt -s cdable_vars`: a name that is no directory may be a variable holding one
        if self.shopt_state("cdable_vars") == Some(true) {
            if let Some(dir) = self.get_var(&target).filter(|d| !d.is_empty()) {
                if self.chdir(&dir, physical).is_ok() {
                    // bash names the directory as the variable holds it
                    let mut p = dir;
                    p.push(b'\n');
                    self.write_fd(1, &p);
                    self.status = 0;
                    return;
                }
            }
        }
        let mut m = target;
        m.extend_from_slice(b": ");
        m.extend_from_slice(crate::sys::strerror(last_err).as_bytes());
        self.berr("cd", &m);
        self.status = 1;
    }

    pub fn b_pwd(&mut self, args: &[Bytes]) {
        // the last of -L/-P counts; `set -P` makes -P the default
        let physical = args
            .iter()
            .take_while(|a| a.first() == Some(&b'-') && a.len() > 1 && *a != b"--")
            .flat_map(|a| a[1..].iter())
            .fold(self.opts.physical, |p, c| match c {
                b'P' => true,
                b'L' => false,
                _ => p,
            });
        let cwd = self.cwd();
        let mut p = if physical {
            physical_path(&cwd).unwrap_or(cwd)
        } else {
            cwd
        };
        p.push(b'\n');
        self.write_fd(1, &p);
        self.status = 0;
    }

    fn print_dirs(&mut self) {
        let mut out = self.tilde_short(&self.cwd());
        for d in self.dirstack.iter().rev() {
            out.push(b' ');
            out.extend_from_slice(&self.tilde_short(d));
        }
        out.push(b'\n');
        self.write_fd(1, &out);
    }

    fn tilde_short(&self, p: &[u8]) -> Bytes {
        let home = self.home();
        if home.len() > 1
            && p.starts_with(&home)
            && (p.len() == home.len() || p[home.len()] == b'/')
        {
            let mut o = b"~".to_vec();
            o.extend_from_slice(&p[home.len()..]);
            return o;
        }
        p.to_vec()
    }

    /// `+N` / `-N` in pushd, popd and dirs: Some(Ok(index into the whole
    /// stack, cwd first)), Some(Err(())) when out of range, None when `a`
    /// is not such an argument.
    fn stack_index(&self, a: &[u8]) -> Option<Result<usize, ()>> {
        if a.len() < 2 || !matches!(a[0], b'+' | b'-') || !a[1..].iter().all(|c| c.is_ascii_digit())
        {
            return None;
        }
        let n = crate::bytes::parse_i64(&a[1..]).unwrap_or(i64::MAX) as usize;
        let len = self.dirstack.len() + 1;
        let at = if a[0] == b'+' {
            Some(n)
        } else {
            len.checked_sub(n.saturating_add(1))
        };
        Some(at.filter(|i| *i < len).ok_or(()))
    }

    fn stack_error(&mut self, name: &str, a: &[u8]) {
        if self.dirstack.is_empty() {
            self.berr(name, b"directory stack empty");
        } else {
            let mut m = a.to_vec();
            m.extend_from_slice(b": directory stack index out of range");
            self.berr(name, &m);
        }
        self.status = 1;
    }

    /// Make `all` (cwd first) the stack, changing directory to its head
    /// unless `stay`.
    fn set_stack(&mut self, name: &str, mut all: Vec<Bytes>, stay: bool) -> bool {
        if !stay {
            let head = all[0].clone();
            if let Err(e) = self.chdir(&head, self.opts.physical) {
                let mut m = head;
                m.extend_from_slice(b": ");
                m.extend_from_slice(crate::sys::strerror(e).as_bytes());
                self.berr(name, &m);
                self.status = 1;
                return false;
            }
        }
        all.remove(0);
        all.reverse();
        self.dirstack = all;
        self.print_dirs();
        self.status = 0;
        true
    }

    pub fn b_pushd(&mut self, args: &[Bytes]) {
        let stay = args.iter().any(|a| a == b"-n");
        let args: Vec<&Bytes> = args.iter().filter(|a| a.as_slice() != b"-n").collect();
        let mut all = vec![self.cwd()];
        all.extend(self.dirstack.iter().rev().cloned());
        match args.first() {
            None => {
                if all.len() < 2 {
                    self.berr("pushd", b"no other directory");
                    self.status = 1;
                    return;
                }
                all.swap(0, 1);
                self.set_stack("pushd", all, stay);
            }
            Some(a) if matches!(a.first(), Some(b'+') | Some(b'-')) && a.len() > 1 => {
                match self.stack_index(a) {
                    Some(Ok(k)) => {
                        all.rotate_left(k);
                        self.set_stack("pushd", all, stay);
                    }
                    Some(Err(())) => self.stack_error("pushd", a),
                    None => {
                        let mut m = a.to_vec();
                        m.extend_from_slice(b": invalid number");
                        self.berr("pushd", &m);
                        self.write_fd(2, b"pushd: usage: pushd [-n] [+N | -N | dir]\n");
                        self.status = 2;
                    }
                }
            }
            Some(dir) => {
                if stay {
                    all.insert(1, dir.to_vec());
                    self.set_stack("pushd", all, true);
                    return;
                }
                match self.chdir(dir, self.opts.physical) {
                    Ok(()) => {
                        all.insert(0, self.cwd());
                        self.set_stack("pushd", all, true);
                    }
                    Err(e) => {
                        let mut m = dir.to_vec();
                        m.extend_from_slice(b": ");
                        m.extend_from_slice(crate::sys::strerror(e).as_bytes());
                        self.berr("pushd", &m);
                        self.status = 1;
                    }
                }
            }
        }
    }

    pub fn b_popd(&mut self, args: &[Bytes]) {
        let stay = args.iter().any(|a| a == b"-n");
        let args: Vec<&Bytes> = args.iter().filter(|a| a.as_slice() != b"-n").collect();
        if self.dirstack.is_empty() {
            self.berr("popd", b"directory stack empty");
            self.status = 1;
            return;
        }
        let mut all = vec![self.cwd()];
        all.extend(self.dirstack.iter().rev().cloned());
        let k = match args.first() {
            None => usize::from(stay),
            Some(a) => match self.stack_index(a) {
                Some(Ok(k)) => k,
                Some(Err(())) => {
                    self.stack_error("popd", a);
                    return;
                }
                None => {
                    let mut m = a.to_vec();
                    m.extend_from_slice(b": invalid argument");
                    self.berr("popd", &m);
                    self.write_fd(2, b"popd: usage: popd [-n] [+N | -N]\n");
                    self.status = 2;
                    return;
                }
            },
        };
        all.remove(k);
        self.set_stack("popd", all, stay || k != 0);
    }

    pub fn b_dirs(&mut self, args: &[Bytes]) {
        let (mut clear, mut long, mut lines, mut verbose) = (false, false, false, false);
        let mut index: Option<(bool, usize)> = None;
        for a in args {
            let digits = a.len() > 1 && a[1..].iter().all(|c| c.is_ascii_digit());
            match a.first() {
                Some(&sign @ (b'+' | b'-')) if digits => {
                    let n = String::from_utf8_lossy(&a[1..])
                        .parse()
                        .unwrap_or(usize::MAX);
                    index = Some((sign == b'+', n));
                }
                Some(b'-') if a.len() > 1 && a[1..].iter().all(|c| b"clpv".contains(c)) => {
                    for c in &a[1..] {
                        match c {
                            b'c' => clear = true,
                            b'l' => long = true,
                            b'p' => lines = true,
                            _ => verbose = true,
                        }
                    }
                }
                _ => {
                    let mut m = a.clone();
                    m.extend_from_slice(if a.first() == Some(&b'-') {
                        b": invalid number"
                    } else {
                        b": invalid argument"
                    });
                    self.berr("dirs", &m);
                    self.write_fd(2, b"dirs: usage: dirs [-clpv] [+N] [-N]\n");
                    self.status = 2;
                    return;
                }
            }
        }
        self.status = 0;
        if clear {
            self.dirstack.clear();
            return;
        }
        let mut all = vec![self.cwd()];
        all.extend(self.dirstack.iter().rev().cloned());
        let show = |sh: &Self, d: &Bytes| if long { d.clone() } else { sh.tilde_short(d) };
        if let Some((from_left, n)) = index {
            let at = if from_left {
                Some(n)
            } else {
                all.len().checked_sub(n + 1)
            };
            match at.and_then(|i| all.get(i)) {
                Some(d) => {
                    let mut l = show(self, d);
                    l.push(b'\n');
                    self.write_fd(1, &l);
                }
                None if self.dirstack.is_empty() => {
                    self.berr("dirs", b"directory stack empty");
                    self.status = 1;
                }
                None => {
                    let m = format!("{}: directory stack index out of range", n);
                    self.berr("dirs", m.as_bytes());
                    self.status = 1;
                }
            }
            return;
        }
        let mut out = Vec::new();
        for (i, d) in all.iter().enumerate() {
            if verbose {
                out.extend_from_slice(format!("{:2}  ", i).as_bytes());
            }
            out.extend_from_slice(&show(self, d));
            out.push(if verbose || lines || i + 1 == all.len() {
                b'\n'
            } else {
                b' '
            });
        }
        self.write_fd(1, &out);
    }
}
