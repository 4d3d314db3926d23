//! wget's command line (GNU getopt style): short options bundle (`-qO-`),
//! `-nv`/`-nc` are two-letter shorts, long options take `--opt=value` or
//! `--opt value` and may be abbreviated to any unique prefix.

use crate::shortopts::{parse_bundle, BundleError};

#[derive(Clone, Debug, Default)]
pub struct Opts {
    pub urls: Vec<String>,
    pub output_document: Option<String>,
    pub quiet: bool,
    pub no_verbose: bool,
    pub prefix: Option<String>,
    pub continue_: bool,
    pub headers: Vec<String>,
    pub post_data: Option<String>,
    pub post_file: Option<String>,
    pub method: Option<String>,
    pub body_data: Option<String>,
    pub body_file: Option<String>,
    pub server_response: bool,
    /// --save-headers: the response head goes into the file before the body.
    pub save_headers: bool,
    pub timeout: Option<f64>,
    pub tries: u32,
    pub max_redirect: u32,
    pub input_file: Option<String>,
    pub user_agent: Option<String>,
    pub user: Option<String>,
    pub password: Option<String>,
    pub content_disposition: bool,
    pub no_clobber: bool,
    pub output_file: Option<(String, bool)>,
    pub no_cookies: bool,
    pub load_cookies: Option<String>,
    pub save_cookies: Option<String>,
    pub keep_session_cookies: bool,
    pub referer: Option<String>,
    pub retry_connrefused: bool,
    pub waitretry: Option<f64>,
    pub spider: bool,
    pub content_on_error: bool,
    /// --compression=gzip: ask for gzip and decode it (wget's default is none).
    pub gzip: bool,
    pub timestamping: bool,
    /// -x: HOST[:PORT]/DIRS/NAME (-nH drops the host, --cut-dirs leading
    /// dirs, --protocol-directories adds the scheme first; -nd none).
    pub force_dirs: bool,
    pub no_dirs: bool,
    pub no_host_dirs: bool,
    pub protocol_dirs: bool,
    pub cut_dirs: u32,
    /// The name for a URL ending in `/` (index.html).
    pub default_page: Option<String>,
    /// -r and what bounds it (docs/nettools.md, "Recursive retrieval").
    pub recursive: bool,
    /// -l: how deep links are followed; 0 is no limit (`inf`).
    pub level: u32,
    pub no_parent: bool,
    /// -A/-R: suffixes or shell patterns the saved file names must match.
    pub accept: Vec<String>,
    pub reject: Vec<String>,
    /// -H, and -D's domains a spanned host must be in.
    pub span_hosts: bool,
    pub domains: Vec<String>,
    pub exclude_domains: Vec<String>,
    /// `-e robots=off` turns it off.
    pub robots: bool,
    pub help: bool,
    pub version: bool,
}

/// wget's complaint (after `wget: `), exit 2; the usage lines follow it
/// unless the complaint is about a `-e` command.
#[derive(Debug, PartialEq, Eq)]
pub struct ArgError(pub String, pub bool);

