//! jq builtins: the natively implemented ones and the library written in
//! jq itself (`PRELUDE`), plus the `@format` string formats.

use super::ast::Ast;
use super::eval::{
    add, delpaths, err, getpath, setpath, short, split_str, Ctl, Env, Interp, PV, R,
};
use super::value::{compare, Map, Parser, Value};
use coreutils_core::calendar::{self, civil_from_days, days_from_civil};
use std::fmt::Write as _;
use std::rc::Rc;

/// Builtins defined in jq.
pub const PRELUDE: &str = r#"
def values: select(. != null);
def nulls: select(. == null);
def booleans: select(type == "boolean");
def numbers: select(type == "number");
def strings: select(type == "string");
def arrays: select(type == "array");
def objects: select(type == "object");
def iterables: select(type|. == "array" or . == "object");
def scalars: select(type|. != "array" and . != "object");
def map(f): [.[] | f];
def select(f): if f then . else empty end;
def recurse(f): def r: ., (f | r); r;
def recurse(f; cond): def r: ., (f | select(cond) | r); r;
def recurse: recurse(.[]?);
def with_entries(f): to_entries | map(f) | from_entries;
def map_values(f): .[] |= f;
def del(f): delpaths([path(f)]);
def paths: path(..) | select(length > 0);
def paths(node_filter): . as $dot | paths | select(. as $p | $dot | getpath($p) | node_filter);
def leaf_paths: paths(scalars);
def any: reduce .[] as $x (false; . or $x);
def all: reduce .[] as $x (true; . and $x);
def any(f): reduce (.[] | f) as $x (false; . or $x);
def all(f): reduce (.[] | f) as $x (true; . and $x);
def isempty(g): first((g | false), true);
def any(g; cond): isempty(first(g | cond | select(.))) | not;
def all(g; cond): isempty(first(g | cond | select(. | not)));
def in(xs): . as $x | xs | has($x);
def inside(xs): . as $x | xs | contains($x);
def combinations: if length == 0 then [] else .[0][] as $x | (.[1:] | combinations) as $w | [$x] + $w end;
def combinations(n): . as $dot | [range(n)] | map($dot) | combinations;
def walk(f): def w: if type == "object" then map_values(w) elif type == "array" then map(w) else . end | f; w;
def transpose: if . == [] then [] else . as $in | (map(length) | max) as $max | [range(0; $max) as $j | [range(0; $in|length) as $i | $in[$i][$j] ] ] end;
def first: .[0];
def last: .[-1];
def nth($n): .[$n];
def first(f): label $__first | (f | ., break $__first);
def isvalid(f): try (f | true) catch false;
def nth($n; f): if $n < 0 then error("Out of bounds negative array index") else last(limit($n + 1; f)) end;
def until(cond; update): def _until: if cond then . else (update | _until) end; _until;
def while(cond; update): def _while: if cond then ., (update | _while) else empty end; _while;
def repeat(f): def _repeat: f, _repeat; _repeat;
def range($x): range(0; $x);
def todate: strftime("%Y-%m-%dT%H:%M:%SZ");
def fromdateiso8601: strptime("%Y-%m-%dT%H:%M:%SZ") | mktime;
def todateiso8601: strftime("%Y-%m-%dT%H:%M:%SZ");
def fromdate: fromdateiso8601;
def date: todate;
def dateadd(u; n): . + n;
def datesub(u; n): . - n;
def finites: select(isinfinite or isnan | not);
def normals: select(isnormal);
def env: $ENV;
def INDEX(stream; idx_expr): reduce stream as $row ({}; .[$row | idx_expr | tostring] |= $row);
def INDEX(idx_expr): INDEX(.[]; idx_expr);
def IN(s): any(s == .; .);
def IN(src; s): any(src == s; .);
def capture(re): capture(re; null);
def capture(re; $flags): match(re; $flags) | [.captures | .[] | select(.name != null) | { key: .name, value: .string }] | from_entries;
def scan(re): scan(re; null);
def scan(re; $flags): match(re; "g" + ($flags // "")) | if (.captures | length > 0) then [ .captures | .[] | .string ] else .string end;
def test(re): test(re; null);
def match(re): match(re; null);
def splits($re): splits($re; null);
def splits($re; flags): split($re; flags) | .[];
def sub(re; str): sub(re; str; "");
def gsub(re; str): sub(re; str; "g");
def gsub(re; str; $flags): sub(re; str; ($flags // "") + "g");
def sub(re; str; $flags): . as $in | (reduce (match(re; $flags) | . as $m | {m: $m, cap: ([$m.captures[] | select(.name != null) | {key: .name, value: .string}] | from_entries)}) as $e ({res: "", last: 0}; .res += $in[.last:$e.m.offset] + ($e.cap | str) | .last = $e.m.offset + $e.m.length)) | .res + $in[.last:];
def tostream: path(def r: (.[]? | r), .; r) as $p | getpath($p) | reduce path(.[]?) as $q ([$p, .]; [$p + $q]);
def fromstream(f): { x: null, e: false } as $init | foreach f as $i ($init; if .e then $init else . end | if $i | length == 2 then setpath(["e"]; $i[0] | length == 0) | setpath(["x"] + $i[0]; $i[1]) else setpath(["e"]; $i[0] | length == 1) end; if .e then .x else empty end);
def truncate_stream(stream): . as $n | null | stream | . as $input | if (.[0] | length) > $n then setpath([0]; .[0][$n:]) else empty end;
def limit($n; f): if $n > 0 then label $__limit | foreach f as $item (0; . + 1; $item, if . >= $n then break $__limit else empty end) elif $n == 0 then empty else f end;
def add(f): reduce f as $x (null; . + $x);
def pick(pathexps): . as $top | reduce path(pathexps) as $p (null; setpath($p; $top | getpath($p)));
def abs: if type == "number" and . < 0 then - . else . end;
def toarray: if type == "array" then . else [.] end;
def debug(msg): (msg | debug | empty), .;
def halt_error: halt_error(5);
def error(msg): msg | error;
def inputs: def r: (input | (., r)); try r catch (if . == "No more inputs" then empty else error end);
def getpath_or_null(p): getpath(p);
def min_by(f): _min_by(map([f]));
def max_by(f): _max_by(map([f]));
def sort_by(f): _sort_by(map([f]));
def group_by(f): _group_by(map([f]));
def unique_by(f): _unique_by(map([f]));
def ltrimstr($x): _ltrimstr($x);
def rtrimstr($x): _rtrimstr($x);
def join($x): _join($x);
def flatten: flatten(1e9);
def todate(f): f | todate;
def significand: if . == 0 then 0 else . as $x | ($x | fabs | log2 | floor) as $e | $x / pow(2; $e) end;
def logb: if . == 0 then -infinite else fabs | log2 | floor end;
def trim: _trim(3);
def ltrim: _trim(1);
def rtrim: _trim(2);
def splits_all: .;
"#;

/// Names the native builtins answer to, with their arity (for the
/// compile-time check of undefined functions).
pub const NATIVE: &[(&str, usize)] = &[
    ("empty", 0),
    ("not", 0),
    ("error", 0),
    ("length", 0),
    ("utf8bytelength", 0),
    ("keys", 0),
    ("keys_unsorted", 0),
    ("add", 0),
    ("floor", 0),
    ("ceil", 0),
    ("round", 0),
    ("sqrt", 0),
    ("fabs", 0),
    ("log", 0),
    ("log2", 0),
    ("log10", 0),
    ("exp", 0),
    ("exp2", 0),
    ("exp10", 0),
    ("tostring", 0),
    ("tonumber", 0),
    ("type", 0),
    ("infinite", 0),
    ("nan", 0),
    ("isinfinite", 0),
    ("isnan", 0),
    ("isnormal", 0),
    ("sort", 0),
    ("unique", 0),
    ("min", 0),
    ("max", 0),
    ("reverse", 0),
    ("explode", 0),
    ("implode", 0),
    ("ascii_downcase", 0),
    ("ascii_upcase", 0),
    ("tojson", 0),
    ("fromjson", 0),
    ("input", 0),
    ("debug", 0),
    ("stderr", 0),
    ("input_filename", 0),
    ("now", 0),
    ("mktime", 0),
    ("gmtime", 0),
    ("localtime", 0),
    ("to_entries", 0),
    ("from_entries", 0),
    ("halt", 0),
    ("builtins", 0),
    ("input_line_number", 0),
    ("path", 1),
    ("has", 1),
    ("contains", 1),
    ("getpath", 1),
    ("delpaths", 1),
    ("setpath", 2),
    ("split", 1),
    ("split", 2),
    ("_join", 1),
    ("_ltrimstr", 1),
    ("_rtrimstr", 1),
    ("startswith", 1),
    ("endswith", 1),
    ("_sort_by", 1),
    ("_group_by", 1),
    ("_unique_by", 1),
    ("_min_by", 1),
    ("_max_by", 1),
    ("range", 2),
    ("range", 3),
    ("flatten", 1),
    ("indices", 1),
    ("index", 1),
    ("rindex", 1),
    ("test", 2),
    ("match", 2),
    ("pow", 2),
    ("log", 1),
    ("last", 1),
    ("strftime", 1),
    ("strptime", 1),
    ("halt_error", 1),
    ("tojson", 1),
    ("splits", 2),
    ("min_by_impl", 1),
    ("_trim", 1),
    ("ltrimstr", 1),
    ("rtrimstr", 1),
    ("getpath", 1),
    ("todate", 0),
    ("atan", 0),
    ("sin", 0),
    ("cos", 0),
    ("tan", 0),
    ("asin", 0),
    ("acos", 0),
    ("trunc", 0),
    ("fmin", 2),
    ("fmax", 2),
    ("atan2", 2),
    ("splits", 1),
    ("tostream", 0),
    ("getpath", 1),
    ("error", 1),
    ("add", 1),
    ("ltrimstr", 1),
    ("implode", 0),
    ("localtime", 0),
    ("strflocaltime", 1),
    ("@", 0),
    ("significand", 0),
    ("gamma", 0),
    ("lgamma", 0),
    ("cbrt", 0),
    ("input", 0),
    ("$__loc__", 0),
    ("env", 0),
    ("halt_error", 0),
];

fn num_arg(v: &Value, what: &str) -> Result<f64, Ctl> {
    match v {
        Value::Num(n) => Ok(*n),
        _ => err(format!("{} ({}) number required", v.type_name(), short(v))
            .replace(" number required", &format!(" {}", what))),
    }
}

fn math(name: &str, v: &Value) -> Option<Result<Value, Ctl>> {
    let f: fn(f64) -> f64 = match name {
        "floor" => f64::floor,
        "ceil" => f64::ceil,
        "round" => f64::round,
        "sqrt" => f64::sqrt,
        "fabs" => f64::abs,
        "log" => f64::ln,
        "log2" => f64::log2,
        "log10" => f64::log10,
        "exp" => f64::exp,
        "exp2" => f64::exp2,
        "exp10" => |x| 10f64.powf(x),
        "sin" => f64::sin,
        "cos" => f64::cos,
        "tan" => f64::tan,
        "asin" => f64::asin,
        "acos" => f64::acos,
        "atan" => f64::atan,
        "trunc" => f64::trunc,
        "cbrt" => f64::cbrt,
        _ => return None,
    };
    Some(match v {
        Value::Num(n) => Ok(Value::Num(f(*n))),
        _ => err(format!("{} ({}) number required", v.type_name(), short(v))),
    })
}

fn keys(v: &Value, sorted: bool) -> Result<Value, Ctl> {
    match v {
        Value::Obj(m) => {
            let mut k: Vec<Value> = m.keys().map(|k| Value::Str(k.clone())).collect();
            if sorted {
                k.sort_by(compare);
            }
            Ok(Value::arr(k))
        }
        Value::Arr(a) => Ok(Value::arr(
            (0..a.len()).map(|i| Value::Num(i as f64)).collect(),
        )),
        _ => err(format!("{} ({}) has no keys", v.type_name(), short(v))),
    }
}

/// `contains` at the top level: values of different kinds are an error.
fn contains_top(a: &Value, b: &Value) -> Result<bool, Ctl> {
    if a.type_name() != b.type_name() {
        return err(format!(
            "{} ({}) and {} ({}) cannot have their containment checked",
            a.type_name(),
            short(a),
            b.type_name(),
            short(b)
        ));
    }
    Ok(contains(a, b))
}

/// jq's jv_contains: inside containers, values of different kinds simply
/// do not contain each other.
fn contains(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Obj(x), Value::Obj(y)) => {
            for (k, yv) in y.iter() {
                match x.get(k) {
                    Some(xv) => {
                        if !contains(xv, yv) {
                            return false;
                        }
                    }
                    None => return false,
                }
            }
            true
        }
        (Value::Arr(x), Value::Arr(y)) => {
            for yv in y.iter() {
                let mut found = false;
                for xv in x.iter() {
                    if contains(xv, yv) {
                        found = true;
                        break;
                    }
                }
                if !found {
                    return false;
                }
            }
            true
        }
        (Value::Str(x), Value::Str(y)) => x.contains(&**y),
        _ => a == b,
    }
}

fn tostring(v: &Value) -> Value {
    match v {
        Value::Str(_) => v.clone(),
        _ => Value::str(&v.to_json()),
    }
}

fn from_entries(v: &Value) -> Result<Value, Ctl> {
    let mut m = Map::new();
    let items: Vec<Value> = match v {
        Value::Arr(a) => a.to_vec(),
        Value::Obj(o) => o.values().cloned().collect(),
        _ => return err(format!("Cannot iterate over {}", v.type_name())),
    };
    for e in items {
        let get = |names: &[&str]| -> Value {
            for n in names {
                if let Value::Obj(o) = &e {
                    if let Some(x) = o.get(*n) {
                        if x.truthy() || !matches!(x, Value::Null) && *n != "k" {
                            return x.clone();
                        }
                    }
                }
            }
            Value::Null
        };
        if !matches!(e, Value::Obj(_)) {
            return err(format!("Cannot index {} with \"key\"", e.type_name()));
        }
        let k = get(&["key", "k", "name", "Name", "Key", "K"]);
        let key: Rc<str> = match k {
            Value::Str(s) => s,
            Value::Num(_) | Value::Bool(_) => Rc::from(k.to_json().as_str()),
            Value::Null => Rc::from("null"),
            other => {
                return err(format!(
                    "Cannot use {} ({}) as object key",
                    other.type_name(),
                    short(&other)
                ))
            }
        };
        let val = match &e {
            Value::Obj(o) => o
                .get("value")
                .or_else(|| o.get("v"))
                .or_else(|| o.get("Value"))
                .or_else(|| o.get("V"))
                .cloned()
                .unwrap_or(Value::Null),
            _ => Value::Null,
        };
        m.insert(key, val);
    }
    Ok(Value::obj(m))
}

fn to_entries(v: &Value) -> Result<Value, Ctl> {
    match v {
        Value::Obj(m) => Ok(Value::arr(
            m.iter()
                .map(|(k, x)| {
                    let mut e = Map::new();
                    e.insert(Rc::from("key"), Value::Str(k.clone()));
                    e.insert(Rc::from("value"), x.clone());
                    Value::obj(e)
                })
                .collect(),
        )),
        Value::Arr(a) => Ok(Value::arr(
            a.iter()
                .enumerate()
                .map(|(i, x)| {
                    let mut e = Map::new();
                    e.insert(Rc::from("key"), Value::Num(i as f64));
                    e.insert(Rc::from("value"), x.clone());
                    Value::obj(e)
                })
                .collect(),
        )),
        _ => err(format!("{} ({}) has no keys", v.type_name(), short(v))),
    }
}

fn flatten(v: &Value, depth: f64, out: &mut Vec<Value>) {
    if let Value::Arr(a) = v {
        for x in a.iter() {
            match x {
                Value::Arr(_) if depth > 0.0 => flatten(x, depth - 1.0, out),
                _ => out.push(x.clone()),
            }
        }
    }
}

fn sort_keyed(v: &Value, keys: &Value, what: &str) -> Result<Vec<(Value, Value)>, Ctl> {
    let (a, k) = match (v, keys) {
        (Value::Arr(a), Value::Arr(k)) => (a, k),
        _ => {
            return err(format!("Cannot index {} with number", v.type_name())
                .replace("Cannot index", what)
                .replace(what, "Cannot index"))
        }
    };
    let mut pairs: Vec<(Value, Value)> = k.iter().cloned().zip(a.iter().cloned()).collect();
    pairs.sort_by(|x, y| compare(&x.0, &y.0));
    Ok(pairs)
}

fn match_value(s: &str, re: &regex::Regex, global: bool) -> Vec<Value> {
    // Offsets are in code points, as jq reports them.
    let cp = |byte: usize| s[..byte].chars().count() as f64;
    let mut out = Vec::new();
    let names: Vec<Option<&str>> = re.capture_names().collect();
    for caps in re.captures_iter(s) {
        let m = match caps.get(0) {
            Some(m) => m,
            None => break,
        };
        let mut o = Map::new();
        o.insert(Rc::from("offset"), Value::Num(cp(m.start())));
        o.insert(
            Rc::from("length"),
            Value::Num(m.as_str().chars().count() as f64),
        );
        o.insert(Rc::from("string"), Value::str(m.as_str()));
        let mut capv = Vec::new();
        for (i, name) in names.iter().enumerate().skip(1) {
            let mut c = Map::new();
            match caps.get(i) {
                Some(g) => {
                    c.insert(Rc::from("offset"), Value::Num(cp(g.start())));
                    c.insert(
                        Rc::from("length"),
                        Value::Num(g.as_str().chars().count() as f64),
                    );
                    c.insert(Rc::from("string"), Value::str(g.as_str()));
                }
                None => {
                    c.insert(Rc::from("offset"), Value::Num(-1.0));
                    c.insert(Rc::from("length"), Value::Num(0.0));
                    c.insert(Rc::from("string"), Value::Null);
                }
            }
            c.insert(
                Rc::from("name"),
                name.map(Value::str).unwrap_or(Value::Null),
            );
            capv.push(Value::obj(c));
        }
        o.insert(Rc::from("captures"), Value::arr(capv));
        out.push(Value::obj(o));
        if !global {
            break;
        }
    }
    out
}

/// Apply `@name` to a value.
pub fn format(name: &str, v: &Value) -> Result<Value, Ctl> {
    let s = match name {
        "text" => tostring(v),
        "json" => Value::str(&v.to_json()),
        "html" => {
            let t = tostring(v);
            let t = match &t {
                Value::Str(s) => s.to_string(),
                _ => String::new(),
            };
            let mut o = String::with_capacity(t.len());
            for c in t.chars() {
                match c {
                    '<' => o.push_str("&lt;"),
                    '>' => o.push_str("&gt;"),
                    '&' => o.push_str("&amp;"),
                    '\'' => o.push_str("&#39;"),
                    '"' => o.push_str("&quot;"),
                    _ => o.push(c),
                }
            }
            Value::str(&o)
        }
        "uri" => {
            let t = match tostring(v) {
                Value::Str(s) => s,
                _ => Rc::from(""),
            };
            let mut o = String::new();
            for &b in t.as_bytes() {
                if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
                    o.push(b as char);
                } else {
                    let _ = write!(o, "%{:02X}", b);
                }
            }
            Value::str(&o)
        }
        "csv" | "tsv" => {
            let a = match v {
                Value::Arr(a) => a,
                _ => {
                    return err(format!(
                        "{} ({}) cannot be {}-formatted, only an array can be",
                        v.type_name(),
                        short(v),
                        name
                    ))
                }
            };
            let mut parts = Vec::new();
            for x in a.iter() {
                parts.push(match x {
                    Value::Num(_) => x.to_json(),
                    Value::Bool(b) => b.to_string(),
                    Value::Null => String::new(),
                    Value::Str(s) => {
                        if name == "csv" {
                            format!("\"{}\"", s.replace('"', "\"\""))
                        } else {
                            s.replace('\\', "\\\\")
                                .replace('\t', "\\t")
                                .replace('\n', "\\n")
                                .replace('\r', "\\r")
                        }
                    }
                    _ => {
                        return err(format!(
                            "{} ({}) is not valid in a csv row",
                            x.type_name(),
                            short(x)
                        ))
                    }
                });
            }
            Value::str(&parts.join(if name == "csv" { "," } else { "\t" }))
        }
        "sh" => {
            let quote = |x: &Value| -> Result<String, Ctl> {
                match x {
                    Value::Str(s) => Ok(format!("'{}'", s.replace('\'', "'\\''"))),
                    Value::Arr(_) | Value::Obj(_) => err(format!(
                        "{} ({}) can not be escaped for shell",
                        x.type_name(),
                        short(x)
                    )),
                    _ => Ok(x.to_json()),
                }
            };
            match v {
                Value::Arr(a) => {
                    let mut parts = Vec::new();
                    for x in a.iter() {
                        parts.push(quote(x)?);
                    }
                    Value::str(&parts.join(" "))
                }
                _ => Value::str(&quote(v)?),
            }
        }
        "base64" => {
            let t = match tostring(v) {
                Value::Str(s) => s,
                _ => Rc::from(""),
            };
            Value::str(&b64_encode(t.as_bytes()))
        }
        "base64d" => {
            let t = match tostring(v) {
                Value::Str(s) => s,
                _ => Rc::from(""),
            };
            match b64_decode(t.as_bytes()) {
                Some(b) => Value::str(&String::from_utf8_lossy(&b)),
                None => {
                    return err(format!(
                        "{} ({}) is not valid base64 data",
                        v.type_name(),
                        short(v)
                    ))
                }
            }
        }
        _ => return err(format!("{} is not a valid format", name)),
    };
    Ok(s)
}

fn b64_encode(b: &[u8]) -> String {
    coreutils_core::base64::encode(b)
        .into_iter()
        .map(char::from)
        .collect()
}

fn b64_decode(b: &[u8]) -> Option<Vec<u8>> {
    let val = coreutils_core::base64::value;
    let clean: Vec<u8> = b.iter().cloned().filter(|&c| c != b'=').collect();
    let mut out = Vec::new();
    for c in clean.chunks(4) {
        if c.len() == 1 {
            return None;
        }
        let mut n = 0u32;
        for (i, &x) in c.iter().enumerate() {
            n |= val(x)? << (18 - 6 * i);
        }
        out.push((n >> 16) as u8);
        if c.len() > 2 {
            out.push((n >> 8) as u8);
        }
        if c.len() > 3 {
            out.push(n as u8);
        }
    }
    Some(out)
}

fn gmtime(t: f64) -> Value {
    let secs = t.floor();
    let days = (secs / 86400.0).floor() as i64;
    let rem = secs - days as f64 * 86400.0;
    let (y, m, d) = civil_from_days(days);
    let wday = (days + 4).rem_euclid(7);
    let yday = days - days_from_civil(y, 1, 1);
    Value::arr(vec![
        Value::Num(y as f64),
        Value::Num(m as f64 - 1.0),
        Value::Num(d as f64),
        Value::Num((rem / 3600.0).floor()),
        Value::Num(((rem % 3600.0) / 60.0).floor()),
        Value::Num(rem % 60.0 + (t - secs)),
        Value::Num(wday as f64),
        Value::Num(yday as f64),
    ])
}

fn broken(v: &Value) -> Result<Vec<i64>, Ctl> {
    match v {
        Value::Arr(a) if a.len() >= 6 => {
            let mut o = Vec::new();
            for x in a.iter() {
                match x {
                    Value::Num(n) => o.push(n.floor() as i64),
                    _ => return err("mktime requires array of 6 numbers"),
                }
            }
            Ok(o)
        }
        Value::Num(n) => broken(&gmtime(*n)),
        _ => err("mktime requires array of 6 numbers"),
    }
}

/// jq's `strftime`: the broken-down time (or epoch seconds) is brought
/// back to seconds as `mktime` does, then formatted by the shared calendar.
fn strftime(v: &Value, fmt: &str) -> Result<Value, Ctl> {
    let t = broken(v)?;
    let secs = broken_secs(&t);
    Ok(Value::str(&calendar::strftime(fmt, secs, 0)))
}

/// Seconds since the epoch of jq's broken-down time (`mktime`: month 0-11
/// and day clamped into range, time of day carried).
fn broken_secs(t: &[i64]) -> i64 {
    let days = days_from_civil(
        t[0],
        (t[1] + 1).clamp(1, 12) as u32,
        t[2].clamp(1, 31) as u32,
    );
    days * 86400 + t[3] * 3600 + t[4] * 60 + t[5]
}

fn strptime(s: &str, fmt: &str) -> Result<Value, Ctl> {
    let fail = || err(format!("date \"{}\" does not match format \"{}\"", s, fmt));
    let sb = s.as_bytes();
    let mut i = 0;
    let (mut y, mut mo, mut d, mut h, mut mi, mut se) = (1900i64, 0i64, 1i64, 0i64, 0i64, 0i64);
    let num = |i: &mut usize, max: usize| -> Option<i64> {
        let st = *i;
        if *i < sb.len() && (sb[*i] == b'+' || sb[*i] == b'-') {
            *i += 1;
        }
        while *i < sb.len() && sb[*i].is_ascii_digit() && *i - st < max {
            *i += 1;
        }
        std::str::from_utf8(&sb[st..*i]).ok()?.parse().ok()
    };
    let mut it = fmt.chars();
    while let Some(c) = it.next() {
        if c == '%' {
            let r = match it.next() {
                Some('Y') => num(&mut i, 4).map(|v| y = v),
                Some('m') => num(&mut i, 2).map(|v| mo = v - 1),
                Some('d') | Some('e') => num(&mut i, 2).map(|v| d = v),
                Some('H') => num(&mut i, 2).map(|v| h = v),
                Some('M') => num(&mut i, 2).map(|v| mi = v),
                Some('S') => num(&mut i, 2).map(|v| se = v),
                Some('Z') => {
                    while i < sb.len() && sb[i].is_ascii_alphabetic() {
                        i += 1;
                    }
                    Some(())
                }
                Some('z') => num(&mut i, 5).map(|_| ()),
                Some('T') => {
                    let a = num(&mut i, 2);
                    i += 1;
                    let b2 = num(&mut i, 2);
                    i += 1;
                    let c2 = num(&mut i, 2);
                    match (a, b2, c2) {
                        (Some(a), Some(b2), Some(c2)) => {
                            h = a;
                            mi = b2;
                            se = c2;
                            Some(())
                        }
                        _ => None,
                    }
                }
                Some('%') => {
                    if sb.get(i) == Some(&b'%') {
                        i += 1;
                        Some(())
                    } else {
                        None
                    }
                }
                _ => None,
            };
            if r.is_none() {
                return fail();
            }
        } else if c.is_whitespace() {
            while i < sb.len() && sb[i].is_ascii_whitespace() {
                i += 1;
            }
        } else {
            let mut buf = [0u8; 4];
            let cb = c.encode_utf8(&mut buf).as_bytes();
            if sb[i..].starts_with(cb) {
                i += cb.len();
            } else {
                return fail();
            }
        }
    }
    if i != sb.len() {
        return fail();
    }
    let days = days_from_civil(y, (mo + 1).clamp(1, 12) as u32, d.clamp(1, 31) as u32);
    let wday = (days + 4).rem_euclid(7);
    let yday = days - days_from_civil(y, 1, 1);
    Ok(Value::arr(
        [y, mo, d, h, mi, se, wday, yday]
            .iter()
            .map(|&x| Value::Num(x as f64))
            .collect(),
    ))
}

fn str_of<'v>(v: &'v Value, msg: &str) -> Result<&'v Rc<str>, Ctl> {
    match v {
        Value::Str(s) => Ok(s),
        _ => err(format!("{} ({}) {}", v.type_name(), short(v), msg)),
    }
}

