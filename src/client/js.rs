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

#[cfg(test)]
mod tests {
    use super::*;

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