impl ArgError {
    fn usage(message: String) -> Self {
        ArgError(message, true)
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Flag,
    Arg,
}

const LONG: &[(&str, Kind)] = &[
    ("output-document", Kind::Arg),
    ("quiet", Kind::Flag),
    ("no-verbose", Kind::Flag),
    ("verbose", Kind::Flag),
    ("directory-prefix", Kind::Arg),
    ("continue", Kind::Flag),
    ("header", Kind::Arg),
    ("post-data", Kind::Arg),
    ("post-file", Kind::Arg),
    ("method", Kind::Arg),
    ("body-data", Kind::Arg),
    ("body-file", Kind::Arg),
    ("server-response", Kind::Flag),
    ("timeout", Kind::Arg),
    ("read-timeout", Kind::Arg),
    ("connect-timeout", Kind::Arg),
    ("dns-timeout", Kind::Arg),
    ("tries", Kind::Arg),
    ("max-redirect", Kind::Arg),
    ("input-file", Kind::Arg),
    ("user-agent", Kind::Arg),
    ("user", Kind::Arg),
    ("password", Kind::Arg),
    ("http-user", Kind::Arg),
    ("http-password", Kind::Arg),
    ("content-disposition", Kind::Flag),
    ("no-clobber", Kind::Flag),
    ("output-file", Kind::Arg),
    ("append-output", Kind::Arg),
    ("no-cookies", Kind::Flag),
    ("load-cookies", Kind::Arg),
    ("save-cookies", Kind::Arg),
    ("keep-session-cookies", Kind::Flag),
    ("referer", Kind::Arg),
    ("retry-connrefused", Kind::Flag),
    ("waitretry", Kind::Arg),
    ("no-check-certificate", Kind::Flag),
    ("progress", Kind::Arg),
    ("show-progress", Kind::Flag),
    ("no-show-progress", Kind::Flag),
    ("spider", Kind::Flag),
    ("content-on-error", Kind::Flag),
    ("compression", Kind::Arg),
    ("timestamping", Kind::Flag),
    ("force-directories", Kind::Flag),
    ("no-directories", Kind::Flag),
    ("no-host-directories", Kind::Flag),
    ("protocol-directories", Kind::Flag),
    ("cut-dirs", Kind::Arg),
    ("default-page", Kind::Arg),
    ("save-headers", Kind::Flag),
    // The gateway is the only way out: proxies are not used, and `-e`
    // commands (wgetrc lines: robots, proxies) have nothing to set here.
    ("no-proxy", Kind::Flag),
    ("execute", Kind::Arg),
    ("recursive", Kind::Flag),
    ("level", Kind::Arg),
    ("no-parent", Kind::Flag),
    ("accept", Kind::Arg),
    ("reject", Kind::Arg),
    ("span-hosts", Kind::Flag),
    ("domains", Kind::Arg),
    ("exclude-domains", Kind::Arg),
    ("mirror", Kind::Flag),
    ("no-remove-listing", Kind::Flag),
    ("help", Kind::Flag),
    ("version", Kind::Flag),
];

/// Short letters and the long option each stands for.
const SHORT: &[(char, &str)] = &[
    ('O', "output-document"),
    ('q', "quiet"),
    ('v', "verbose"),
    ('P', "directory-prefix"),
    ('c', "continue"),
    ('S', "server-response"),
    ('T', "timeout"),
    ('t', "tries"),
    ('i', "input-file"),
    ('U', "user-agent"),
    ('o', "output-file"),
    ('a', "append-output"),
    ('N', "timestamping"),
    ('x', "force-directories"),
    ('e', "execute"),
    ('r', "recursive"),
    ('l', "level"),
    ('A', "accept"),
    ('R', "reject"),
    ('H', "span-hosts"),
    ('D', "domains"),
    ('m', "mirror"),
    ('h', "help"),
    ('V', "version"),
];

fn num(opt: &str, v: &str) -> Result<f64, ArgError> {
    match v.parse::<f64>() {
        Ok(n) if n >= 0.0 && n.is_finite() => Ok(n),
        _ => Err(ArgError::usage(format!(
            "{}: Invalid time period '{}'",
            opt, v
        ))),
    }
}

/// A comma-separated list (-A, -R, -D).
fn list(v: &str) -> impl Iterator<Item = String> + '_ {
    v.split(',').filter(|x| !x.is_empty()).map(str::to_string)
}

fn count(opt: &str, v: &str) -> Result<u32, ArgError> {
    if v == "inf" {
        return Ok(0);
    }
    v.parse::<u32>()
        .map_err(|_| ArgError::usage(format!("{}: Invalid number '{}'.", opt, v)))
}

