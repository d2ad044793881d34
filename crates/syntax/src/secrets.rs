//! Secrets in the catalog's text, found once when a file is read and masked
//! there: the one masking step every output goes through.
//!
//! [`Source::new`](crate::Source::new) runs [`find`] over every file it
//! holds (SKILL.md, case files and case sources, slash commands, a skill's
//! other text files) and keeps the text with each value masked
//! ([`mask_in_place`]): the public prefix of a format stays (`ghp_`,
//! `AKIA`, `-----BEGIN … PRIVATE KEY-----`), the rest becomes `X`, byte for
//! byte, so offsets, lines and columns do not move and the file still
//! parses as it did (`X` starts no YAML alias, JSON escape or Markdown
//! emphasis). Everything downstream (the listing, routing, `cases`, the
//! renderers, baselines, Tier 3 plans and workspaces) reads that text, so
//! no command has a secret to print, and a finding's fingerprint is the
//! same whatever the secret was. SG704 reports the positions kept in
//! [`Source::secrets`](crate::Source).
//!
//! A masked value is found again as a placeholder (a run of `X`), so
//! masking twice changes nothing.

use aho_corasick::AhoCorasick;
use regex::Regex;
use std::collections::BTreeSet;
use std::sync::{Arc, LazyLock, Mutex, RwLock};

/// One secret: where (byte offsets in the file), and what kind (never its
/// value).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub start: usize,
    pub end: usize,
    pub kind: &'static str,
    /// Where masking starts: after the format's public prefix (`ghp_`).
    pub masked_from: usize,
}

struct Pattern {
    kind: &'static str,
    re: Regex,
    /// Where the random part starts, for the placeholder test and the
    /// mask (the prefix before it is the format's public name).
    body: usize,
}

const PATTERNS_SRC: &[(&str, &str, usize)] = &[
    (
        "an AWS access key id",
        r"\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}\b",
        4,
    ),
    ("a GitHub token", r"\bgh[pousr]_[A-Za-z0-9]{36}\b", 4),
    (
        "a GitHub fine-grained token",
        r"\bgithub_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59}\b",
        11,
    ),
    (
        "a GitLab personal access token",
        r"\bglpat-[A-Za-z0-9_\-]{20,}",
        6,
    ),
    (
        "a Slack token",
        r"\bxox[abposr]-[0-9]{6,}-[0-9A-Za-z\-]{10,}",
        5,
    ),
    (
        "a Slack webhook URL",
        r"https://hooks\.slack\.com/services/T[A-Z0-9]{6,}/B[A-Z0-9]{6,}/[A-Za-z0-9]{20,}",
        33,
    ),
    (
        "an Anthropic API key",
        r"\bsk-ant-(?:api|admin)[0-9]{2}-[A-Za-z0-9_\-]{80,}",
        14,
    ),
    (
        "an OpenAI API key",
        r"\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_\-]{40,}",
        8,
    ),
    (
        "an OpenAI API key",
        r"\bsk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}\b",
        3,
    ),
    ("a Google API key", r"\bAIza[0-9A-Za-z_\-]{35}\b", 4),
    ("a Hugging Face token", r"\bhf_[A-Za-z0-9]{34}\b", 3),
];

static PATTERNS: LazyLock<Vec<Pattern>> = LazyLock::new(|| {
    PATTERNS_SRC
        .iter()
        .map(|&(kind, re, body)| Pattern {
            kind,
            re: Regex::new(re).expect("secret pattern"),
            body,
        })
        .collect()
});

static PRIVATE_KEY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----").expect("pem pattern")
});

/// The kind of a value assigned to a secret's name.
const ASSIGNED: &str = "a value assigned to a secret's name";

/// Words that make a name a secret's (`aws_secret_access_key`,
/// `"client_secret"`, `API_TOKEN`, `db_password`), matched ignoring ASCII
/// case in one pass over the file.
static SECRET_NAMES: LazyLock<AhoCorasick> = LazyLock::new(|| {
    // every text file is searched: a DFA, the fastest (a few KB here)
    AhoCorasick::builder()
        .kind(Some(aho_corasick::AhoCorasickKind::DFA))
        .ascii_case_insensitive(true)
        .build([
            "secret",
            "token",
            "passwd",
            "password",
            "api_key",
            "api-key",
            "apikey",
            "access_key",
            "access-key",
            "accesskey",
            "private_key",
            "private-key",
            "privatekey",
            "auth_key",
            "auth-key",
            "authkey",
            "credential",
        ])
        .expect("secret names")
});

