//! SG704: secrets in any text file of the skill folder.

use super::Text;
use crate::diag::Diagnostic;
use crate::rule;
use regex::Regex;
use std::sync::LazyLock;

rule! {
    /// ## What it does
    /// Reports credentials in SKILL.md or any other text file of the skill
    /// folder, and in every case file and case source (trigger prompts,
    /// expected outputs, expectations), by the formats that cannot be mistaken for anything else:
    /// AWS access key ids (`AKIA…`, `ASIA…`), GitHub tokens (`ghp_`,
    /// `gho_`, `ghu_`, `ghs_`, `ghr_`, `github_pat_`), GitLab personal
    /// access tokens (`glpat-`), Slack tokens (`xoxb-`, `xoxp-`, …) and
    /// webhook URLs, Anthropic (`sk-ant-api03-…`), OpenAI (`sk-proj-…`,
    /// `sk-…T3BlbkFJ…`), Google (`AIza…`) and Hugging Face (`hf_…`) API
    /// keys, and private-key blocks (`-----BEGIN … PRIVATE KEY-----` with
    /// key material under it). Values that are plainly placeholders
    /// (`ghp_xxxx…`, `AKIAIOSFODNN7EXAMPLE`, `your-token`) are left alone.
    ///
    /// The finding names the file, line, column and kind, **never the
    /// secret**: not in the message, the label, JSON, SARIF or GitHub
    /// annotations, and the human report's source snippet shows it masked
    /// with `*`.
    ///
    /// Part of the SG700–SG749 family (hostile skills: content that hides
    /// from a reviewer but reaches the model; `skillsift rules` lists them).
    ///
    /// ## Why is this bad?
    /// Skills are copied between repositories by the thousand: a key in
    /// one is public the day it is pushed, and every copy of the skill
    /// hands it to every model that loads it.
    ///
    /// ## Example
    /// `export GITHUB_TOKEN=ghp_…` (36 characters after `ghp_`) in a
    /// script of the skill.
    ///
    /// ## How to fix
    /// Revoke the key first (it is already out), then read it from the
    /// environment (`$GITHUB_TOKEN`) instead of writing it down.
    ///
    /// ## Measured
    /// 0 findings on `../shared/corpora/wild-sample` (1,000 skills), the addyosmani catalog
    /// (24 skills) and `../shared/corpora/routing-bench` (273 skills, 506
    /// files): nothing to read by hand. It fires on each
    /// variant of `tests/fixtures/security` and on none of its look-alikes.
    pub static SECRET = ("SG704", "secret", Error, "a credential is written in a skill file");
}

/// One secret: where, and what kind (never its value).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub start: usize,
    pub end: usize,
    pub kind: &'static str,
}

struct Pattern {
    kind: &'static str,
    re: Regex,
    /// Where the random part starts, for the placeholder test.
    body: usize,
}

static PATTERNS: LazyLock<Vec<Pattern>> = LazyLock::new(|| {
    let p = |kind, re: &str, body| Pattern {
        kind,
        re: Regex::new(re).expect("secret pattern"),
        body,
    };
    vec![
        p(
            "an AWS access key id",
            r"\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}\b",
            4,
        ),
        p("a GitHub token", r"\bgh[pousr]_[A-Za-z0-9]{36}\b", 4),
        p(
            "a GitHub fine-grained token",
            r"\bgithub_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59}\b",
            11,
        ),
        p(
            "a GitLab personal access token",
            r"\bglpat-[A-Za-z0-9_\-]{20,}",
            6,
        ),
        p(
            "a Slack token",
            r"\bxox[abposr]-[0-9]{6,}-[0-9A-Za-z\-]{10,}",
            5,
        ),
        p(
            "a Slack webhook URL",
            r"https://hooks\.slack\.com/services/T[A-Z0-9]{6,}/B[A-Z0-9]{6,}/[A-Za-z0-9]{20,}",
            33,
        ),
        p(
            "an Anthropic API key",
            r"\bsk-ant-(?:api|admin)[0-9]{2}-[A-Za-z0-9_\-]{80,}",
            14,
        ),
        p(
            "an OpenAI API key",
            r"\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_\-]{40,}",
            8,
        ),
        p(
            "an OpenAI API key",
            r"\bsk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}\b",
            3,
        ),
        p("a Google API key", r"\bAIza[0-9A-Za-z_\-]{35}\b", 4),
        p("a Hugging Face token", r"\bhf_[A-Za-z0-9]{34}\b", 3),
    ]
});

static PRIVATE_KEY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----").expect("pem pattern")
});

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

/// Every secret in `text`, in order, never overlapping.
pub fn find(text: &str) -> Vec<Found> {
    let mut out = Vec::new();
    for p in PATTERNS.iter() {
        for m in p.re.find_iter(text) {
            let body = &m.as_str()[p.body.min(m.len())..];
            if !placeholder(body) {
                out.push(Found {
                    start: m.start(),
                    end: m.end(),
                    kind: p.kind,
                });
            }
        }
    }
    for m in PRIVATE_KEY.find_iter(text) {
        if let Some(end) = pem_end(text, m.end()) {
            out.push(Found {
                start: m.start(),
                end,
                kind: "a private key",
            });
        }
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

/// `text` with every secret replaced by `*` (line breaks kept, so offsets,
/// lines and columns stay where they were); `None` when it holds none.
pub fn mask(text: &str) -> Option<String> {
    let found = find(text);
    if found.is_empty() {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for f in found {
        out.push_str(&text[at..f.start]);
        for c in text[f.start..f.end].chars() {
            if c == '\n' || c == '\r' {
                out.push(c);
            } else {
                out.extend(std::iter::repeat_n('*', c.len_utf8()));
            }
        }
        at = f.end;
    }
    out.push_str(&text[at..]);
    Some(out)
}

pub fn check(t: &Text, out: &mut Vec<Diagnostic>) {
    found(t.file, t.src, out);
}

/// Every case file and case source (prompts, expected outputs,
/// expectations, whatever they hold): a secret there is printed by `cases`,
/// JUnit and the dry run, and sent to the model, as one in a SKILL.md is.
pub fn check_cases(catalog: &crate::catalog::Catalog, out: &mut Vec<Diagnostic>) {
    for c in &catalog.cases {
        found(&c.file, &c.source, out);
    }
    for c in &catalog.case_sources {
        found(&c.file, &c.source, out);
    }
}

fn found(file: &str, src: &crate::catalog::Source, out: &mut Vec<Diagnostic>) {
    for f in find(&src.text) {
        let span = src.span(f.start, f.end);
        out.push(
            SECRET
                .diag(
                    file,
                    format!(
                        "{} is written in line {}, column {} (value not shown)",
                        f.kind, span.line, span.col
                    ),
                )
                .with_span(span)
                .with_label(format!("{} (masked)", f.kind))
                .with_help(
                    "revoke it now (it is public wherever the skill was copied), then read it from the environment instead",
                ),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert!(!masked.contains("aB3dE5"));
    }

    #[test]
    fn a_pem_block_needs_key_material() {
        let key = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\nVTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK\n-----END RSA PRIVATE KEY-----\n";
        let f = find(key);
        assert_eq!(f.len(), 1);
        assert!(key[..f[0].end].ends_with("-----END RSA PRIVATE KEY-----"));
        assert!(find("-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----").is_empty());
    }
}
