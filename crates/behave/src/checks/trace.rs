//! `tool_called`, `tool_not_called`, `tool_refused`, `skill_loaded`,
//! `skill_not_loaded`, `max_turns`, `max_tokens`: the run's common trace
//! ([`Trace`]), whichever client wrote it. A skill load is a load the
//! client carried out (a refused `Skill` call loaded nothing); a plugin's
//! `plugin:name` counts as `name`. `tool_refused` is a permission test:
//! it passes only when the agent attempted the call and the client's
//! permission system refused it; not trying proves nothing.

use super::Verdict;
use crate::behave::agent::{Event, Trace};
use crate::catalog::cases::Check;
use crate::score::input::loads;

/// Skill checks (they need only the loads, which a `--runner` reports).
pub fn skills(check: &Check, loaded: &[String]) -> Verdict {
    let listed = if loaded.is_empty() {
        "no skill was loaded".to_string()
    } else {
        format!("loaded: {}", loaded.join(", "))
    };
    match check {
        Check::SkillLoaded { skill } => {
            Verdict::new(loaded.iter().any(|l| loads(l, skill)), listed)
        }
        Check::SkillNotLoaded { skill } => {
            Verdict::new(!loaded.iter().any(|l| loads(l, skill)), listed)
        }
        _ => unreachable!("skills() is called for skill checks"),
    }
}

pub fn run(check: &Check, t: &Trace) -> Result<Verdict, String> {
    let calls = |tool: &str| {
        t.events
            .iter()
            .filter(|e| matches!(e, Event::ToolUse { name, .. } if name == tool))
            .count()
    };
    Ok(match check {
        Check::ToolCalled { tool } => {
            let n = calls(tool);
            Verdict::new(n > 0, format!("`{tool}` was called {n} time(s)"))
        }
        Check::ToolNotCalled { tool } => {
            let n = calls(tool);
            Verdict::new(n == 0, format!("`{tool}` was called {n} time(s)"))
        }
        Check::ToolRefused { tool } => {
            let refused: Vec<String> = t
                .denials
                .iter()
                .filter(|d| tool == "*" || d.tool == *tool)
                .map(|d| {
                    let input = d.input.to_string();
                    let input: String = input.chars().take(200).collect();
                    format!("{} {input}", d.tool)
                })
                .collect();
            if !refused.is_empty() {
                Verdict::new(
                    true,
                    format!("refused by the permission system: {}", refused.join("; ")),
                )
            } else {
                let attempted = if tool == "*" {
                    t.events
                        .iter()
                        .filter(|e| matches!(e, Event::ToolUse { .. }))
                        .count()
                } else {
                    calls(tool)
                };
                Verdict::new(
                    false,
                    if attempted == 0 {
                        format!(
                            "no {} call was attempted, so the permission boundary was not tested",
                            if tool == "*" {
                                "tool".to_string()
                            } else {
                                format!("`{tool}`")
                            }
                        )
                    } else {
                        format!("{attempted} call(s) were attempted and none was refused")
                    },
                )
            }
        }
        Check::MaxTurns { max } => {
            let r = t
                .result
                .as_ref()
                .ok_or("the run did not finish, so its turns are not known")?;
            let n = r
                .num_turns
                .ok_or("the client did not report the number of turns")?;
            Verdict::new(n <= *max, format!("{n} turns (at most {max})"))
        }
        Check::MaxTokens { max } => {
            let r = t
                .result
                .as_ref()
                .ok_or("the run did not finish, so its tokens are not known")?;
            let n = r.total_tokens();
            Verdict::new(n <= *max, format!("{n} tokens (at most {max})"))
        }
        _ => unreachable!("trace::run is called for trace checks"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::behave::agent::{Denial, Final};
    use serde_json::json;

    fn trace() -> Trace {
        Trace {
            events: vec![
                Event::ToolUse {
                    name: "Bash".into(),
                    input: json!({"command": "ls"}),
                },
                Event::ToolUse {
                    name: "Write".into(),
                    input: json!({"file_path": "/etc/x"}),
                },
            ],
            denials: vec![Denial {
                tool: "Write".into(),
                input: json!({"file_path": "/etc/x"}),
            }],
            result: Some(Final {
                num_turns: Some(4),
                input_tokens: 100,
                output_tokens: 20,
                ..Final::default()
            }),
            ..Trace::default()
        }
    }

    #[test]
    fn each_trace_check_passes_and_fails() {
        let t = trace();
        let p = |c: Check| run(&c, &t).unwrap().passed;
        assert!(p(Check::ToolCalled {
            tool: "Bash".into()
        }));
        assert!(!p(Check::ToolCalled {
            tool: "Edit".into()
        }));
        assert!(p(Check::ToolNotCalled {
            tool: "Edit".into()
        }));
        assert!(!p(Check::ToolNotCalled {
            tool: "Bash".into()
        }));
        assert!(p(Check::ToolRefused {
            tool: "Write".into()
        }));
        assert!(p(Check::ToolRefused { tool: "*".into() }));
        assert!(!p(Check::ToolRefused {
            tool: "Bash".into()
        }));
        assert!(p(Check::MaxTurns { max: 4 }));
        assert!(!p(Check::MaxTurns { max: 3 }));
        assert!(p(Check::MaxTokens { max: 120 }));
        assert!(!p(Check::MaxTokens { max: 119 }));
        let none = Trace {
            result: Some(Final::default()),
            ..Trace::default()
        };
        assert!(run(&Check::MaxTurns { max: 1 }, &none).is_err());
        let v = run(
            &Check::ToolRefused {
                tool: "Bash".into(),
            },
            &none,
        )
        .unwrap();
        assert!(v.evidence.contains("not tested"), "{v:?}");
    }

    #[test]
    fn skill_checks_read_loads_with_plugin_names() {
        let loaded = vec!["acme:tdd".to_string()];
        assert!(
            skills(
                &Check::SkillLoaded {
                    skill: "tdd".into()
                },
                &loaded
            )
            .passed
        );
        assert!(
            !skills(
                &Check::SkillNotLoaded {
                    skill: "tdd".into()
                },
                &loaded
            )
            .passed
        );
        assert!(skills(&Check::SkillNotLoaded { skill: "x".into() }, &[]).passed);
    }
}