/// The value assigned after a secret's name ending at `at`: the rest of the
/// name (`[A-Za-z0-9_-]*`), a closing quote, `=`, `:=`, `=>` or `:`, an
/// opening quote, then 16 to 256 value characters; its range.
fn assigned_value(text: &[u8], mut at: usize) -> Option<(usize, usize)> {
    let name = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'-';
    let value = |b: u8| b.is_ascii_alphanumeric() || b"/+_-.=~".contains(&b);
    let blank = |b: u8| b == b' ' || b == b'\t';
    while at < text.len() && name(text[at]) {
        at += 1;
    }
    if at < text.len() && (text[at] == b'"' || text[at] == b'\'') {
        at += 1;
    }
    while at < text.len() && blank(text[at]) {
        at += 1;
    }
    match text.get(at..at + 2) {
        Some(b":=") | Some(b"=>") => at += 2,
        _ if text.get(at).is_some_and(|&b| b == b'=' || b == b':') => at += 1,
        _ => return None,
    }
    while at < text.len() && blank(text[at]) {
        at += 1;
    }
    if at < text.len() && matches!(text[at], b'"' | b'\'' | b'`') {
        at += 1;
    }
    let start = at;
    while at < text.len() && at - start <= 256 && value(text[at]) {
        at += 1;
    }
    (16..=256).contains(&(at - start)).then_some((start, at))
}

/// The names that may be assigned a value, in order: for each `=` or `:`
/// followed (after blanks and a quote) by 16 value characters or more,
/// the run of name characters before it (after blanks and a quote), as
/// [`assigned_value`] reads them the other way. A secret's name matched
/// anywhere else is followed by no value, and no name crosses a byte that
/// is not a name's: searching these runs alone finds what searching the
/// whole text would, without reading prose and code letter by letter.
fn assignments(text: &[u8]) -> impl Iterator<Item = (usize, usize)> + '_ {
    let name = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'-';
    let value = |b: u8| b.is_ascii_alphanumeric() || b"/+_-.=~".contains(&b);
    let blank = |b: u8| b == b' ' || b == b'\t';
    let quote = |b: u8| b == b'"' || b == b'\'';
    memchr::memchr2_iter(b':', b'=', text).filter_map(move |op| {
        // forwards: the operator, blanks, a quote, 16 value characters
        let mut at = op + 1;
        if matches!(text.get(op..op + 2), Some(b":=") | Some(b"=>")) {
            at += 1;
        }
        while at < text.len() && blank(text[at]) {
            at += 1;
        }
        if at < text.len() && matches!(text[at], b'"' | b'\'' | b'`') {
            at += 1;
        }
        if text.get(at..at + 16)?.iter().any(|&b| !value(b)) {
            return None;
        }
        // backwards: blanks, a quote, the name
        let mut end = op;
        while end > 0 && blank(text[end - 1]) {
            end -= 1;
        }
        if end > 0 && quote(text[end - 1]) {
            end -= 1;
        }
        let mut start = end;
        while start > 0 && name(text[start - 1]) {
            start -= 1;
        }
        (start < end).then_some((start, end))
    })
}

/// Credentials their vendors publish for tests and documentation that
/// look like real ones: public on purpose, they work only in tests. They
/// are not secrets (never masked, never remembered); [`documented_tests`]
/// finds them so that a reader is told what they are. (Examples that say
/// so, AWS's `AKIAIOSFODNN7EXAMPLE`, are placeholders and stay quiet.)
pub const DOCUMENTED_TEST_VALUES: &[(&str, &str)] = &[
    (
        "6LeIxAcTAAAAAGG-vFI1TnRWxMZNFuojJ4WifJWe",
        "Google's documented reCAPTCHA v2 test secret key (every check passes with it, on any site, and it guards nothing)",
    ),
    (
        "6LeIxAcTAAAAAJcZVRqyHh71UMIEGNQ_MXjiZKhI",
        "Google's documented reCAPTCHA v2 test site key (public by design; it shows a widget that always passes)",
    ),
];

