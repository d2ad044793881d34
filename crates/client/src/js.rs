//! JavaScript's semantics where a JavaScript client's reading of a SKILL.md
//! depends on them: what `String.prototype.trim` and the regex class `\s`
//! take for white space, `String(value)` of a YAML value, lengths and cuts
//! in UTF-16 code units, and the YAML 1.2 core schema as Bun's `Bun.YAML`
//! resolves plain scalars (Claude Code runs on Bun).

use crate::catalog::yaml::{Kind, Node, Style};

/// White space as JavaScript's `trim()` and `\s` see it: WhiteSpace and
/// LineTerminator of ECMA-262 (U+FEFF included, U+0085 not).
pub fn is_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202f}'
                | '\u{205f}'
                | '\u{3000}'
                | '\u{feff}'
    )
}

/// A line terminator for JavaScript's regex `.` and `$` (which `.` does
/// not match).
pub fn is_line_terminator(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}')
}

/// `s.trim()`.
pub fn trim(s: &str) -> &str {
    s.trim_matches(is_space)
}

/// `s.length`: UTF-16 code units.
pub fn len16(s: &str) -> usize {
    s.chars().map(char::len_utf16).sum()
}

/// `s.slice(0, units)` as it reaches another program: the first `units`
/// UTF-16 code units, where a character split in two (a surrogate pair) is
/// sent as U+FFFD. Returns the kept text, the byte offset in `s` where the
/// cut falls, and whether a pair was split.
pub fn slice16(s: &str, units: usize) -> (String, usize, bool) {
    let mut n = 0;
    for (i, c) in s.char_indices() {
        let w = c.len_utf16();
        if n + w > units {
            if n < units {
                // the high surrogate alone: encoded as U+FFFD
                let mut kept = s[..i].to_string();
                kept.push('\u{fffd}');
                return (kept, i, true);
            }
            return (s[..i].to_string(), i, false);
        }
        n += w;
    }
    (s.to_string(), s.len(), false)
}

/// A YAML value as JavaScript sees it after `Bun.YAML.parse`.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Number(f64),
    String(String),
    Array(Vec<Value>),
    /// Keys in first-insertion order; a repeated key keeps its first
    /// position and its last value, as assignment to an object does.
    Object(Vec<(String, Value)>),
}