/// Every wgetrc command wget 1.21 knows (names folded as it folds them: no
/// `_` or `-`, lower case), sorted. `-e` refuses any other; of these, only the
/// ones [`Opts::execute`] matches change anything here.
const WGETRC_COMMANDS: &[&str] = &[
    "accept",
    "acceptregex",
    "addhostdir",
    "adjustextension",
    "alwaysrest",
    "askpassword",
    "authnochallenge",
    "background",
    "backupconverted",
    "backups",
    "base",
    "bindaddress",
    "bodydata",
    "bodyfile",
    "cacertificate",
    "cache",
    "cadirectory",
    "certificate",
    "certificatetype",
    "checkcertificate",
    "chooseconfig",
    "ciphers",
    "compression",
    "connecttimeout",
    "contentdisposition",
    "contentonerror",
    "continue",
    "convertfileonly",
    "convertlinks",
    "cookies",
    "crlfile",
    "cutdirs",
    "debug",
    "defaultpage",
    "deleteafter",
    "dirprefix",
    "dirstruct",
    "dnscache",
    "dnstimeout",
    "domains",
    "dotbytes",
    "dotsinline",
    "dotspacing",
    "dotstyle",
    "egdfile",
    "excludedirectories",
    "excludedomains",
    "followftp",
    "followtags",
    "forcehtml",
    "ftppasswd",
    "ftppassword",
    "ftpproxy",
    "ftpscleardataconnection",
    "ftpsfallbacktoftp",
    "ftpsimplicit",
    "ftpsresumessl",
    "ftpuser",
    "glob",
    "header",
    "hsts",
    "hstsfile",
    "htmlextension",
    "htmlify",
    "httpkeepalive",
    "httppasswd",
    "httppassword",
    "httpproxy",
    "httpsonly",
    "httpsproxy",
    "httpuser",
    "ifmodifiedsince",
    "ignorecase",
    "ignorelength",
    "ignoretags",
    "includedirectories",
    "inet4only",
    "inet6only",
    "input",
    "iri",
    "keepbadhash",
    "keepsessioncookies",
    "limitrate",
    "loadcookies",
    "localencoding",
    "logfile",
    "login",
    "maxredirect",
    "method",
    "mirror",
    "netrc",
    "noclobber",
    "noconfig",
    "noparent",
    "noproxy",
    "numtries",
    "outputdocument",
    "pagerequisites",
    "passiveftp",
    "password",
    "pinnedpubkey",
    "postdata",
    "postfile",
    "preferfamily",
    "preservepermissions",
    "privatekey",
    "privatekeytype",
    "progress",
    "protocoldirectories",
    "proxypasswd",
    "proxypassword",
    "proxyuser",
    "quiet",
    "quota",
    "randomfile",
    "randomwait",
    "readtimeout",
    "reclevel",
    "recursive",
    "referer",
    "regextype",
    "reject",
    "rejectedlog",
    "rejectregex",
    "relativeonly",
    "remoteencoding",
    "removelisting",
    "reportspeed",
    "restrictfilenames",
    "retrsymlinks",
    "retryconnrefused",
    "retryonhosterror",
    "retryonhttperror",
    "robots",
    "savecookies",
    "saveheaders",
    "secureprotocol",
    "serverresponse",
    "showalldnsentries",
    "showprogress",
    "spanhosts",
    "spider",
    "startpos",
    "strictcomments",
    "timeout",
    "timestamping",
    "tries",
    "trustservernames",
    "unlink",
    "useaskpass",
    "useproxy",
    "user",
    "useragent",
    "useservertimestamps",
    "verbose",
    "wait",
    "waitretry",
    "warccdx",
    "warccdxdedup",
    "warccompression",
    "warcdigests",
    "warcfile",
    "warcheader",
    "warckeeplog",
    "warcmaxsize",
    "warctempdir",
    "xattr",
];

impl Opts {
    /// `-e COMMAND`, a wgetrc line: `robots = off` means something here;
    /// proxies and the rest have nothing to set (the gateway is the only
    /// way out), as before.
    fn execute(&mut self, cmd: &str) -> Result<(), ArgError> {
        let invalid = || ArgError(format!("Invalid --execute command '{}'", cmd), false);
        let (name, value) = cmd.split_once('=').ok_or_else(invalid)?;
        let name: String = name
            .trim()
            .chars()
            .filter(|c| *c != '_' && *c != '-')
            .map(|c| c.to_ascii_lowercase())
            .collect();
        let on = |v: &str| -> Result<bool, ArgError> {
            match v.trim().to_ascii_lowercase().as_str() {
                "on" | "yes" | "1" => Ok(true),
                "off" | "no" | "0" => Ok(false),
                _ => Err(ArgError(
                    format!(
                        "{}: Invalid boolean '{}'; use `on' or `off'.",
                        name,
                        v.trim()
                    ),
                    false,
                )),
            }
        };
        if WGETRC_COMMANDS.binary_search(&name.as_str()).is_err() {
            return Err(invalid());
        }
        match name.as_str() {
            "robots" => self.robots = on(value)?,
            "recursive" => self.recursive = on(value)?,
            "noparent" => self.no_parent = on(value)?,
            "spanhosts" => self.span_hosts = on(value)?,
            "reclevel" => self.level = count("reclevel", value.trim())?,
            "accept" => self.accept.extend(list(value.trim())),
            "reject" => self.reject.extend(list(value.trim())),
            _ => {}
        }
        Ok(())
    }