/// The vendor's own description of `value` when it is a documented test
/// credential ([`DOCUMENTED_TEST_VALUES`]).
pub fn documented_test(value: &str) -> Option<&'static str> {
    DOCUMENTED_TEST_VALUES
        .iter()
        .find(|(v, _)| *v == value)
        .map(|(_, what)| *what)
}

/// Every documented test credential in `text`: byte range and what it is.
pub fn documented_tests(text: &str) -> Vec<(usize, usize, &'static str)> {
    let mut out = Vec::new();
    for (v, what) in DOCUMENTED_TEST_VALUES {
        for at in memchr::memmem::find_iter(text.as_bytes(), v.as_bytes()) {
            out.push((at, at + v.len(), *what));
        }
    }
    out.sort_unstable();
    out
}

/// Plainly not a real key: a run of one character, a well-known example,
/// a placeholder word, too few distinct characters to be random.
fn placeholder(body: &str) -> bool {
    let lower = body.to_ascii_lowercase();
    let mut distinct: Vec<char> = body.chars().collect();
    distinct.sort_unstable();
    distinct.dedup();
    distinct.len() < 8
        || [
            "xxxx",
            "0000",
            "1234",
            "abcdef",
            "example",
            "your",
            "sample",
            "dummy",
            "fake",
            "test",
            "redacted",
            "placeholder",
        ]
        .iter()
        .any(|w| lower.contains(w))
}

/// A value assigned to a secret's name looks random: letters and digits
/// mixed, many distinct characters, no placeholder, not a dotted or
/// hyphenated name (`os.environ.get`, `my-api-key-name`), not a version.
fn random(value: &str) -> bool {
    let value = value.trim_end_matches(['.', '-', '=']);
    if value.len() < 16 || placeholder(value) {
        return false;
    }
    // `mySecretPassword123`: an example that says what it stands for
    let lower = value.to_ascii_lowercase();
    if ["secret", "passw", "changeme", "token", "apikey"]
        .iter()
        .any(|w| lower.contains(w))
    {
        return false;
    }
    let digits = value.bytes().filter(u8::is_ascii_digit).count();
    let letters = value.bytes().filter(u8::is_ascii_alphabetic).count();
    if digits == 0 || letters == 0 {
        return false;
    }
    // words joined by separators (`projects.locations.keys`,
    // `service-account-2`): a name, not a value
    let parts = value.split(['.', '-', '_', '/']).filter(|p| !p.is_empty());
    if parts.clone().count() > 1 && parts.clone().all(|p| p.len() < 12) {
        return false;
    }
    let mut distinct: Vec<u8> = value.bytes().collect();
    distinct.sort_unstable();
    distinct.dedup();
    distinct.len() >= 12
}

/// Key material under a BEGIN line: the first line that is not a header
/// (`Proc-Type: …`) is at least 40 base64 characters.
fn pem_end(text: &str, begin_end: usize) -> Option<usize> {
    let rest = &text[begin_end..];
    let mut seen_key = false;
    let mut at = begin_end;
    for (n, line) in rest.split_inclusive('\n').enumerate() {
        let t = line.trim();
        if n == 0 && t.is_empty() {
            at += line.len();
            continue;
        }
        if t.starts_with("-----END") {
            return seen_key.then_some(at + line.trim_end().len());
        }
        if !seen_key {
            if t.contains(": ") || t.is_empty() {
                at += line.len();
                continue;
            }
            let b64 = t
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '='));
            if !(b64 && t.len() >= 40) || placeholder(t) {
                return None;
            }
            seen_key = true;
        }
        at += line.len();
        if n > 200 {
            break;
        }
    }
    // no END line: the block runs on; mask what was read
    seen_key.then_some(at)
}

/// The kind of a value found elsewhere in the catalog, repeated here bare.
pub const REPEATED: &str = "a secret found elsewhere in the catalog";