/// Evaluate each argument against the input and call `f` with every
/// combination (jq evaluates later arguments in the outer loop).
fn args1(
    it: &Interp,
    args: &'static [Ast],
    env: &Rc<Env>,
    inp: &PV,
    f: &mut dyn FnMut(Value) -> R,
) -> R {
    it.each(&args[0], env, &inp.v, f)
}

fn args2(
    it: &Interp,
    args: &'static [Ast],
    env: &Rc<Env>,
    inp: &PV,
    f: &mut dyn FnMut(Value, Value) -> R,
) -> R {
    it.each(&args[1], env, &inp.v, &mut |b| {
        it.each(&args[0], env, &inp.v, &mut |a| f(a, b.clone()))
    })
}

/// Run native builtin `name`; `None` if there is no such builtin.
pub fn native(
    it: &Interp,
    name: &str,
    args: &'static [Ast],
    env: &Rc<Env>,
    inp: &PV,
    out: &mut dyn FnMut(PV) -> R,
) -> Option<R> {
    let v = &inp.v;
    let emit = |out: &mut dyn FnMut(PV) -> R, r: Result<Value, Ctl>| -> R {
        let x = r?;
        if inp.p.is_some() {
            return err(format!("Invalid path expression with result {}", short(&x)));
        }
        out(PV { v: x, p: None })
    };
    let n = args.len();
    let r: R = match (name, n) {
        ("empty", 0) => Ok(()),
        ("not", 0) => emit(out, Ok(Value::Bool(!v.truthy()))),
        ("error", 0) => Err(Ctl::Err(v.clone())),
        ("error", 1) => args1(it, args, env, inp, &mut |m| Err(Ctl::Err(m))),
        ("path", 1) => it.paths_of(&args[0], env, v, &mut |p, _| emit(out, Ok(p))),
        ("getpath", 1) => args1(it, args, env, inp, &mut |p| match &p {
            Value::Arr(pa) => {
                let r = match getpath(v, pa) {
                    Ok(x) => x,
                    Err(_) => Value::Null,
                };
                let np = inp.p.as_ref().map(|b| {
                    let mut b2 = (**b).clone();
                    b2.extend(pa.iter().cloned());
                    Rc::new(b2)
                });
                out(PV { v: r, p: np })
            }
            _ => err("Path must be specified as an array"),
        }),
        ("setpath", 2) => args2(it, args, env, inp, &mut |p, x| match &p {
            Value::Arr(pa) => emit(out, setpath(v, pa, x)),
            _ => err("Path must be specified as an array"),
        }),
        ("delpaths", 1) => args1(it, args, env, inp, &mut |ps| match &ps {
            Value::Arr(pa) => emit(out, delpaths(v, pa)),
            _ => err("Paths must be specified as an array"),
        }),
        ("length", 0) => emit(
            out,
            match v {
                Value::Null => Ok(Value::Num(0.0)),
                Value::Bool(_) => err(format!("boolean ({}) has no length", v.to_json())),
                Value::Num(x) => Ok(Value::Num(x.abs())),
                Value::Str(s) => Ok(Value::Num(s.chars().count() as f64)),
                Value::Arr(a) => Ok(Value::Num(a.len() as f64)),
                Value::Obj(m) => Ok(Value::Num(m.len() as f64)),
            },
        ),
        ("utf8bytelength", 0) => emit(
            out,
            str_of(v, "only strings have UTF-8 byte length").map(|s| Value::Num(s.len() as f64)),
        ),
        ("keys", 0) => emit(out, keys(v, true)),
        ("keys_unsorted", 0) => emit(out, keys(v, false)),
        ("add", 0) => emit(
            out,
            (|| {
                let items: Vec<Value> = match v {
                    Value::Arr(a) => a.to_vec(),
                    Value::Obj(m) => m.values().cloned().collect(),
                    Value::Null => Vec::new(),
                    _ => {
                        return err(format!(
                            "Cannot iterate over {} ({})",
                            v.type_name(),
                            short(v)
                        ))
                    }
                };
                let mut acc = Value::Null;
                // Strings and arrays are joined in one go instead of pairwise copies.
                if items
                    .iter()
                    .all(|x| matches!(x, Value::Str(_) | Value::Null))
                    && items.iter().any(|x| matches!(x, Value::Str(_)))
                {
                    let mut s = String::new();
                    for x in &items {
                        if let Value::Str(t) = x {
                            s.push_str(t);
                        }
                    }
                    return Ok(Value::str(&s));
                }
                for x in items {
                    acc = add(&acc, &x)?;
                }
                Ok(acc)
            })(),
        ),
        ("has", 1) => args1(it, args, env, inp, &mut |k| {
            emit(
                out,
                match (v, &k) {
                    (Value::Obj(m), Value::Str(s)) => Ok(Value::Bool(m.contains_key(s))),
                    (Value::Arr(a), Value::Num(x)) => {
                        Ok(Value::Bool(*x >= 0.0 && (*x as usize) < a.len()))
                    }
                    _ => err(format!(
                        "Cannot check whether {} has a {} key",
                        v.type_name(),
                        k.type_name()
                    )),
                },
            )
        }),
        ("contains", 1) => args1(it, args, env, inp, &mut |b| {
            emit(out, contains_top(v, &b).map(Value::Bool))
        }),
        ("tostring", 0) => emit(out, Ok(tostring(v))),
        ("tojson", 0) => emit(out, Ok(Value::str(&v.to_json()))),
        ("fromjson", 0) => emit(
            out,
            match v {
                Value::Str(s) => Parser::single(s.as_bytes()).or_else(|e| {
                    let text = Parser::new(s.as_bytes()).describe(&e);
                    err(format!("{} (while parsing '{}')", text, s))
                }),
                _ => err(format!(
                    "{} ({}) only strings can be parsed",
                    v.type_name(),
                    short(v)
                )),
            },
        ),
        ("tonumber", 0) => emit(
            out,
            match v {
                Value::Num(_) => Ok(v.clone()),
                Value::Str(s) => match s.trim().parse::<f64>() {
                    Ok(x)
                        if !s.trim().is_empty()
                            && !s.contains(|c: char| c.is_alphabetic() && c != 'e' && c != 'E') =>
                    {
                        Ok(Value::Num(x))
                    }
                    // jq parses the text as JSON: its parse error is the message.
                    _ => match Parser::single(s.as_bytes()) {
                        Err(e) => {
                            let text = Parser::new(s.as_bytes()).describe(&e);
                            err(format!("{} (while parsing '{}')", text, s))
                        }
                        Ok(_) => err(format!("Cannot parse '{}' as JSON", s)),
                    },
                },
                _ => err(format!(
                    "{} ({}) cannot be parsed as a number",
                    v.type_name(),
                    short(v)
                )),
            },
        ),
        ("type", 0) => emit(out, Ok(Value::str(v.type_name()))),
        ("infinite", 0) => emit(out, Ok(Value::Num(f64::INFINITY))),
        ("nan", 0) => emit(out, Ok(Value::Num(f64::NAN))),
        ("isinfinite", 0) => emit(
            out,
            num_arg(v, "number required").map(|x| Value::Bool(x.is_infinite())),
        ),
        ("isnan", 0) => emit(
            out,
            num_arg(v, "number required").map(|x| Value::Bool(x.is_nan())),
        ),
        ("isnormal", 0) => emit(
            out,
            num_arg(v, "number required").map(|x| Value::Bool(x.is_normal())),
        ),
        ("sort", 0) => emit(
            out,
            match v {
                Value::Arr(a) => {
                    let mut s = a.to_vec();
                    s.sort_by(compare);
                    Ok(Value::arr(s))
                }
                _ => err(format!(
                    "{} ({}) cannot be sorted, as it is not an array",
                    v.type_name(),
                    short(v)
                )),
            },
        ),
        ("unique", 0) => emit(
            out,
            match v {
                Value::Arr(a) => {
                    let mut s = a.to_vec();
                    s.sort_by(compare);
                    s.dedup_by(|x, y| compare(x, y) == std::cmp::Ordering::Equal);
                    Ok(Value::arr(s))
                }
                _ => err(format!(
                    "{} ({}) cannot be sorted, as it is not an array",
                    v.type_name(),
                    short(v)
                )),
            },
        ),
        ("min", 0) | ("max", 0) => emit(
            out,
            match v {
                Value::Arr(a) => {
                    let mut best: Option<&Value> = None;
                    for x in a.iter() {
                        best = match best {
                            None => Some(x),
                            Some(b) => {
                                let o = compare(x, b);
                                if (name == "min" && o == std::cmp::Ordering::Less)
                                    || (name == "max" && o != std::cmp::Ordering::Less)
                                {
                                    Some(x)
                                } else {
                                    Some(b)
                                }
                            }
                        };
                    }
                    Ok(best.cloned().unwrap_or(Value::Null))
                }
                _ => err(format!(
                    "{} ({}) cannot be sorted, as it is not an array",
                    v.type_name(),
                    short(v)
                )),
            },
        ),
        ("_sort_by", 1)
        | ("_group_by", 1)
        | ("_unique_by", 1)
        | ("_min_by", 1)
        | ("_max_by", 1) => args1(it, args, env, inp, &mut |keys| {
            if !matches!(v, Value::Arr(_)) {
                return err(format!("Cannot index {} with number", v.type_name()));
            }
            let pairs = sort_keyed(v, &keys, "")?;
            let r = match name {
                "_sort_by" => Value::arr(pairs.into_iter().map(|p| p.1).collect()),
                "_group_by" | "_unique_by" => {
                    let mut groups: Vec<Vec<Value>> = Vec::new();
                    let mut last: Option<Value> = None;
                    for (k, x) in pairs {
                        if last.as_ref().map(|l| *l == k).unwrap_or(false) {
                            if let Some(g) = groups.last_mut() {
                                g.push(x);
                            }
                        } else {
                            groups.push(vec![x]);
                            last = Some(k);
                        }
                    }
                    if name == "_group_by" {
                        Value::arr(groups.into_iter().map(Value::arr).collect())
                    } else {
                        Value::arr(
                            groups
                                .into_iter()
                                .filter_map(|g| g.into_iter().next())
                                .collect(),
                        )
                    }
                }
                "_min_by" => pairs.into_iter().next().map(|p| p.1).unwrap_or(Value::Null),
                _ => {
                    // max_by keeps the last of equal maxima, like jq.
                    pairs.into_iter().last().map(|p| p.1).unwrap_or(Value::Null)
                }
            };
            emit(out, Ok(r))
        }),
        ("reverse", 0) => emit(
            out,
            match v {
                Value::Arr(a) => Ok(Value::arr(a.iter().rev().cloned().collect())),
                Value::Str(s) => Ok(Value::str(&s.chars().rev().collect::<String>())),
                Value::Null => Ok(Value::arr(Vec::new())),
                _ => err(format!("Cannot index {} with number", v.type_name())),
            },
        ),
        ("explode", 0) => emit(
            out,
            str_of(v, "cannot be exploded")
                .map(|s| Value::arr(s.chars().map(|c| Value::Num(c as u32 as f64)).collect())),
        ),
        ("implode", 0) => emit(
            out,
            match v {
                Value::Arr(a) => {
                    let mut s = String::new();
                    for x in a.iter() {
                        match x {
                            Value::Num(n) => {
                                s.push(char::from_u32(*n as u32).unwrap_or('\u{fffd}'))
                            }
                            _ => return Some(err("Unicode codepoint must be numeric")),
                        }
                    }
                    Ok(Value::str(&s))
                }
                _ => err("implode input must be an array"),
            },
        ),
        ("ascii_downcase", 0) => emit(
            out,
            str_of(v, "")
                .map_err(|_| Ctl::Err(Value::str("explode input must be a string")))
                .map(|s| Value::str(&s.to_ascii_lowercase())),
        ),
        ("ascii_upcase", 0) => emit(
            out,
            str_of(v, "")
                .map_err(|_| Ctl::Err(Value::str("explode input must be a string")))
                .map(|s| Value::str(&s.to_ascii_uppercase())),
        ),
        ("_ltrimstr", 1) | ("_rtrimstr", 1) => args1(it, args, env, inp, &mut |p| {
            let r = match (v, &p) {
                (Value::Str(s), Value::Str(t)) => {
                    if name == "_ltrimstr" {
                        s.strip_prefix(&**t)
                            .map(Value::str)
                            .unwrap_or_else(|| v.clone())
                    } else {
                        s.strip_suffix(&**t)
                            .map(Value::str)
                            .unwrap_or_else(|| v.clone())
                    }
                }
                _ => v.clone(),
            };
            emit(out, Ok(r))
        }),
        ("startswith", 1) | ("endswith", 1) => args1(it, args, env, inp, &mut |p| {
            emit(
                out,
                match (v, &p) {
                    (Value::Str(s), Value::Str(t)) => Ok(Value::Bool(if name == "startswith" {
                        s.starts_with(&**t)
                    } else {
                        s.ends_with(&**t)
                    })),
                    _ => err(format!("{}() requires string inputs", name)),
                },
            )
        }),
        ("_trim", 1) => args1(it, args, env, inp, &mut |m| {
            let s = str_of(v, "trim input must be a string").map_err(|_| {
                Ctl::Err(Value::str(&format!(
                    "{} ({}) trim input must be a string",
                    v.type_name(),
                    short(v)
                )))
            })?;
            let mode = match m {
                Value::Num(x) => x as i32,
                _ => 3,
            };
            let r = match mode {
                1 => s.trim_start(),
                2 => s.trim_end(),
                _ => s.trim(),
            };
            emit(out, Ok(Value::str(r)))
        }),
        ("split", 1) => args1(it, args, env, inp, &mut |sep| {
            emit(
                out,
                match (v, &sep) {
                    (Value::Str(s), Value::Str(t)) => Ok(split_str(s, t)),
                    _ => err("split input and separator must be strings"),
                },
            )
        }),
        ("split", 2) => args2(it, args, env, inp, &mut |re, flags| {
            let s = str_of(v, "cannot be matched, as it is not a string")?;
            let re = str_of(&re, "cannot be matched, as it is not a string")?;
            let fl = match &flags {
                Value::Str(f) => f.to_string(),
                _ => String::new(),
            };
            let r = it.regex(re, &fl)?;
            let mut parts = Vec::new();
            let mut last = 0;
            for m in r.find_iter(s) {
                if m.start() == m.end() && m.start() == 0 {
                    continue;
                }
                parts.push(Value::str(&s[last..m.start()]));
                last = m.end();
            }
            parts.push(Value::str(&s[last..]));
            emit(out, Ok(Value::arr(parts)))
        }),
        ("_join", 1) => args1(it, args, env, inp, &mut |sep| {
            let sep = match &sep {
                Value::Str(s) => s.clone(),
                _ => {
                    return err(format!(
                        "string (\"\") and {} ({}) cannot be added",
                        sep.type_name(),
                        short(&sep)
                    ))
                }
            };
            let items: Vec<Value> = match v {
                Value::Arr(a) => a.to_vec(),
                Value::Obj(m) => m.values().cloned().collect(),
                _ => {
                    return err(format!(
                        "Cannot iterate over {}{}",
                        v.type_name(),
                        match v {
                            Value::Null => String::new(),
                            _ => format!(" ({})", short(v)),
                        }
                    ))
                }
            };
            let mut s = String::new();
            for (i, x) in items.iter().enumerate() {
                if i > 0 {
                    s.push_str(&sep);
                }
                match x {
                    Value::Null => {}
                    Value::Str(t) => s.push_str(t),
                    Value::Num(_) | Value::Bool(_) => s.push_str(&x.to_json()),
                    _ => {
                        // jq adds each element to the text so far (and the separator).
                        return err(format!(
                            "string ({}) and {} ({}) cannot be added",
                            short(&Value::str(&s)),
                            x.type_name(),
                            short(x)
                        ));
                    }
                }
            }
            emit(out, Ok(Value::str(&s)))
        }),
        ("range", 2) => args2(it, args, env, inp, &mut |a, b| {
            let (a, b) = (
                num_arg(&a, "Range bounds must be numeric")?,
                num_arg(&b, "Range bounds must be numeric")?,
            );
            let mut x = a;
            while x < b {
                emit(out, Ok(Value::Num(x)))?;
                x += 1.0;
            }
            Ok(())
        }),
        ("range", 3) => it.each(&args[2], env, v, &mut |by| {
            it.each(&args[1], env, v, &mut |b| {
                it.each(&args[0], env, v, &mut |a| {
                    let (a, b, by) = (num_arg(&a, "")?, num_arg(&b, "")?, num_arg(&by, "")?);
                    let mut x = a;
                    if by > 0.0 {
                        while x < b {
                            emit(out, Ok(Value::Num(x)))?;
                            x += by;
                        }
                    } else if by < 0.0 {
                        while x > b {
                            emit(out, Ok(Value::Num(x)))?;
                            x += by;
                        }
                    } else if a < b {
                        loop {
                            emit(out, Ok(Value::Num(x)))?;
                        }
                    }
                    Ok(())
                })
            })
        }),
        ("flatten", 1) => args1(it, args, env, inp, &mut |d| {
            let d = num_arg(&d, "")?;
            if d < 0.0 {
                return err("flatten depth must not be negative");
            }
            if !matches!(v, Value::Arr(_)) {
                return err(format!(
                    "Cannot iterate over {} ({})",
                    v.type_name(),
                    short(v)
                ));
            }
            let mut o = Vec::new();
            flatten(v, d, &mut o);
            emit(out, Ok(Value::arr(o)))
        }),
        ("indices", 1) | ("index", 1) | ("rindex", 1) => args1(it, args, env, inp, &mut |k| {
            let all = match (v, &k) {
                (Value::Null, _) | (_, Value::Null) => Value::Null,
                (Value::Str(_), Value::Str(_)) | (Value::Arr(_), _) => {
                    let r = super::eval::index(v, &Value::arr(vec![]));
                    let _ = r;
                    match (v, &k) {
                        (Value::Arr(_), Value::Arr(_)) | (Value::Str(_), Value::Str(_)) => {
                            indices_of(v, &k)
                        }
                        _ => indices_of(v, &Value::arr(vec![k.clone()])),
                    }
                }
                _ => {
                    return err(format!(
                        "Cannot index {} with {}",
                        v.type_name(),
                        k.type_name()
                    ))
                }
            };
            let r = match name {
                "indices" => all,
                "index" => match &all {
                    Value::Arr(a) => a.first().cloned().unwrap_or(Value::Null),
                    x => x.clone(),
                },
                _ => match &all {
                    Value::Arr(a) => a.last().cloned().unwrap_or(Value::Null),
                    x => x.clone(),
                },
            };
            emit(out, Ok(r))
        }),
        ("test", 2) | ("match", 2) => args2(it, args, env, inp, &mut |re, flags| {
            let s = match v {
                Value::Str(s) => s.clone(),
                _ => {
                    return err(format!(
                        "{} ({}) cannot be matched, as it is not a string",
                        v.type_name(),
                        short(v)
                    ))
                }
            };
            let re = match &re {
                Value::Str(r) => r.clone(),
                _ => {
                    return err(format!(
                        "{} ({}) cannot be matched, as it is not a string",
                        re.type_name(),
                        short(&re)
                    ))
                }
            };
            let fl = match &flags {
                Value::Str(f) => f.to_string(),
                Value::Null => String::new(),
                _ => {
                    return err(format!(
                        "{} ({}) is not a string",
                        flags.type_name(),
                        short(&flags)
                    ))
                }
            };
            let r = it.regex(&re, &fl)?;
            if name == "test" {
                return emit(out, Ok(Value::Bool(r.is_match(&s))));
            }
            for m in match_value(&s, &r, fl.contains('g')) {
                emit(out, Ok(m))?;
            }
            Ok(())
        }),
        ("pow", 2) => args2(it, args, env, inp, &mut |a, b| {
            emit(
                out,
                Ok(Value::Num(
                    num_arg(&a, "number required")?.powf(num_arg(&b, "number required")?),
                )),
            )
        }),
        ("atan2", 2) => args2(it, args, env, inp, &mut |a, b| {
            emit(
                out,
                Ok(Value::Num(num_arg(&a, "")?.atan2(num_arg(&b, "")?))),
            )
        }),
        ("fmin", 2) => args2(it, args, env, inp, &mut |a, b| {
            emit(out, Ok(Value::Num(num_arg(&a, "")?.min(num_arg(&b, "")?))))
        }),
        ("fmax", 2) => args2(it, args, env, inp, &mut |a, b| {
            emit(out, Ok(Value::Num(num_arg(&a, "")?.max(num_arg(&b, "")?))))
        }),
        ("last", 1) => {
            let mut last = None;
            match it.each(&args[0], env, v, &mut |x| {
                last = Some(x);
                Ok(())
            }) {
                Ok(()) => match last {
                    Some(x) => emit(out, Ok(x)),
                    None => Ok(()),
                },
                Err(e) => Err(e),
            }
        }
        ("to_entries", 0) => emit(out, to_entries(v)),
        ("from_entries", 0) => emit(out, from_entries(v)),
        ("input", 0) => {
            let mut g = it.inputs.borrow_mut();
            let r = match g.as_mut() {
                Some(src) => src.next_input(),
                None => Ok(None),
            };
            drop(g);
            match r {
                Ok(Some(x)) => emit(out, Ok(x)),
                Ok(None) => err("No more inputs"),
                Err(m) => err(m),
            }
        }
        ("input_filename", 0) => {
            let f = it
                .inputs
                .borrow()
                .as_ref()
                .map(|s| s.filename())
                .unwrap_or(Value::Null);
            emit(out, Ok(f))
        }
        ("input_line_number", 0) => emit(out, Ok(Value::Num(0.0))),
        ("debug", 0) => {
            let mut d = it.dbg.borrow_mut();
            d.extend_from_slice(b"[\"DEBUG:\",");
            d.extend_from_slice(v.to_json().as_bytes());
            d.extend_from_slice(b"]\n");
            drop(d);
            flush_dbg(it);
            out(inp.clone())
        }
        ("stderr", 0) => {
            it.dbg
                .borrow_mut()
                .extend_from_slice(v.to_json().as_bytes());
            flush_dbg(it);
            out(inp.clone())
        }
        ("now", 0) => emit(
            out,
            Ok(Value::Num(
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|d| d.as_secs_f64())
                    .unwrap_or(0.0),
            )),
        ),
        ("gmtime", 0) | ("localtime", 0) => emit(
            out,
            num_arg(v, "gmtime() requires a number")
                .map(gmtime)
                .or_else(|_| err("gmtime() requires a number")),
        ),
        ("mktime", 0) => emit(
            out,
            (|| {
                if !matches!(v, Value::Arr(_)) {
                    return err("mktime requires array of 6 numbers");
                }
                Ok(Value::Num(broken_secs(&broken(v)?) as f64))
            })(),
        ),
        ("strftime", 1) | ("strflocaltime", 1) => args1(it, args, env, inp, &mut |f| {
            let f = match &f {
                Value::Str(s) => s.clone(),
                _ => return err("strftime/1 requires a string format"),
            };
            if !matches!(v, Value::Num(_) | Value::Arr(_)) {
                return err("strftime/1 requires parsed datetime inputs");
            }
            emit(out, strftime(v, &f))
        }),
        ("strptime", 1) => args1(it, args, env, inp, &mut |f| {
            let s = match v {
                Value::Str(s) => s.clone(),
                _ => return err("strptime/1 requires string inputs and arguments".to_string()),
            };
            let f = match &f {
                Value::Str(s) => s.clone(),
                _ => return err("strptime/1 requires string inputs and arguments"),
            };
            emit(out, strptime(&s, &f))
        }),
        ("halt", 0) => Err(Ctl::Halt(0, None)),
        ("halt_error", 1) => args1(it, args, env, inp, &mut |c| match c {
            Value::Num(n) => Err(Ctl::Halt(n as i32, Some(v.clone()))),
            _ => err("halt_error/1: number required"),
        }),
        ("builtins", 0) => emit(
            out,
            Ok(Value::arr(
                NATIVE
                    .iter()
                    .filter(|(n, _)| !n.starts_with('_'))
                    .map(|(n, a)| Value::str(&format!("{}/{}", n, a)))
                    .collect(),
            )),
        ),
        ("splits", 1) => return None,
        ("ltrimstr", 1) | ("rtrimstr", 1) | ("tojson", 1) => return None,
        _ => match math(name, v) {
            Some(r) if n == 0 => emit(out, r),
            _ => return None,
        },
    };
    Some(r)
}

fn indices_of(v: &Value, k: &Value) -> Value {
    let mut out = Vec::new();
    match (v, k) {
        (Value::Arr(a), Value::Arr(b)) => {
            if !b.is_empty() && a.len() >= b.len() {
                for i in 0..=(a.len() - b.len()) {
                    if a[i..i + b.len()] == b[..] {
                        out.push(Value::Num(i as f64));
                    }
                }
            }
        }
        (Value::Str(s), Value::Str(t)) => {
            let (sb, tb) = (s.as_bytes(), t.as_bytes());
            if !tb.is_empty() {
                let mut i = 0;
                while i + tb.len() <= sb.len() {
                    if &sb[i..i + tb.len()] == tb {
                        out.push(Value::Num(i as f64));
                    }
                    i += 1;
                }
            }
        }
        _ => return Value::Null,
    }
    Value::arr(out)
}

fn flush_dbg(it: &Interp) {
    use std::io::Write;
    let mut d = it.dbg.borrow_mut();
    let _ = std::io::stderr().write_all(&d);
    d.clear();
}