impl Value {
    /// The value of `key` in an object.
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Object(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// `v != null` (neither null nor undefined).
    pub fn is_present(v: Option<&Value>) -> bool {
        !matches!(v, None | Some(Value::Null))
    }

    /// `String(v)`.
    pub fn to_js_string(&self) -> String {
        match self {
            Value::Null => "null".into(),
            Value::Bool(b) => b.to_string(),
            Value::Number(n) => number_to_string(*n),
            Value::String(s) => s.clone(),
            // `[1, [2, null]].toString()` is "1,2,"
            Value::Array(items) => items
                .iter()
                .map(|v| match v {
                    Value::Null => String::new(),
                    v => v.to_js_string(),
                })
                .collect::<Vec<_>>()
                .join(","),
            Value::Object(_) => "[object Object]".into(),
        }
    }
}

/// `String(n)` for a number: the shortest digits that round-trip, laid out
/// as ECMA-262's Number::toString lays them out (exponent form from 1e21
/// and below 1e-6).
pub fn number_to_string(n: f64) -> String {
    if n.is_nan() {
        return "NaN".into();
    }
    if n.is_infinite() {
        return if n > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    if n == 0.0 {
        return "0".into();
    }
    let sign = if n < 0.0 { "-" } else { "" };
    // Rust's `{:e}` gives the shortest round-trip digits: d.ddde±x
    let e = format!("{:e}", n.abs());
    let (mantissa, exp) = e.split_once('e').unwrap_or((&e, "0"));
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let exp: i64 = exp.parse().unwrap_or(0);
    let k = digits.len() as i64;
    let point = exp + 1; // value = 0.digits × 10^point
    let body = if k <= point && point <= 21 {
        format!("{digits}{}", "0".repeat((point - k) as usize))
    } else if 0 < point && point <= 21 {
        format!(
            "{}.{}",
            &digits[..point as usize],
            &digits[point as usize..]
        )
    } else if -6 < point && point <= 0 {
        format!("0.{}{digits}", "0".repeat((-point) as usize))
    } else {
        let e = point - 1;
        let e = if e >= 0 {
            format!("+{e}")
        } else {
            e.to_string()
        };
        if k == 1 {
            format!("{digits}e{e}")
        } else {
            format!("{}.{}e{e}", &digits[..1], &digits[1..])
        }
    };
    format!("{sign}{body}")
}

/// The number a plain scalar resolves to under Bun's YAML core schema, if
/// it is one: decimal integers (leading zeros are decimal: `017` is 17),
/// `0x`/`0o` integers with an optional sign, decimal floats (`1.`, `.5`,
/// `1e3`) and `.inf`/`.nan`. `1_000` and `0b101` stay strings.
pub fn plain_number(t: &str) -> Option<f64> {
    let (neg, rest) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let signed = |v: f64| if neg { -v } else { v };
    match rest {
        ".inf" | ".Inf" | ".INF" => return Some(signed(f64::INFINITY)),
        ".nan" | ".NaN" | ".NAN" if rest.len() == t.len() => return Some(f64::NAN),
        _ => {}
    }
    let radix = |digits: &str, r: u32| -> Option<f64> {
        if digits.is_empty() || !digits.chars().all(|c| c.is_digit(r)) {
            return None;
        }
        Some(digits.chars().fold(0f64, |acc, c| {
            acc * r as f64 + c.to_digit(r).unwrap_or(0) as f64
        }))
    };
    if let Some(h) = rest.strip_prefix("0x") {
        return radix(h, 16).map(signed);
    }
    if let Some(o) = rest.strip_prefix("0o") {
        return radix(o, 8).map(signed);
    }
    // [0-9]+(\.[0-9]*)? | \.[0-9]+ , then an optional exponent
    let b = rest.as_bytes();
    let mut i = 0;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    let int_digits = i;
    let mut frac_digits = 0;
    if i < b.len() && b[i] == b'.' {
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
            frac_digits += 1;
        }
    }
    if int_digits == 0 && frac_digits == 0 {
        return None;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        let mut j = i + 1;
        if j < b.len() && (b[j] == b'+' || b[j] == b'-') {
            j += 1;
        }
        let start = j;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        if j == start {
            return None;
        }
        i = j;
    }
    if i != b.len() {
        return None;
    }
    let text = rest.strip_suffix('.').unwrap_or(rest);
    text.parse::<f64>().ok().map(signed)
}

/// What `Bun.YAML.parse` makes of a plain scalar.
fn plain(text: &str) -> Value {
    match text {
        "" | "~" | "null" | "Null" | "NULL" => Value::Null,
        "true" | "True" | "TRUE" => Value::Bool(true),
        "false" | "False" | "FALSE" => Value::Bool(false),
        t => plain_number(t).map_or_else(|| Value::String(t.to_string()), Value::Number),
    }
}

/// A parsed YAML node as a JavaScript value: plain scalars resolved by the
/// core schema, a tag other than the core ones (`!!str`, `!custom`) makes
/// a string, and `<<` merge keys are merged.
pub fn value(node: &Node) -> Value {
    match &node.kind {
        Kind::Scalar { text, style, tag } => {
            let core = matches!(
                tag.as_deref(),
                None | Some("!!int" | "!!float" | "!!bool" | "!!null")
            );
            if *style == Style::Plain && core {
                plain(text)
            } else {
                Value::String(text.clone())
            }
        }
        Kind::Seq(items) => Value::Array(items.iter().map(value).collect()),
        Kind::Map(entries) => object(entries.iter().map(|(k, v)| {
            let key = match value(k) {
                Value::String(s) => s,
                other => other.to_js_string(),
            };
            (key, matches!(k.style(), Some(Style::Plain)), v)
        })),
    }
}

/// An object from (key, key is plain, value) pairs: the last of equal keys
/// wins, `<<` merges.
pub fn object<'a>(pairs: impl Iterator<Item = (String, bool, &'a Node)>) -> Value {
    let mut out: Vec<(String, Value)> = Vec::new();
    let mut merged: Vec<(String, Value)> = Vec::new();
    for (key, plain_key, v) in pairs {
        if key == "<<" && plain_key {
            let sources: Vec<Value> = match value(v) {
                Value::Array(items) => items,
                one => vec![one],
            };
            for s in sources {
                if let Value::Object(e) = s {
                    merged.extend(e);
                }
            }
            continue;
        }
        set(&mut out, key, value(v));
    }
    for (k, v) in merged {
        if !out.iter().any(|(ok, _)| *ok == k) {
            out.push((k, v));
        }
    }
    Value::Object(out)
}