/// Every value found so far in this process (what [`mask_in_place`]
/// replaces: past the public prefix; a private key's lines one by one),
/// waiting for [`freeze`]. Bounded: a catalog holding more values than
/// this still has each masked where it is found, only not its repeats.
static PENDING: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());

/// Whether [`PENDING`] has ever held a value.
static ANY: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether a value has been found so far in this process: until one is,
/// no file read needs a filter ([`crate::grams`]) for the values found
/// after it (a catalog without secrets pays nothing for them; a file read
/// before the first one is read again, as without a filter).
pub fn any_found() -> bool {
    ANY.load(std::sync::atomic::Ordering::Relaxed)
}

/// The values [`freeze`] saw, as one automaton: masked wherever they
/// stand, even where no pattern would find them (a bare
/// `aws_secret_access_key` value in a prompt). Built once per load, not
/// once per value: see `Catalog::load_with` in the catalog layer.
static KNOWN: RwLock<Option<Arc<Known>>> = RwLock::new(None);

/// The values known, and what lets a text without them pass in a glance.
struct Known {
    ac: AhoCorasick,
    /// Every byte some value holds: a value stands only in a run of
    /// these at least [`Known::shortest`] long.
    class: base::runs::Class,
    shortest: usize,
    /// Each value's windows ([`crate::grams::windows_of`]): `None` for a
    /// value no filter can rule out.
    windows: Vec<Option<Vec<u64>>>,
}

/// Most values remembered.
const MAX_KNOWN: usize = 100_000;
/// Shortest value remembered (a private key's last line may be short).
const MIN_KNOWN: usize = 12;
/// Most bytes of known values searched with a DFA (about 256 bytes of
/// table a byte of pattern at worst).
const MAX_DFA_BYTES: usize = 32 * 1024;
/// Most values of one file looked for elsewhere in it.
const MAX_OWN: usize = 64;

/// The values of `found` in `text` (the text as read): what is masked.
fn values<'t>(text: &'t str, found: &[Found]) -> Vec<&'t str> {
    let mut out = Vec::new();
    for f in found.iter().filter(|f| f.kind != REPEATED) {
        for piece in text[f.masked_from..f.end].split(['\n', '\r']) {
            let piece = piece.trim();
            if piece.len() >= MIN_KNOWN && !piece.starts_with("-----") {
                out.push(piece);
            }
        }
    }
    out
}

/// Remember the values of `found` in `text` (the text as read, before
/// masking) for the next [`freeze`].
pub fn remember(text: &str, found: &[Found]) {
    let new = values(text, found);
    if new.is_empty() {
        return;
    }
    let Ok(mut pending) = PENDING.lock() else {
        return;
    };
    ANY.store(true, std::sync::atomic::Ordering::Relaxed);
    for v in new {
        if pending.len() >= MAX_KNOWN {
            break;
        }
        if !pending.contains(v) {
            pending.insert(v.to_string());
        }
    }
}

/// Make every value remembered so far known to [`find`]; whether there is
/// any.
pub fn freeze() -> bool {
    let Ok(pending) = PENDING.lock() else {
        return false;
    };
    if pending.is_empty() {
        return false;
    }
    // every text file is searched for them: a DFA (the fastest search)
    // while its table stays small, a few MB (the 15,728-skill mirror
    // knows 244 values of 8,784 bytes: 2.3 s of a 25 s cpu run with the
    // default NFA)
    let bytes: usize = pending.iter().map(String::len).sum();
    let mut class = [false; 256];
    for v in pending.iter() {
        for b in v.bytes() {
            class[b as usize] = true;
        }
    }
    let shortest = pending.iter().map(String::len).min().unwrap_or(1);
    let ac = AhoCorasick::builder()
        .kind((bytes <= MAX_DFA_BYTES).then_some(aho_corasick::AhoCorasickKind::DFA))
        .match_kind(aho_corasick::MatchKind::LeftmostLongest)
        .build(pending.iter())
        .ok()
        .map(|ac| {
            Arc::new(Known {
                ac,
                class,
                shortest,
                windows: pending
                    .iter()
                    .map(|v| crate::grams::windows_of(v.as_bytes()))
                    .collect(),
            })
        });
    if let Ok(mut known) = KNOWN.write() {
        *known = ac;
    }
    true
}