    /// Whether saved files go into directories (-x, or -r without -nd).
    pub fn dirs(&self) -> bool {
        self.force_dirs || (self.recursive && !self.no_dirs)
    }

    fn apply(&mut self, name: &str, v: &str) -> Result<(), ArgError> {
        let opt = format!("--{}", name);
        match name {
            "output-document" => self.output_document = Some(v.to_string()),
            "quiet" => self.quiet = true,
            "no-verbose" => self.no_verbose = true,
            "verbose" => {
                self.no_verbose = false;
                self.quiet = false;
            }
            "directory-prefix" => self.prefix = Some(v.to_string()),
            "continue" => self.continue_ = true,
            "header" => self.headers.push(v.to_string()),
            "post-data" => self.post_data = Some(v.to_string()),
            "post-file" => self.post_file = Some(v.to_string()),
            "method" => self.method = Some(v.to_ascii_uppercase()),
            "body-data" => self.body_data = Some(v.to_string()),
            "body-file" => self.body_file = Some(v.to_string()),
            "server-response" => self.server_response = true,
            "timeout" | "read-timeout" | "connect-timeout" | "dns-timeout" => {
                self.timeout = Some(num(&opt, v)?)
            }
            "tries" => self.tries = count(&opt, v)?,
            "max-redirect" => self.max_redirect = count(&opt, v)?,
            "input-file" => self.input_file = Some(v.to_string()),
            "user-agent" => self.user_agent = Some(v.to_string()),
            "user" | "http-user" => self.user = Some(v.to_string()),
            "password" | "http-password" => self.password = Some(v.to_string()),
            "content-disposition" => self.content_disposition = true,
            "no-clobber" => self.no_clobber = true,
            "output-file" => self.output_file = Some((v.to_string(), false)),
            "append-output" => self.output_file = Some((v.to_string(), true)),
            "no-cookies" => self.no_cookies = true,
            "load-cookies" => self.load_cookies = Some(v.to_string()),
            "save-cookies" => self.save_cookies = Some(v.to_string()),
            "keep-session-cookies" => self.keep_session_cookies = true,
            "referer" => self.referer = Some(v.to_string()),
            "retry-connrefused" => self.retry_connrefused = true,
            "waitretry" => self.waitretry = Some(num(&opt, v)?),
            "spider" => self.spider = true,
            "content-on-error" => self.content_on_error = true,
            "compression" => {
                self.gzip = match v {
                    "gzip" | "auto" => true,
                    "none" => false,
                    _ => {
                        return Err(ArgError::usage(format!(
                            "--compression: Invalid value '{}'.",
                            v
                        )))
                    }
                }
            }
            "timestamping" => self.timestamping = true,
            "force-directories" => {
                self.force_dirs = true;
                self.no_dirs = false;
            }
            "no-directories" => {
                self.no_dirs = true;
                self.force_dirs = false;
            }
            "no-host-directories" => self.no_host_dirs = true,
            "protocol-directories" => self.protocol_dirs = true,
            "cut-dirs" => self.cut_dirs = count(&opt, v)?,
            "default-page" => self.default_page = Some(v.to_string()),
            "save-headers" => self.save_headers = true,
            "recursive" => self.recursive = true,
            "level" => self.level = count(&opt, v)?,
            "no-parent" => self.no_parent = true,
            "accept" => self.accept.extend(list(v)),
            "reject" => self.reject.extend(list(v)),
            "span-hosts" => self.span_hosts = true,
            "domains" => self.domains.extend(list(v)),
            "exclude-domains" => self.exclude_domains.extend(list(v)),
            // -m: -r -N -l inf --no-remove-listing.
            "mirror" => {
                self.recursive = true;
                self.timestamping = true;
                self.level = 0;
            }
            "execute" => self.execute(v)?,
            "help" => self.help = true,
            "version" => self.version = true,
            // Certificates are the gateway's; progress is always dots here.
            _ => {}
        }
        Ok(())
    }
}

