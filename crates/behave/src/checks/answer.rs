//! `answer_contains`, `answer_matches`, `answer_json`: the run's final
//! answer. `answer_json` compares structurally, as the scorer's
//! `json_equals` does (key order ignored, numbers by value); the answer is
//! the whole text trimmed, or, when it is one fenced code block and
//! nothing else, that block's body.

use super::Verdict;
use crate::catalog::cases::Check;
use crate::catalog::cases::expectation::compile;
use crate::score::task::Json;

/// Characters of the answer quoted as evidence.
const QUOTE: usize = 300;

fn quoted(answer: &str) -> String {
    let t = answer.trim();
    if t.is_empty() {
        return "the final answer is empty".into();
    }
    let q: String = t.chars().take(QUOTE).collect();
    let more = if t.chars().count() > QUOTE { "…" } else { "" };
    format!("the final answer is \"{}{more}\"", q.replace('\n', " "))
}

/// The JSON text of an answer: the trimmed answer, or the body of its one
/// fenced block.
fn json_text(answer: &str) -> &str {
    let t = answer.trim();
    if let Some(rest) = t.strip_prefix("```")
        && let Some(nl) = rest.find('\n')
        && let Some(body) = rest[nl + 1..].strip_suffix("```")
        && !body.contains("```")
    {
        return body.trim();
    }
    t
}

pub fn run(check: &Check, answer: &str) -> Verdict {
    match check {
        Check::AnswerContains { value: text } => {
            let ok = answer.contains(text.as_str());
            Verdict::new(
                ok,
                if ok {
                    format!("the final answer contains `{text}`")
                } else {
                    format!("{} (no `{text}`)", quoted(answer))
                },
            )
        }
        Check::AnswerMatches { regex } => match compile(regex) {
            Err(e) => Verdict::new(false, format!("the expression does not compile: {e}")),
            Ok(re) => match re.find(answer.as_bytes()) {
                Some(m) => Verdict::new(
                    true,
                    format!(
                        "the final answer matches /{regex}/: `{}`",
                        String::from_utf8_lossy(&m.as_bytes()[..m.len().min(200)])
                    ),
                ),
                None => Verdict::new(
                    false,
                    format!("{} (no match for /{regex}/)", quoted(answer)),
                ),
            },
        },
        Check::AnswerJson { expected } => {
            let Ok(want) = serde_json::from_value::<Json>(expected.clone()) else {
                return Verdict::new(false, "the expected value cannot be compared exactly");
            };
            match serde_json::from_str::<Json>(json_text(answer)) {
                Ok(got) if got == want => {
                    Verdict::new(true, format!("the final answer is the JSON {expected}"))
                }
                Ok(_) => Verdict::new(
                    false,
                    format!("{}, JSON that differs from {expected}", quoted(answer)),
                ),
                Err(e) => Verdict::new(
                    false,
                    format!("{}, not JSON that can be compared ({e})", quoted(answer)),
                ),
            }
        }
        _ => unreachable!("answer::run is called for answer checks"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn each_answer_check_passes_and_fails() {
        let c = Check::AnswerContains { value: "42".into() };
        assert!(run(&c, "the total is 42").passed);
        assert!(!run(&c, "the total is 41").passed);
        let c = Check::AnswerMatches {
            regex: r"total(:| is) \d+".into(),
        };
        assert!(run(&c, "the total is 42").passed);
        assert!(!run(&c, "no total").passed);
        let c = Check::AnswerJson {
            expected: json!({"total": 42, "ok": true}),
        };
        assert!(run(&c, " {\"ok\": true, \"total\": 42.0}\n").passed);
        assert!(run(&c, "```json\n{\"ok\": true, \"total\": 42}\n```").passed);
        assert!(!run(&c, "{\"ok\": true, \"total\": 41}").passed);
        let v = run(&c, "Here: {\"ok\": true, \"total\": 42}");
        assert!(!v.passed);
        assert!(v.evidence.contains("not JSON"), "{v:?}");
    }
}