/// Where the values known stand in `text`.
fn known_in(text: &str) -> Vec<(usize, usize)> {
    let ac = match KNOWN.read() {
        Ok(k) => k.clone(),
        Err(_) => None,
    };
    let Some(known) = ac else {
        return Vec::new();
    };
    // no value crosses a byte that none holds: the automaton reads only
    // the runs long enough to hold one, each from its start state as it
    // would reach it reading the whole text
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    base::runs::long_runs(bytes, &known.class, known.shortest, |s, e| {
        out.extend(
            known
                .ac
                .find_iter(&bytes[s..e])
                .map(|m| (s + m.start(), s + m.end())),
        );
        true
    });
    out
}

/// Whether a value known so far may stand in the texts `grams` was made
/// of (`None`: no filter, so it may): `false` means none does.
pub fn may_stand_in(grams: Option<&crate::grams::Grams>) -> bool {
    let known = match KNOWN.read() {
        Ok(k) => k.clone(),
        Err(_) => None,
    };
    let Some(known) = known else {
        return false;
    };
    let Some(grams) = grams else {
        return true;
    };
    known.windows.iter().any(|w| match w {
        Some(w) => grams.may_hold(w),
        None => true,
    })
}

/// Whether `text` holds a value known so far.
pub fn holds_known(text: &str) -> bool {
    !known_in(text).is_empty()
}

/// Whether `read` (a file as read) holds a known value where `kept` (its
/// text as loaded, perhaps cut short) still shows it: a repeat that the
/// file, read before the value was known, did not mask.
pub fn unmasked_repeat(read: &str, kept: &str) -> bool {
    if known_in(read).is_empty() {
        return false;
    }
    find(read).iter().any(|f| {
        f.kind == REPEATED
            && kept
                .get(f.start..f.end)
                .is_some_and(|shown| shown.bytes().any(|b| b != b'X'))
    })
}

/// Every secret in `text`, in order, never overlapping: the formats, the
/// values assigned to a secret's name, private keys, and the values found
/// so far elsewhere ([`REPEATED`]).
pub fn find(text: &str) -> Vec<Found> {
    let mut out = Vec::new();
    for p in PATTERNS.iter() {
        for m in p.re.find_iter(text) {
            let body = &m.as_str()[p.body.min(m.len())..];
            if !placeholder(body) && documented_test(m.as_str()).is_none() {
                out.push(Found {
                    start: m.start(),
                    end: m.end(),
                    kind: p.kind,
                    masked_from: m.start() + p.body.min(m.len()),
                });
            }
        }
    }
    for (s, e) in assignments(text.as_bytes()) {
        for m in SECRET_NAMES.find_iter(&text.as_bytes()[s..e]) {
            let Some((start, end)) = assigned_value(text.as_bytes(), s + m.end()) else {
                continue;
            };
            let value = text[start..end].trim_end_matches(['.', '-', '=']);
            if random(value) && documented_test(value).is_none() {
                out.push(Found {
                    start,
                    end: start + value.len(),
                    kind: ASSIGNED,
                    masked_from: start,
                });
            }
        }
    }
    if memchr::memmem::find(text.as_bytes(), b"-----BEGIN ").is_some() {
        for m in PRIVATE_KEY.find_iter(text) {
            if let Some(end) = pem_end(text, m.end()) {
                out.push(Found {
                    start: m.start(),
                    end,
                    kind: "a private key",
                    masked_from: m.end(),
                });
            }
        }
    }
    // after the patterns: where one finds the same range, its kind wins
    // (the sort below is stable). The file's own values first (`Replace
    // sk-… with your own key` above the line that uses it), then the
    // values known from elsewhere.
    let own: Vec<String> = values(text, &out)
        .into_iter()
        .take(MAX_OWN)
        .map(str::to_string)
        .collect();
    for v in &own {
        for at in memchr::memmem::find_iter(text.as_bytes(), v.as_bytes()) {
            out.push(Found {
                start: at,
                end: at + v.len(),
                kind: REPEATED,
                masked_from: at,
            });
        }
    }
    for (start, end) in known_in(text) {
        out.push(Found {
            start,
            end,
            kind: REPEATED,
            masked_from: start,
        });
    }
    out.sort_by_key(|f| (f.start, std::cmp::Reverse(f.end)));
    let mut kept: Vec<Found> = Vec::new();
    for f in out {
        if kept.last().is_none_or(|k| f.start >= k.end) {
            kept.push(f);
        }
    }
    kept
}

