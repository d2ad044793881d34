//! Keeping environment secrets out of results.
//!
//! The agent runs with the user's environment (it needs its credentials), and
//! a trace can echo any of it (`env`, a failing command's output, …). Before
//! anything is written under `evals/results/`, every value of an environment
//! variable whose name looks secret is replaced by `[redacted:NAME]`, both as
//! written and in its JSON-escaped form.

/// Name fragments that mark a variable as secret (matched case-insensitively).
const SECRET_NAME_PARTS: &[&str] = &[
    "KEY",
    "TOKEN",
    "SECRET",
    "PASSWORD",
    "PASSWD",
    "PASSPHRASE",
    "CREDENTIAL",
    "AUTH",
    "COOKIE",
    "SESSION",
    "PRIVATE",
    "SIGNATURE",
    "ANTHROPIC",
    "OPENAI",
    "AWS_",
    "AZURE_",
    "GCP_",
    "GOOGLE_",
];

/// Values shorter than this are not treated as secrets (they would redact
/// ordinary words).
const MIN_SECRET_LEN: usize = 8;

/// Whether a variable's name looks like it holds a secret.
pub fn secret_name(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    SECRET_NAME_PARTS.iter().any(|p| upper.contains(p))
}

/// Replaces secret values with placeholders.
#[derive(Debug, Clone, Default)]
pub struct Redactor {
    /// (needle, replacement), longest needle first.
    pairs: Vec<(String, String)>,
}

impl Redactor {
    /// Secrets from the current process environment.
    pub fn from_env() -> Redactor {
        Redactor::from_vars(
            std::env::vars_os()
                .filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?))),
        )
    }

    pub fn from_vars(vars: impl IntoIterator<Item = (String, String)>) -> Redactor {
        let mut pairs = Vec::new();
        for (name, value) in vars {
            if value.len() < MIN_SECRET_LEN || !secret_name(&name) {
                continue;
            }
            let placeholder = format!("[redacted:{name}]");
            let escaped = serde_json::to_string(&value).unwrap_or_default();
            let escaped = escaped.trim_matches('"').to_string();
            if escaped != value {
                pairs.push((escaped, placeholder.clone()));
            }
            pairs.push((value, placeholder));
        }
        pairs.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(a.0.cmp(&b.0)));
        pairs.dedup_by(|a, b| a.0 == b.0);
        Redactor { pairs }
    }

    /// `text` with every secret replaced.
    pub fn text(&self, text: &str) -> String {
        let mut s = text.to_string();
        for (needle, rep) in &self.pairs {
            if s.contains(needle.as_str()) {
                s = s.replace(needle.as_str(), rep);
            }
        }
        s
    }

    /// `bytes` (read as UTF-8, invalid sequences replaced) with every secret
    /// replaced.
    pub fn bytes(&self, bytes: &[u8]) -> Vec<u8> {
        let s = String::from_utf8_lossy(bytes);
        if self.pairs.is_empty() {
            return s.into_owned().into_bytes();
        }
        self.text(&s).into_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secret_looking_variables_are_replaced_plain_and_escaped() {
        let r = Redactor::from_vars([
            ("MY_API_KEY".to_string(), "sk-abc\"def-123".to_string()),
            ("HOME".to_string(), "/home/someone".to_string()),
            ("SHORT_TOKEN".to_string(), "abc".to_string()),
        ]);
        assert_eq!(
            r.text("k=sk-abc\"def-123 j=\"sk-abc\\\"def-123\" h=/home/someone abc"),
            "k=[redacted:MY_API_KEY] j=\"[redacted:MY_API_KEY]\" h=/home/someone abc"
        );
    }
}
