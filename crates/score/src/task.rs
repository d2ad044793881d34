//! Task checks: whether one recorded run did the task.
//!
//! - `exit_code`: the run's `exitCode` equals `expected` (an integer).
//! - `includes_all`: `exitCode` is 0 and `output` contains every string of
//!   `expected` (a non-empty array of strings), case-sensitively.
//! - `json_equals`: `exitCode` is 0 and `output` (surrounding whitespace
//!   trimmed) parses as JSON structurally equal to `expected`: objects equal
//!   when they hold the same keys with equal values, whatever the order;
//!   arrays element by element; numbers by value (`1` equals `1.0`).
//!
//! Numbers must be finite and, to compare exactly, within ±9007199254740991
//! (2^53 − 1): such a number in `expected` is refused; in `output` it fails
//! the check. A duplicate object key is treated the same way.

pub use crate::base::json::{Json, MAX_SAFE_INTEGER};

/// A task check with its expected value.
#[derive(Debug, Clone, PartialEq)]
pub enum Check {
    ExitCode(i64),
    IncludesAll(Vec<String>),
    JsonEquals(Json),
}

impl Check {
    /// Build a check from a case line's `check` and `expected`; the error is
    /// a sentence for the user.
    pub fn from_parts(check: &str, expected: Json) -> Result<Check, String> {
        match check {
            "exit_code" => match expected {
                Json::Num(v) if v.fract() == 0.0 => Ok(Check::ExitCode(v as i64)),
                _ => Err("`exit_code` needs an integer `expected`".into()),
            },
            "includes_all" => match expected {
                Json::Arr(items) if !items.is_empty() => items
                    .into_iter()
                    .map(|x| match x {
                        Json::Str(s) => Ok(s),
                        _ => {
                            Err("`includes_all` needs `expected` to be an array of strings".into())
                        }
                    })
                    .collect::<Result<Vec<_>, String>>()
                    .map(Check::IncludesAll),
                _ => Err("`includes_all` needs a non-empty array of strings as `expected`".into()),
            },
            "json_equals" => Ok(Check::JsonEquals(expected)),
            other => Err(format!(
                "unknown task check `{other}`; use `exit_code`, `includes_all` or `json_equals`"
            )),
        }
    }

    /// The check's name as written in cases.jsonl.
    pub fn name(&self) -> &'static str {
        match self {
            Check::ExitCode(_) => "exit_code",
            Check::IncludesAll(_) => "includes_all",
            Check::JsonEquals(_) => "json_equals",
        }
    }

    /// Whether a run with this exit code and output passes.
    pub fn passes(&self, exit_code: Option<i64>, output: &str) -> bool {
        match self {
            Check::ExitCode(want) => exit_code == Some(*want),
            Check::IncludesAll(needles) => {
                exit_code == Some(0) && needles.iter().all(|n| output.contains(n.as_str()))
            }
            Check::JsonEquals(want) => {
                exit_code == Some(0)
                    && serde_json::from_str::<Json>(output.trim()).is_ok_and(|got| &got == want)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(s: &str) -> Json {
        serde_json::from_str(s).unwrap()
    }

    fn check(kind: &str, expected: &str) -> Check {
        Check::from_parts(kind, json(expected)).unwrap()
    }

    #[test]
    fn exit_code_compares_the_reported_code() {
        let c = check("exit_code", "2");
        assert!(c.passes(Some(2), ""));
        assert!(!c.passes(Some(0), ""));
        assert!(!c.passes(None, ""));
    }

    #[test]
    fn includes_all_needs_exit_zero_and_every_substring() {
        let c = check("includes_all", r#"["refund", "approved"]"#);
        assert!(c.passes(Some(0), "refund was approved"));
        assert!(!c.passes(Some(0), "refund denied"));
        assert!(!c.passes(Some(1), "refund was approved"));
        assert!(!c.passes(None, "refund was approved"));
    }

    #[test]
    fn json_equals_ignores_key_order_and_whitespace() {
        let c = check("json_equals", r#"{"a":1,"b":[true,null,"x"]}"#);
        assert!(c.passes(Some(0), " {\"b\":[true,null,\"x\"],\"a\":1.0}\n"));
        assert!(!c.passes(Some(0), r#"{"b":[null,true,"x"],"a":1}"#));
        assert!(!c.passes(Some(0), r#"{"a":1}"#));
        assert!(!c.passes(Some(0), r#"{"a":1,"b":[true,null,"x"],"c":0}"#));
        assert!(!c.passes(Some(3), r#"{"a":1,"b":[true,null,"x"]}"#));
        assert!(!c.passes(Some(0), "not json"));
    }

    #[test]
    fn json_equals_fails_on_unsafe_numbers_in_output() {
        let c = check("json_equals", "[9007199254740991]");
        assert!(c.passes(Some(0), "[9007199254740991]"));
        assert!(!c.passes(Some(0), "[9007199254740993]"));
        assert!(!c.passes(Some(0), "[1e400]"));
        let c = check("json_equals", "{\"a\":1}");
        assert!(!c.passes(Some(0), r#"{"a":1,"a":1}"#));
    }

    #[test]
    fn expected_refuses_unsafe_numbers_and_duplicate_keys() {
        for bad in [
            "9007199254740992",
            "-9007199254740992",
            "1e16",
            "1e400",
            r#"{"a":1,"a":2}"#,
        ] {
            assert!(
                serde_json::from_str::<Json>(bad).is_err(),
                "{bad} should be refused"
            );
        }
        assert_eq!(json("-9007199254740991"), Json::Num(-9007199254740991.0));
    }

    #[test]
    fn check_kinds_validate_their_expected_value() {
        assert!(Check::from_parts("exit_code", json("1.5")).is_err());
        assert!(Check::from_parts("exit_code", json("\"0\"")).is_err());
        assert!(Check::from_parts("includes_all", json("[]")).is_err());
        assert!(Check::from_parts("includes_all", json("[1]")).is_err());
        assert!(Check::from_parts("contains", json("1")).is_err());
        assert_eq!(
            Check::from_parts("json_equals", json("null")).unwrap(),
            Check::JsonEquals(Json::Null)
        );
    }
}