/// Mask every secret of `found` (from [`find`] over `text`) in place: each
/// byte from its `masked_from` to its end becomes `X`, except line breaks
/// and the `-----END …-----` line of a private key, so the text keeps its
/// length, its lines and its structure.
pub fn mask_in_place(text: &mut String, found: &[Found]) {
    if found.is_empty() {
        return;
    }
    let mut bytes = std::mem::take(text).into_bytes();
    for f in found {
        let span = &mut bytes[f.masked_from..f.end];
        let mut line_start = true;
        let mut keep_line = false;
        for b in span.iter_mut() {
            if line_start {
                // the END line of a PEM block names the format, no material
                keep_line = f.kind == "a private key" && {
                    // look ahead without borrowing: the END line starts with dashes
                    *b == b'-'
                };
                line_start = false;
            }
            match *b {
                b'\n' | b'\r' => line_start = true,
                b' ' | b'\t' => {}
                _ if keep_line => {}
                _ => *b = b'X',
            }
        }
    }
    // every byte replaced was inside a match of ASCII patterns, or a whole
    // line of a PEM block: a multi-byte character there is replaced byte
    // by byte only if the block held one, which the base64 test refused
    *text = String::from_utf8(bytes)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
}

/// `text` with every secret masked (see [`mask_in_place`]); `None` when it
/// holds none.
pub fn mask(text: &str) -> Option<String> {
    let found = find(text);
    if found.is_empty() {
        return None;
    }
    let mut t = text.to_string();
    mask_in_place(&mut t, &found);
    Some(t)
}