fn set(out: &mut Vec<(String, Value)>, key: String, v: Value) {
    match out.iter_mut().find(|(k, _)| *k == key) {
        Some(slot) => slot.1 = v,
        None => out.push((key, v)),
    }
}

/// A value of a document js-yaml loaded, as far as the clients look at it.
#[derive(Debug, Clone, PartialEq)]
pub enum JsVal {
    Null,
    Str(String),
    /// Anything else (a number, a boolean, a date, a list, an object).
    Other(&'static str),
}

/// What `yaml.load(text)` returns.
#[derive(Debug, Clone, PartialEq)]
pub enum JsDoc {
    /// An empty document (`undefined`).
    Empty,
    /// A scalar or a list.
    NotMapping,
    /// An object: its keys in order (merge keys merged).
    Map(Vec<(String, JsVal)>),
}

impl JsDoc {
    pub fn get(&self, key: &str) -> Option<&JsVal> {
        match self {
            JsDoc::Map(m) => m.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
}

/// The core tags js-yaml knows.
fn known_tag(tag: &str) -> bool {
    matches!(
        tag,
        "!!str"
            | "!!int"
            | "!!float"
            | "!!bool"
            | "!!null"
            | "!!map"
            | "!!seq"
            | "!!timestamp"
            | "!!binary"
            | "!!omap"
            | "!!pairs"
            | "!!set"
            | "!!merge"
            | "!"
    )
}

fn js_val(node: &Node, v: JsYaml) -> Result<JsVal, String> {
    Ok(match &node.kind {
        Kind::Scalar { text, style, tag } => {
            if let Some(t) = tag.as_deref()
                && !known_tag(t)
            {
                return Err(format!("unknown tag {t}"));
            }
            match tag.as_deref() {
                Some("!!str") | Some("!") => JsVal::Str(text.clone()),
                Some("!!null") => JsVal::Null,
                Some("!!int" | "!!float" | "!!bool" | "!!timestamp" | "!!binary") => {
                    JsVal::Other("tagged")
                }
                _ if *style == Style::Plain && !js_yaml_plain_is_string(text, v) => {
                    if matches!(text.as_str(), "" | "~" | "null" | "Null" | "NULL") {
                        JsVal::Null
                    } else {
                        JsVal::Other("non-string")
                    }
                }
                _ => JsVal::Str(text.clone()),
            }
        }
        Kind::Seq(_) => JsVal::Other("list"),
        Kind::Map(_) => JsVal::Other("object"),
    })
}

/// `yaml.load(yaml)` of js-yaml `v`: an error for what js-yaml refuses
/// (a syntax error, a key twice, an unknown tag; in version 4 a tab in
/// indentation, which version 3 reads as white space), else the document.
pub fn js_yaml_load(yaml: &str, v: JsYaml) -> Result<JsDoc, String> {
    if v == JsYaml::V4 && super::claude_code::bun_refuses_tabs(yaml) {
        return Err("tab characters must not be used in indentation".into());
    }
    // js-yaml 3 counts only spaces as indentation and skips tabs after them
    let untabbed;
    let yaml = if v == JsYaml::V3 && yaml.contains('\t') {
        untabbed = yaml
            .split('\n')
            .map(|l| {
                let spaces = l.len() - l.trim_start_matches(' ').len();
                let rest = l[spaces..].trim_start_matches('\t');
                format!("{}{rest}", &l[..spaces])
            })
            .collect::<Vec<_>>()
            .join("\n");
        untabbed.as_str()
    } else {
        yaml
    };
    let tree = crate::catalog::yaml::parse(yaml).map_err(|e| e.message)?;
    if let Some(d) = tree.duplicates.first() {
        return Err(format!("duplicated mapping key `{}`", d.key));
    }
    let Some(root) = tree.root else {
        return Ok(JsDoc::Empty);
    };
    let Kind::Map(entries) = &root.kind else {
        return Ok(match &root.kind {
            Kind::Scalar { style, text, .. } if *style == Style::Plain && text.is_empty() => {
                JsDoc::Empty
            }
            _ => JsDoc::NotMapping,
        });
    };
    let mut out: Vec<(String, JsVal)> = Vec::new();
    let mut merged: Vec<(String, JsVal)> = Vec::new();
    for (k, val) in entries {
        let key = k.scalar_text().unwrap_or("").to_string();
        if key == "<<" && k.style() == Some(Style::Plain) {
            let sources: Vec<&Node> = match &val.kind {
                Kind::Seq(items) => items.iter().collect(),
                _ => vec![val],
            };
            for src in sources {
                if let Kind::Map(m) = &src.kind {
                    for (mk, mv) in m {
                        merged.push((mk.scalar_text().unwrap_or("").to_string(), js_val(mv, v)?));
                    }
                }
            }
            continue;
        }
        out.push((key, js_val(val, v)?));
    }
    for (k, val) in merged {
        if !out.iter().any(|(ok, _)| *ok == k) {
            out.push((k, val));
        }
    }
    Ok(JsDoc::Map(out))
}

/// js-yaml's major version: 3 (gray-matter's, opencode) or 4 (Gemini
/// CLI's).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsYaml {
    V3,
    V4,
}

/// Whether js-yaml's default schema resolves the plain scalar `t` to a
/// string (not null, a boolean, an integer, a float or a timestamp).
pub fn js_yaml_plain_is_string(t: &str, v: JsYaml) -> bool {
    !(matches!(t, "" | "~" | "null" | "Null" | "NULL")
        || matches!(t, "true" | "True" | "TRUE" | "false" | "False" | "FALSE")
        || js_yaml_int(t, v)
        || js_yaml_float(t, v)
        || js_yaml_timestamp(t))
}

fn js_yaml_int(t: &str, v: JsYaml) -> bool {
    let b = t.as_bytes();
    let mut i = 0;
    if matches!(b.first(), Some(b'-' | b'+')) {
        i += 1;
    }
    let digits = |rest: &[u8], ok: &dyn Fn(u8) -> bool| {
        let mut seen = false;
        for &c in rest {
            if c == b'_' {
                continue;
            }
            if !ok(c) {
                return false;
            }
            seen = true;
        }
        seen && rest.last() != Some(&b'_')
    };
    if b.get(i) == Some(&b'0') {
        if i + 1 == b.len() {
            return true;
        }
        let rest = &b[i + 2..];
        return match (b[i + 1], v) {
            (b'b', _) => digits(rest, &|c| c == b'0' || c == b'1'),
            (b'x', _) => digits(rest, &|c| c.is_ascii_hexdigit()),
            (b'o', JsYaml::V4) => digits(rest, &|c| (b'0'..=b'7').contains(&c)),
            // js-yaml 3: a leading zero means octal
            (_, JsYaml::V3) => digits(&b[i + 1..], &|c| (b'0'..=b'7').contains(&c)),
            (_, JsYaml::V4) => digits(&b[i..], &|c| c.is_ascii_digit()),
        };
    }
    if b.get(i) == Some(&b'_') {
        return false;
    }
    let rest = &b[i..];
    match v {
        JsYaml::V4 => digits(rest, &|c| c.is_ascii_digit()),
        JsYaml::V3 => {
            // sexagesimal: 1:30
            let (head, tail) = match rest.iter().position(|&c| c == b':') {
                Some(p) => (&rest[..p], Some(&rest[p..])),
                None => (rest, None),
            };
            if !digits(head, &|c| c.is_ascii_digit()) {
                return false;
            }
            match tail {
                None => true,
                Some(t) => sexagesimal_tail(t),
            }
        }
    }
}

/// `(:[0-5]?[0-9])+` matched whole.
fn sexagesimal_tail(t: &[u8]) -> bool {
    let mut i = 0;
    let mut groups = 0;
    while i < t.len() {
        if t[i] != b':' {
            return false;
        }
        i += 1;
        let start = i;
        while i < t.len() && t[i].is_ascii_digit() && i - start < 2 {
            i += 1;
        }
        let n = &t[start..i];
        let ok = match n.len() {
            1 => true,
            2 => (b'0'..=b'5').contains(&n[0]),
            _ => false,
        };
        if !ok {
            return false;
        }
        groups += 1;
    }
    groups > 0
}

/// js-yaml's float pattern (v3 also takes sexagesimal floats), no
/// trailing `_`.
fn js_yaml_float(t: &str, v: JsYaml) -> bool {
    if t.ends_with('_') {
        return false;
    }
    let b = t.as_bytes();
    let mut i = 0;
    let signed = matches!(b.first(), Some(b'-' | b'+'));
    if signed {
        i += 1;
    }
    let rest = &t[i..];
    if matches!(rest, ".inf" | ".Inf" | ".INF") {
        return true;
    }
    if !signed && matches!(rest, ".nan" | ".NaN" | ".NAN") {
        return true;
    }
    let r = rest.as_bytes();
    let is_d = |c: u8| c.is_ascii_digit() || c == b'_';
    // exponent: [eE][-+]?[0-9]+ at the end
    let exp_ok = |e: &[u8]| -> bool {
        if e.is_empty() {
            return true;
        }
        if !matches!(e[0], b'e' | b'E') {
            return false;
        }
        let e = &e[1..];
        let e = e
            .strip_prefix(b"-")
            .or_else(|| e.strip_prefix(b"+"))
            .unwrap_or(e);
        !e.is_empty() && e.iter().all(u8::is_ascii_digit)
    };
    if r.first() == Some(&b'.') {
        // \.[0-9_]+ exponent? (no sign in js-yaml's pattern)
        if signed {
            return false;
        }
        let mut j = 1;
        while j < r.len() && is_d(r[j]) {
            j += 1;
        }
        return j > 1 && exp_ok(&r[j..]);
    }
    // integer part
    let mut j = 0;
    while j < r.len() && is_d(r[j]) {
        j += 1;
    }
    if j == 0 {
        return false;
    }
    let int = &r[..j];
    if v == JsYaml::V3 && r.get(j) == Some(&b':') {
        // [-+]?[0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]*
        let Some(dot) = r.iter().position(|&c| c == b'.') else {
            return false;
        };
        return sexagesimal_tail(&r[j..dot]) && r[dot + 1..].iter().all(|&c| is_d(c));
    }
    if v == JsYaml::V3 && int.len() > 1 && int[0] == b'0' {
        // (?:0|[1-9][0-9_]*)
        return false;
    }
    if !int[0].is_ascii_digit() {
        return false;
    }
    let mut k = j;
    if r.get(k) == Some(&b'.') {
        k += 1;
        while k < r.len() && is_d(r[k]) {
            k += 1;
        }
    }
    exp_ok(&r[k..])
}

/// js-yaml's timestamp patterns: `YYYY-MM-DD`, or a date with a time.
fn js_yaml_timestamp(t: &str) -> bool {
    let b = t.as_bytes();
    let d = |i: usize| b.get(i).is_some_and(u8::is_ascii_digit);
    if b.len() == 10
        && (0..4).all(d)
        && b[4] == b'-'
        && d(5)
        && d(6)
        && b[7] == b'-'
        && d(8)
        && d(9)
    {
        return true;
    }
    // YYYY-M(M)-D(D)([Tt]|[ \t]+)H(H):MM:SS(.f*)?([ \t]*(Z|[-+]H(H)(:MM)?))?
    let mut i = 0;
    let digits = |i: &mut usize, min: usize, max: usize| -> bool {
        let s = *i;
        while *i < b.len() && b[*i].is_ascii_digit() && *i - s < max {
            *i += 1;
        }
        *i - s >= min
    };
    let lit = |i: &mut usize, c: u8| -> bool {
        if b.get(*i) == Some(&c) {
            *i += 1;
            true
        } else {
            false
        }
    };
    if !(digits(&mut i, 4, 4)
        && lit(&mut i, b'-')
        && digits(&mut i, 1, 2)
        && lit(&mut i, b'-')
        && digits(&mut i, 1, 2))
    {
        return false;
    }
    if matches!(b.get(i), Some(b'T' | b't')) {
        i += 1;
    } else {
        let s = i;
        while matches!(b.get(i), Some(b' ' | b'\t')) {
            i += 1;
        }
        if i == s {
            return false;
        }
    }
    if !(digits(&mut i, 1, 2)
        && lit(&mut i, b':')
        && digits(&mut i, 2, 2)
        && lit(&mut i, b':')
        && digits(&mut i, 2, 2))
    {
        return false;
    }
    if lit(&mut i, b'.') {
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
    }
    if i == b.len() {
        return true;
    }
    while matches!(b.get(i), Some(b' ' | b'\t')) {
        i += 1;
    }
    if lit(&mut i, b'Z') {
        return i == b.len();
    }
    if !matches!(b.get(i), Some(b'-' | b'+')) {
        return false;
    }
    i += 1;
    if !digits(&mut i, 1, 2) {
        return false;
    }
    if lit(&mut i, b':') && !digits(&mut i, 2, 2) {
        return false;
    }
    i == b.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn js_yaml_resolves_plain_scalars_as_each_version_does() {
        use JsYaml::*;
        for s in [
            "1.10",
            "true",
            "~",
            "",
            "0x1F",
            "1_000",
            "2024-01-01",
            "-5",
            ".inf",
            "1e3",
            "0b101",
        ] {
            assert!(!js_yaml_plain_is_string(s, V4), "{s} is not a string in v4");
            assert!(!js_yaml_plain_is_string(s, V3), "{s} is not a string in v3");
        }
        assert!(!js_yaml_plain_is_string("1:30", V3));
        assert!(js_yaml_plain_is_string("1:30", V4));
        assert!(!js_yaml_plain_is_string("0o17", V4));
        assert!(js_yaml_plain_is_string("0o17", V3));
        assert!(!js_yaml_plain_is_string("017", V3));
        assert!(!js_yaml_plain_is_string("2024-1-2 10:00:00 +01:00", V4));
        for s in [
            "yes",
            "1.2.3",
            "v1",
            "1e",
            "abc",
            "1_",
            "- x",
            "12345678901234567890x",
        ] {
            assert!(js_yaml_plain_is_string(s, V4), "{s} is a string");
        }
    }

    #[test]
    fn numbers_print_as_javascript_prints_them() {
        for (n, s) in [
            (1.0, "1"),
            (0.5, "0.5"),
            (1e21, "1e+21"),
            (1.5e21, "1.5e+21"),
            (1e-7, "1e-7"),
            (0.000001, "0.000001"),
            (123456789012345678.0, "123456789012345680"),
            (12345678901234567890.0, "12345678901234567000"),
            (-31.0, "-31"),
            (std::f64::consts::PI, "3.141592653589793"),
            (f64::INFINITY, "Infinity"),
            (-0.0, "0"),
            (1e23, "1e+23"),
        ] {
            assert_eq!(number_to_string(n), s, "{n}");
        }
    }

    #[test]
    fn plain_numbers_follow_bun() {
        assert_eq!(plain_number("017"), Some(17.0));
        assert_eq!(plain_number("-0x1F"), Some(-31.0));
        assert_eq!(plain_number("0o17"), Some(15.0));
        assert_eq!(plain_number("1."), Some(1.0));
        assert_eq!(plain_number("+.5"), Some(0.5));
        for s in [
            "1_000", "0b101", "0O17", "0X1f", "1e", "0x", "1.5.2", "inf", "-", ".",
        ] {
            assert_eq!(plain_number(s), None, "{s}");
        }
    }

    #[test]
    fn a_cut_through_a_surrogate_pair_sends_a_replacement_character() {
        assert_eq!(slice16("ab😀c", 3), ("ab\u{fffd}".to_string(), 2, true));
        assert_eq!(slice16("ab😀c", 4), ("ab😀".to_string(), 6, false));
        assert_eq!(len16("ab😀c"), 5);
        assert_eq!(trim("\u{feff} x\u{3000}"), "x");
        assert_eq!(trim("\u{85}x"), "\u{85}x");
    }
}
