//! A small, strict JSON parser (RFC 8259) that keeps byte ranges.
//!
//! serde_json gives no positions for values, and a case-file diagnostic must
//! point at the prompt or key it is about. This recursive-descent parser
//! produces a tree of [`Value`]s, each with the byte range it covers in the
//! text, and records duplicate object keys instead of silently keeping one.
//! Input is bounded twice: by size ([`Limits::max_bytes`]) and by nesting
//! depth ([`Limits::max_depth`]), so hostile input cannot exhaust the stack.
//! Errors carry the byte offset where parsing stopped; callers turn it into
//! a line and column with their [`base::diag::LineIndex`].

use std::fmt;

/// Bounds on what [`parse`] accepts.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Deepest nesting of arrays and objects.
    pub max_depth: usize,
    /// Largest text accepted, in bytes.
    pub max_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_depth: 64,
            max_bytes: 16 * 1024 * 1024,
        }
    }
}

/// One JSON value and the byte range `start..end` it covers.
#[derive(Debug, Clone, PartialEq)]
pub struct Value {
    pub kind: Kind,
    pub start: usize,
    pub end: usize,
}

/// What a [`Value`] is.
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    Null,
    Bool(bool),
    /// The number as written (validated against the JSON grammar).
    Number(String),
    /// The decoded string.
    String(String),
    Array(Vec<Value>),
    /// Members in file order; duplicates are kept (see [`Tree::duplicates`]).
    Object(Vec<Member>),
}

/// One `"key": value` of an object.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    /// The decoded key.
    pub key: String,
    /// Byte range of the key including its quotes.
    pub key_start: usize,
    pub key_end: usize,
    pub value: Value,
}

/// A key that appears twice in one object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Duplicate {
    pub key: String,
    /// Byte offset of the first occurrence's opening quote.
    pub first: usize,
    /// Byte offset of the second occurrence's opening quote.
    pub second: usize,
}

/// A parsed document.
#[derive(Debug, Clone, PartialEq)]
pub struct Tree {
    pub root: Value,
    /// Every repeated key, in file order of the repetition.
    pub duplicates: Vec<Duplicate>,
}

/// Why parsing stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// The text is not JSON.
    Syntax,
    /// The text is JSON but exceeds [`Limits`].
    Limit,
}

/// A parse error at byte `offset`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    pub kind: ErrorKind,
    /// One lowercase sentence.
    pub message: String,
    pub offset: usize,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.message, self.offset)
    }
}

impl Value {
    /// The type with its article, for messages: `null`, `a string`, `an
    /// array`.
    pub fn described(&self) -> &'static str {
        match self.kind {
            Kind::Null => "null",
            Kind::Bool(_) => "a boolean",
            Kind::Number(_) => "a number",
            Kind::String(_) => "a string",
            Kind::Array(_) => "an array",
            Kind::Object(_) => "an object",
        }
    }

    /// The type name used in messages: `null`, `boolean`, `number`,
    /// `string`, `array`, `object`.
    pub fn type_name(&self) -> &'static str {
        match self.kind {
            Kind::Null => "null",
            Kind::Bool(_) => "boolean",
            Kind::Number(_) => "number",
            Kind::String(_) => "string",
            Kind::Array(_) => "array",
            Kind::Object(_) => "object",
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match &self.kind {
            Kind::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&[Value]> {
        match &self.kind {
            Kind::Array(v) => Some(v),
            _ => None,
        }
    }

    pub fn as_object(&self) -> Option<&[Member]> {
        match &self.kind {
            Kind::Object(m) => Some(m),
            _ => None,
        }
    }

    /// The number's text, when this is a number.
    pub fn as_number(&self) -> Option<&str> {
        match &self.kind {
            Kind::Number(n) => Some(n),
            _ => None,
        }
    }

    /// The value as a non-negative integer, when it is a number written
    /// without fraction or exponent that fits in a `u64` (`3`, not `3.0`).
    pub fn as_u64(&self) -> Option<u64> {
        self.as_number()?.parse().ok()
    }

    /// The first member named `key` (the first occurrence wins here; the
    /// duplicate itself is reported from [`Tree::duplicates`]).
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.member(key).map(|m| &m.value)
    }

    /// The first member named `key`.
    pub fn member(&self, key: &str) -> Option<&Member> {
        self.as_object()?.iter().find(|m| m.key == key)
    }
}