/// `bytes` with every secret masked, when they are UTF-8 text holding
/// one (a file Tier 3 copies into a workspace); `None` otherwise.
pub fn mask_bytes(bytes: &[u8]) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(bytes).ok()?;
    mask(text).map(String::into_bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documented_test_credentials_are_not_secrets_but_are_named() {
        let text = "RECAPTCHA_SECRET_KEY = \"6LeIxAcTAAAAAGG-vFI1TnRWxMZNFuojJ4WifJWe\"\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n";
        assert!(find(text).is_empty(), "{:?}", find(text));
        let named = documented_tests(text);
        assert_eq!(named.len(), 1);
        assert!(
            named[0]
                .2
                .starts_with("Google's documented reCAPTCHA v2 test secret key")
        );
        // a real-looking value in the same place is still a secret
        assert_eq!(
            find("RECAPTCHA_SECRET_KEY = \"6LdQ9x4qAAAAAB8mR2pKvN7tWc3ZyH5uJfLe0sTa\"\n").len(),
            1
        );
    }

    #[test]
    fn formats_are_found_and_placeholders_left_alone() {
        let gh = format!("token ghp_{}", "aB3dE5fG7hJ9kL1mN2pQ4rS6tU8vW0xYz1A2");
        assert_eq!(find(&gh).len(), 1);
        assert!(find("ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx").is_empty());
        assert!(find("AKIAIOSFODNN7EXAMPLE").is_empty());
        assert_eq!(
            find("id AKIAZ3MHQ7TXB4KPLW2R end")[0].kind,
            "an AWS access key id"
        );
        // a sha256 and a git hash are not keys
        assert!(
            find("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855").is_empty()
        );
        let masked = mask(&gh).unwrap();
        assert_eq!(masked.len(), gh.len());
        assert_eq!(masked, format!("token ghp_{}", "X".repeat(36)));
        // masking twice changes nothing
        assert_eq!(mask(&masked), None);
    }

    #[test]
    fn a_value_assigned_to_a_secret_name_is_found_alone() {
        let line = "aws_secret_access_key = Wq8rT2vB9xK4mN7pL3sZ6yH1cF5jD0gA8eU2iO4r";
        let f = find(line);
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(&line[f[0].start..f[0].end], &line[24..]);
        assert_eq!(
            mask(line).unwrap(),
            format!("aws_secret_access_key = {}", "X".repeat(40))
        );
        // a vendor's key in a header, as a published skill holds one
        let header = r#"headers={"SCP-HUB-API-KEY": "sk-b04409a1-b32b-4511-9aeb-22980abdc05c"}"#;
        assert_eq!(find(header).len(), 1);
        for not in [
            "api_key = os.environ.get(\"API_KEY\")",
            "token: ${{ secrets.GITHUB_TOKEN }}",
            "password: <your-password-here-123>",
            "secret_name: projects.locations.secrets2",
            "token=abcdefghijklmnopqrstu",
            "the access key: 2024-01-15-release-notes",
            "SECRET_KEY=your-secret-key-1234567890",
            "password: mySecretPassword123",
        ] {
            assert!(find(not).is_empty(), "{not}");
        }
    }

    #[test]
    fn a_files_own_value_is_masked_where_it_stands_bare() {
        // as a published skill has it: the note above the line using it
        let text = "Replace `sk-c15509b2-c43c-4622-8bfc-33091bcde16d` with your key.\n\nheaders={\"HUB-API-KEY\": \"sk-c15509b2-c43c-4622-8bfc-33091bcde16d\"}\n";
        let src = crate::Source::new(text.to_string());
        assert!(!src.text.contains("c15509b2"), "{}", src.text);
        assert_eq!(src.text.len(), text.len());
        let kinds: Vec<&str> = src.secrets.iter().map(|f| f.kind).collect();
        assert_eq!(kinds, [REPEATED, ASSIGNED]);
    }

    #[test]
    fn a_pem_block_needs_key_material_and_keeps_its_frame() {
        let key = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\nVTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK\n-----END RSA PRIVATE KEY-----\n";
        let f = find(key);
        assert_eq!(f.len(), 1);
        assert!(key[..f[0].end].ends_with("-----END RSA PRIVATE KEY-----"));
        let masked = mask(key).unwrap();
        assert_eq!(masked.len(), key.len());
        assert!(masked.starts_with("-----BEGIN RSA PRIVATE KEY-----\nXXXX"));
        assert!(masked.ends_with("XXXX\n-----END RSA PRIVATE KEY-----\n"));
        assert!(!masked.contains("MIIE") && !masked.contains("VTLw"));
        assert_eq!(mask(&masked), None);
        assert!(find("-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----").is_empty());
    }

    /// What searching the whole text for a secret's name finds, for the
    /// property below.
    fn named_everywhere(text: &str) -> Vec<(usize, usize)> {
        SECRET_NAMES
            .find_iter(text)
            .filter_map(|m| assigned_value(text.as_bytes(), m.end()))
            .collect()
    }

    fn named_in_assignments(text: &str) -> Vec<(usize, usize)> {
        assignments(text.as_bytes())
            .flat_map(|(s, e)| {
                SECRET_NAMES
                    .find_iter(&text.as_bytes()[s..e])
                    .filter_map(move |m| assigned_value(text.as_bytes(), s + m.end()))
            })
            .collect()
    }

    proptest::proptest! {
        #[test]
        fn assignments_find_what_the_whole_text_does(
            parts in proptest::collection::vec(
                proptest::sample::select(vec![
                    "api_key", "API-KEY", "Secret", "token", "passwd", "my", "_", "-", " ", "\t",
                    "\"", "'", "`", ":", "=", ":=", "=>", "==", "\n", "é", "xY7zQ2", "aB3dE5fG7hJ9kL1m",
                    "/+.", "~", "(", "secretToken",
                ]),
                0..24,
            )
        ) {
            let text: String = parts.concat();
            proptest::prop_assert_eq!(named_in_assignments(&text), named_everywhere(&text));
        }
    }
}