pub fn parse(args: &[String]) -> Result<Opts, ArgError> {
    let mut o = Opts {
        tries: 20,
        max_redirect: 20,
        level: 5,
        robots: true,
        ..Opts::default()
    };
    let mut i = 0;
    let mut only_urls = false;
    while i < args.len() {
        let a = &args[i];
        i += 1;
        if only_urls || a == "-" || !a.starts_with('-') {
            o.urls.push(a.clone());
            continue;
        }
        if a == "--" {
            only_urls = true;
            continue;
        }
        if let Some(body) = a.strip_prefix("--") {
            let (name, inline) = match body.find('=') {
                Some(k) => (&body[..k], Some(&body[k + 1..])),
                None => (body, None),
            };
            // Exact match first, then a unique prefix (getopt_long).
            let hits: Vec<&(&str, Kind)> = match LONG.iter().find(|(n, _)| *n == name) {
                Some(h) => vec![h],
                None => LONG.iter().filter(|(n, _)| n.starts_with(name)).collect(),
            };
            let (full, kind) = match hits.as_slice() {
                [one] => **one,
                [] => return Err(ArgError::usage(format!("unrecognized option '{}'", a))),
                _ => return Err(ArgError::usage(format!("option '{}' is ambiguous", a))),
            };
            let v = match (kind, inline) {
                (Kind::Arg, Some(v)) => v.to_string(),
                (Kind::Arg, None) => match args.get(i) {
                    Some(v) => {
                        i += 1;
                        v.clone()
                    }
                    None => {
                        return Err(ArgError::usage(format!(
                            "option '--{}' requires an argument",
                            full
                        )))
                    }
                },
                (Kind::Flag, Some(_)) => {
                    return Err(ArgError::usage(format!(
                        "option '--{}' doesn't allow an argument",
                        full
                    )))
                }
                (Kind::Flag, None) => String::new(),
            };
            o.apply(full, &v)?;
            continue;
        }
        // Two-letter shorts of wget: -nv, -nc, -nd, -nH.
        match a.as_str() {
            "-nv" => {
                o.no_verbose = true;
                continue;
            }
            "-nc" => {
                o.no_clobber = true;
                continue;
            }
            "-nd" => {
                o.apply("no-directories", "")?;
                continue;
            }
            "-nH" => {
                o.no_host_dirs = true;
                continue;
            }
            "-np" => {
                o.no_parent = true;
                continue;
            }
            _ => {}
        }
        let kind = |ch: char| {
            SHORT
                .iter()
                .find(|(c, _)| *c == ch)
                .map(|(_, long)| LONG.iter().any(|(n, k)| n == long && *k == Kind::Arg))
        };
        parse_bundle(&a[1..], args, &mut i, kind, |ch, v| {
            let long = SHORT.iter().find(|(c, _)| *c == ch).map_or("", |(_, l)| *l);
            o.apply(long, v.unwrap_or(""))
        })
        .map_err(|e| match e {
            BundleError::Unknown(ch) => ArgError::usage(format!("invalid option -- '{}'", ch)),
            BundleError::NeedsValue(ch) => {
                ArgError::usage(format!("option requires an argument -- '{}'", ch))
            }
            BundleError::Apply(e) => e,
        })?;
    }
    Ok(o)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &[&str]) -> Result<Opts, ArgError> {
        parse(&s.iter().map(|x| x.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn grammar() {
        let o = p(&[
            "-qO-",
            "u",
            "--header=A: b",
            "--post-d",
            "x=1",
            "-nv",
            "-T",
            "5",
            "--tries=3",
        ])
        .unwrap();
        assert!(o.quiet && o.no_verbose);
        assert_eq!(o.output_document.as_deref(), Some("-"));
        assert_eq!(o.headers, ["A: b"]);
        assert_eq!(o.post_data.as_deref(), Some("x=1"));
        assert_eq!((o.timeout, o.tries, o.urls.len()), (Some(5.0), 3, 1));
        assert_eq!(
            p(&["--bogus"]).unwrap_err().0,
            "unrecognized option '--bogus'"
        );
        assert_eq!(p(&["-Z"]).unwrap_err().0, "invalid option -- 'Z'");
        assert_eq!(
            p(&["--post"]).unwrap_err().0,
            "option '--post' is ambiguous"
        );
        assert_eq!(
            p(&["-O"]).unwrap_err().0,
            "option requires an argument -- 'O'"
        );
    }

    #[test]
    fn execute_commands() {
        assert!(!p(&["-e", "robots=off", "u"]).unwrap().robots);
        assert!(p(&["-e", "Check_Certificate = off", "u"]).is_ok());
        assert_eq!(
            p(&["-e", "foo=bar", "u"]).unwrap_err(),
            ArgError("Invalid --execute command 'foo=bar'".into(), false)
        );
        assert!(WGETRC_COMMANDS.windows(2).all(|w| w[0] < w[1]));
    }
}