/// Parse `text` as one JSON document with default [`Limits`].
pub fn parse(text: &str) -> Result<Tree, Error> {
    parse_with(text, Limits::default())
}

/// Parse `text` as one JSON document.
pub fn parse_with(text: &str, limits: Limits) -> Result<Tree, Error> {
    if text.len() > limits.max_bytes {
        return Err(Error {
            kind: ErrorKind::Limit,
            message: format!(
                "document is {} bytes, more than the {}-byte limit",
                text.len(),
                limits.max_bytes
            ),
            offset: 0,
        });
    }
    let mut p = Parser {
        text,
        bytes: text.as_bytes(),
        pos: 0,
        limits,
        duplicates: Vec::new(),
    };
    if text.starts_with('\u{feff}') {
        return Err(p.error_at(
            0,
            "the file starts with a UTF-8 byte order mark, which JSON does not allow",
        ));
    }
    p.skip_ws();
    let root = p.value(0)?;
    p.skip_ws();
    if p.pos < p.bytes.len() {
        return Err(p.error(format!(
            "unexpected {} after the end of the document",
            p.describe_here()
        )));
    }
    Ok(Tree {
        root,
        duplicates: p.duplicates,
    })
}

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    limits: Limits,
    duplicates: Vec<Duplicate>,
}

impl Parser<'_> {
    fn error(&self, message: impl Into<String>) -> Error {
        self.error_at(self.pos, message)
    }

    fn error_at(&self, offset: usize, message: impl Into<String>) -> Error {
        Error {
            kind: ErrorKind::Syntax,
            message: message.into(),
            offset,
        }
    }

    /// Name the character at the cursor for a message.
    fn describe_here(&self) -> String {
        match self.text[self.pos..].chars().next() {
            None => "end of file".into(),
            Some(c) if c.is_control() || c.is_whitespace() => {
                format!("character U+{:04X}", c as u32)
            }
            Some(c) => format!("`{c}`"),
        }
    }

    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.pos) {
            self.pos += 1;
        }
    }

    fn value(&mut self, depth: usize) -> Result<Value, Error> {
        let start = self.pos;
        let kind = match self.bytes.get(self.pos) {
            None => return Err(self.error("expected a value, found end of file")),
            Some(b'{') => self.object(depth)?,
            Some(b'[') => self.array(depth)?,
            Some(b'"') => Kind::String(self.string()?),
            Some(b'-' | b'0'..=b'9') => Kind::Number(self.number()?),
            Some(b't') => self.literal("true", Kind::Bool(true))?,
            Some(b'f') => self.literal("false", Kind::Bool(false))?,
            Some(b'n') => self.literal("null", Kind::Null)?,
            Some(b'\'') => {
                return Err(self.error("strings must use double quotes, not single quotes"));
            }
            Some(_) => {
                return Err(self.error(format!("expected a value, found {}", self.describe_here())));
            }
        };
        Ok(Value {
            kind,
            start,
            end: self.pos,
        })
    }

    fn literal(&mut self, word: &str, kind: Kind) -> Result<Kind, Error> {
        if self.text[self.pos..].starts_with(word) {
            self.pos += word.len();
            Ok(kind)
        } else {
            let end = self.text[self.pos..]
                .find(|c: char| !c.is_ascii_alphanumeric())
                .map_or(self.text.len(), |i| self.pos + i);
            Err(self.error(format!(
                "expected a value, found `{}`",
                &self.text[self.pos..end.max(self.pos + 1).min(self.text.len())]
            )))
        }
    }

    fn enter(&self, depth: usize) -> Result<(), Error> {
        if depth >= self.limits.max_depth {
            return Err(Error {
                kind: ErrorKind::Limit,
                message: format!(
                    "nesting is deeper than the {}-level limit",
                    self.limits.max_depth
                ),
                offset: self.pos,
            });
        }
        Ok(())
    }

    fn array(&mut self, depth: usize) -> Result<Kind, Error> {
        self.enter(depth)?;
        self.pos += 1; // [
        let mut items = Vec::new();
        self.skip_ws();
        if self.bytes.get(self.pos) == Some(&b']') {
            self.pos += 1;
            return Ok(Kind::Array(items));
        }
        loop {
            self.skip_ws();
            if self.bytes.get(self.pos) == Some(&b']') {
                return Err(self.error("trailing comma before `]`"));
            }
            items.push(self.value(depth + 1)?);
            self.skip_ws();
            match self.bytes.get(self.pos) {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    return Ok(Kind::Array(items));
                }
                _ => {
                    return Err(self.error(format!(
                        "expected `,` or `]` in an array, found {}",
                        self.describe_here()
                    )));
                }
            }
        }
    }

    fn object(&mut self, depth: usize) -> Result<Kind, Error> {
        self.enter(depth)?;
        self.pos += 1; // {
        let mut members: Vec<Member> = Vec::new();
        // key -> index of its first member; built once the object is large
        // enough that scanning the members for duplicates would be quadratic
        let mut index: Option<std::collections::HashMap<String, usize>> = None;
        self.skip_ws();
        if self.bytes.get(self.pos) == Some(&b'}') {
            self.pos += 1;
            return Ok(Kind::Object(members));
        }
        loop {
            self.skip_ws();
            match self.bytes.get(self.pos) {
                Some(b'"') => {}
                Some(b'}') => return Err(self.error("trailing comma before `}`")),
                _ => {
                    return Err(self.error(format!(
                        "expected a key in double quotes, found {}",
                        self.describe_here()
                    )));
                }
            }
            let key_start = self.pos;
            let key = self.string()?;
            let key_end = self.pos;
            self.skip_ws();
            if self.bytes.get(self.pos) != Some(&b':') {
                return Err(self.error(format!(
                    "expected `:` after the key, found {}",
                    self.describe_here()
                )));
            }
            self.pos += 1;
            self.skip_ws();
            let value = self.value(depth + 1)?;
            const SCAN_LIMIT: usize = 16;
            if index.is_none() && members.len() >= SCAN_LIMIT {
                let mut map = std::collections::HashMap::with_capacity(members.len() * 2);
                for (i, m) in members.iter().enumerate() {
                    map.entry(m.key.clone()).or_insert(i);
                }
                index = Some(map);
            }
            let first = match &mut index {
                None => members.iter().position(|m| m.key == key),
                Some(map) => match map.get(&key) {
                    Some(&i) => Some(i),
                    None => {
                        map.insert(key.clone(), members.len());
                        None
                    }
                },
            };
            if let Some(i) = first {
                self.duplicates.push(Duplicate {
                    key: key.clone(),
                    first: members[i].key_start,
                    second: key_start,
                });
            }
            members.push(Member {
                key,
                key_start,
                key_end,
                value,
            });
            self.skip_ws();
            match self.bytes.get(self.pos) {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(Kind::Object(members));
                }
                _ => {
                    return Err(self.error(format!(
                        "expected `,` or `}}` in an object, found {}",
                        self.describe_here()
                    )));
                }
            }
        }
    }

    /// A string starting at the cursor's `"`; returns the decoded text.
    fn string(&mut self) -> Result<String, Error> {
        let open = self.pos;
        self.pos += 1;
        let mut out = String::new();
        loop {
            // copy the run of ordinary bytes in one go
            let run = self.pos;
            while let Some(&b) = self.bytes.get(self.pos) {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.pos += 1;
            }
            out.push_str(&self.text[run..self.pos]);
            match self.bytes.get(self.pos) {
                None => return Err(self.error_at(open, "string is never closed")),
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') => self.escape(&mut out)?,
                Some(&b) => {
                    let what = match b {
                        b'\n' | b'\r' => "a line break".to_string(),
                        b'\t' => "a tab".to_string(),
                        _ => format!("control character U+{b:04X}"),
                    };
                    return Err(self.error(format!(
                        "{what} inside a string; write it as an escape (`\\n`, `\\t`, `\\u00XX`)"
                    )));
                }
            }
        }
    }

    fn escape(&mut self, out: &mut String) -> Result<(), Error> {
        let at = self.pos;
        self.pos += 1; // backslash
        let Some(&c) = self.bytes.get(self.pos) else {
            return Err(self.error_at(at, "string is never closed"));
        };
        self.pos += 1;
        let ch = match c {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let hi = self.hex4(at)?;
                if (0xDC00..0xE000).contains(&hi) {
                    return Err(
                        self.error_at(at, format!("lone low surrogate `\\u{hi:04X}` in a string"))
                    );
                }
                if (0xD800..0xDC00).contains(&hi) {
                    if !self.text[self.pos..].starts_with("\\u") {
                        return Err(self.error_at(
                            at,
                            format!(
                                "high surrogate `\\u{hi:04X}` is not followed by a low surrogate"
                            ),
                        ));
                    }
                    let low_at = self.pos;
                    self.pos += 2;
                    let lo = self.hex4(low_at)?;
                    if !(0xDC00..0xE000).contains(&lo) {
                        return Err(self.error_at(
                            low_at,
                            format!(
                                "high surrogate `\\u{hi:04X}` is followed by `\\u{lo:04X}`, not a low surrogate"
                            ),
                        ));
                    }
                    let cp = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                    char::from_u32(cp).expect("a surrogate pair is a scalar value")
                } else {
                    char::from_u32(hi).expect("a non-surrogate BMP code point is a scalar value")
                }
            }
            _ => {
                // report the whole (possibly multi-byte) character
                let shown = self.text[self.pos - 1..].chars().next().unwrap_or('?');
                return Err(self.error_at(at, format!("invalid escape `\\{shown}` in a string")));
            }
        };
        out.push(ch);
        Ok(())
    }

    /// Four hex digits after `\u`.
    fn hex4(&mut self, escape_at: usize) -> Result<u32, Error> {
        let digits = self.bytes.get(self.pos..self.pos + 4);
        match digits {
            Some(d) if d.iter().all(u8::is_ascii_hexdigit) => {
                let s = std::str::from_utf8(d).expect("hex digits are ASCII");
                self.pos += 4;
                Ok(u32::from_str_radix(s, 16).expect("four hex digits"))
            }
            _ => Err(self.error_at(escape_at, "`\\u` must be followed by four hex digits")),
        }
    }

    fn digits(&mut self) -> usize {
        let from = self.pos;
        while let Some(b'0'..=b'9') = self.bytes.get(self.pos) {
            self.pos += 1;
        }
        self.pos - from
    }

    fn number(&mut self) -> Result<String, Error> {
        let start = self.pos;
        if self.bytes[self.pos] == b'-' {
            self.pos += 1;
        }
        match self.bytes.get(self.pos) {
            Some(b'0') => {
                self.pos += 1;
                if let Some(b'0'..=b'9') = self.bytes.get(self.pos) {
                    return Err(self.error_at(start, "numbers must not have leading zeros"));
                }
            }
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return Err(self.error("expected a digit in a number")),
        }
        if self.bytes.get(self.pos) == Some(&b'.') {
            self.pos += 1;
            if self.digits() == 0 {
                return Err(self.error("expected a digit after the decimal point"));
            }
        }
        if let Some(b'e' | b'E') = self.bytes.get(self.pos) {
            self.pos += 1;
            if let Some(b'+' | b'-') = self.bytes.get(self.pos) {
                self.pos += 1;
            }
            if self.digits() == 0 {
                return Err(self.error("expected a digit in the exponent"));
            }
        }
        Ok(self.text[start..self.pos].to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(text: &str) -> String {
        parse(text).unwrap().root.as_str().unwrap().to_string()
    }

    fn err(text: &str) -> Error {
        parse(text).unwrap_err()
    }

    #[test]
    fn strings_decode_every_escape() {
        assert_eq!(
            s(r#""a\"b\\c\/d\be\ff\ng\rh\ti""#),
            "a\"b\\c/d\u{8}e\u{c}f\ng\rh\ti"
        );
        assert_eq!(s(r#""\u00e9\u4E2D""#), "é中");
        assert_eq!(s("\"caf\u{e9} ok\""), "café ok");
    }

    #[test]
    fn surrogate_pairs_combine_and_lone_halves_are_errors() {
        assert_eq!(s(r#""\ud83d\ude00""#), "😀");
        assert_eq!(s(r#""x\uD834\uDD1Ey""#), "x𝄞y");
        let e = err(r#""\ud83d""#);
        assert!(e.message.contains("not followed by a low surrogate"), "{e}");
        assert_eq!(e.offset, 1);
        let e = err(r#""\ude00""#);
        assert!(e.message.contains("lone low surrogate"), "{e}");
        let e = err(r#""\ud83d\u0041""#);
        assert!(e.message.contains("not a low surrogate"), "{e}");
        assert_eq!(e.offset, 7);
    }

    #[test]
    fn bad_escapes_and_raw_control_characters_are_errors() {
        assert!(err(r#""\x""#).message.contains("invalid escape `\\x`"));
        assert!(err(r#""\u12""#).message.contains("four hex digits"));
        let e = err("\"a\nb\"");
        assert!(e.message.contains("line break"), "{e}");
        assert_eq!(e.offset, 2);
        assert_eq!(err("\"abc").message, "string is never closed");
    }

    #[test]
    fn numbers_follow_the_grammar() {
        for ok in ["0", "-0", "12", "-3.25", "1e9", "1E+2", "2.5e-3"] {
            let t = parse(ok).unwrap();
            assert_eq!(t.root.as_number(), Some(ok));
        }
        for bad in ["01", "-", "1.", ".5", "1e", "+1", "1.e3", "0x10"] {
            assert!(parse(bad).is_err(), "{bad} should fail");
        }
        assert_eq!(parse("42").unwrap().root.as_u64(), Some(42));
        assert_eq!(parse("4.0").unwrap().root.as_u64(), None);
        assert_eq!(parse("-4").unwrap().root.as_u64(), None);
    }

    #[test]
    fn spans_cover_each_value() {
        let text = "{\n  \"a\": [1, \"x\"],\n  \"b\": null\n}";
        let t = parse(text).unwrap();
        let a = t.root.member("a").unwrap();
        assert_eq!(&text[a.key_start..a.key_end], "\"a\"");
        assert_eq!(&text[a.value.start..a.value.end], "[1, \"x\"]");
        let items = a.value.as_array().unwrap();
        assert_eq!(&text[items[1].start..items[1].end], "\"x\"");
        let b = t.root.get("b").unwrap();
        assert_eq!(&text[b.start..b.end], "null");
        assert_eq!((t.root.start, t.root.end), (0, text.len()));
    }

    #[test]
    fn nesting_beyond_the_limit_is_refused_without_overflow() {
        let deep = "[".repeat(100_000);
        let e = err(&deep);
        assert_eq!(e.kind, ErrorKind::Limit);
        assert_eq!(e.offset, 64);
        let limits = Limits {
            max_depth: 3,
            ..Limits::default()
        };
        assert!(parse_with("[[[]]]", limits).is_ok());
        assert_eq!(
            parse_with("[[[[]]]]", limits).unwrap_err().kind,
            ErrorKind::Limit
        );
    }

    #[test]
    fn size_limit_is_refused() {
        let limits = Limits {
            max_bytes: 4,
            ..Limits::default()
        };
        assert_eq!(
            parse_with("[1,2]", limits).unwrap_err().kind,
            ErrorKind::Limit
        );
    }

    #[test]
    fn trailing_garbage_is_an_error_at_its_offset() {
        let e = err("{\"a\": 1}\n}");
        assert_eq!(e.offset, 9);
        assert!(e.message.contains("after the end of the document"), "{e}");
        assert!(parse("{\"a\": 1}  \n").is_ok());
    }

    #[test]
    fn trailing_commas_comments_and_single_quotes_are_errors() {
        assert!(err("[1,]").message.contains("trailing comma"));
        assert!(err("{\"a\":1,}").message.contains("trailing comma"));
        assert!(err("['a']").message.contains("double quotes"));
        assert!(err("// c\n{}").message.contains("expected a value"));
        assert!(err("{a: 1}").message.contains("key in double quotes"));
        assert!(err("").message.contains("end of file"));
        assert!(err("tru").message.contains("`tru`"));
        assert!(err("\u{feff}{}").message.contains("byte order mark"));
    }

    #[test]
    fn duplicate_keys_are_reported_with_both_offsets() {
        let text = "{\"a\": 1, \"b\": {\"a\": 2}, \"a\": 3}";
        let t = parse(text).unwrap();
        assert_eq!(
            t.duplicates,
            vec![Duplicate {
                key: "a".into(),
                first: 1,
                second: 24
            }]
        );
        // the first occurrence is what `get` sees
        assert_eq!(t.root.get("a").unwrap().as_number(), Some("1"));
    }

    #[test]
    fn duplicates_in_large_objects_are_found_without_quadratic_scans() {
        let mut text = String::from("{");
        for i in 0..100_000 {
            text.push_str(&format!("\"k{i}\": {i},"));
        }
        text.push_str("\"k5\": 0, \"k99999\": 1}");
        let t = parse(&text).unwrap();
        let keys: Vec<_> = t.duplicates.iter().map(|d| d.key.as_str()).collect();
        assert_eq!(keys, ["k5", "k99999"]);
        assert_eq!(t.duplicates[0].first, text.find("\"k5\"").unwrap());
        // a small object takes the scanning path
        let t = parse(r#"{"a":1,"b":2,"a":3}"#).unwrap();
        assert_eq!(t.duplicates.len(), 1);
    }

    #[test]
    fn agrees_with_serde_json_on_valid_documents() {
        let docs = [
            r#"{"skill_name":"x","trigger":{"positive":[{"prompt":"a\u00e9\ud83d\ude00","top_k":1}]},"evals":[]}"#,
            r#"[true,false,null,-1.5e3,"\t",{}]"#,
        ];
        for d in docs {
            let mine = parse(d).unwrap().root;
            let theirs: serde_json::Value = serde_json::from_str(d).unwrap();
            assert_eq!(to_serde(&mine), theirs);
        }
    }

    fn arb_json() -> impl proptest::strategy::Strategy<Value = serde_json::Value> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            Just(serde_json::Value::Null),
            any::<bool>().prop_map(Into::into),
            any::<i64>().prop_map(Into::into),
            any::<f64>().prop_map(
                |f| serde_json::Number::from_f64(f).map_or(serde_json::Value::Null, Into::into)
            ),
            any::<String>().prop_map(Into::into),
        ];
        leaf.prop_recursive(5, 64, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Into::into),
                prop::collection::btree_map(any::<String>(), inner, 0..6)
                    .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest::proptest! {
        #[test]
        fn reads_whatever_serde_json_writes(v in arb_json(), pretty: bool) {
            let text = if pretty {
                serde_json::to_string_pretty(&v).unwrap()
            } else {
                serde_json::to_string(&v).unwrap()
            };
            let mine = parse(&text).unwrap();
            // compared with serde_json's reading of the same text: without
            // its float_roundtrip feature a written f64 may read back a ulp off
            let theirs: serde_json::Value = serde_json::from_str(&text).unwrap();
            proptest::prop_assert_eq!(to_serde(&mine.root), theirs);
            proptest::prop_assert_eq!((mine.root.start, mine.root.end), (0, text.len()));
        }

        #[test]
        fn accepts_exactly_what_serde_json_accepts(s in r#"[\[\]{}":,0-9a-z\\ .eE+\-]{0,40}"#) {
            // nesting stays below both parsers' limits at this length
            let ours = parse(&s);
            let theirs = serde_json::from_str::<serde_json::Value>(&s);
            proptest::prop_assert_eq!(ours.is_ok(), theirs.is_ok(), "{:?} vs {:?}", ours, theirs);
            if let Err(e) = ours {
                proptest::prop_assert!(e.offset <= s.len());
            }
        }
    }

    fn to_serde(v: &Value) -> serde_json::Value {
        match &v.kind {
            Kind::Null => serde_json::Value::Null,
            Kind::Bool(b) => (*b).into(),
            Kind::Number(n) => serde_json::from_str(n).unwrap(),
            Kind::String(s) => s.clone().into(),
            Kind::Array(a) => a.iter().map(to_serde).collect(),
            Kind::Object(m) => m
                .iter()
                .map(|m| (m.key.clone(), to_serde(&m.value)))
                .collect::<serde_json::Map<_, _>>()
                .into(),
        }
    }
}
