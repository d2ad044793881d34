//! SG610–SG617: what Claude Code does with the values of its own keys
//! (`context`, `agent`, `hooks`, `model`, `allowed-tools`,
//! `user-invocable` with `disable-model-invocation`), from
//! [`crate::client::claude_code_keys`]. Each finding says what the client
//! does instead.

use super::{
    agent_unused, context, hook_event, model, never_invocable, unknown_agent, unknown_tool,
    unscoped_shell,
};
use crate::catalog::yaml::Kind;
use crate::catalog::{Catalog, Skill};
use crate::client::claude_code::{self, Frontmatter};
use crate::client::claude_code_keys::{self as keys, BUILTIN_AGENTS, HOOK_EVENTS};
use crate::client::js::Value;
use crate::diag::{Diagnostic, Span};

/// The findings of every skill of the catalog.
pub fn check(catalog: &Catalog, out: &mut Vec<Diagnostic>) {
    let mut agents: Option<Vec<String>> = None;
    for skill in &catalog.skills {
        let Frontmatter::Read { value, .. } = claude_code::read(skill).frontmatter else {
            continue;
        };
        check_skill(catalog, skill, &value, &mut agents, out);
    }
}

/// The span of `key`'s value in skillsift's reading of the frontmatter
/// (the last of a repeated key, as Claude Code reads it), else its key.
fn value_span(skill: &Skill, key: &str) -> Option<Span> {
    skill
        .frontmatter
        .as_ref()
        .and_then(|f| f.last(key))
        .map(|e| e.value_span)
}

/// At most 60 characters of an author's value, for a message.
fn clip(s: &str) -> String {
    match s.char_indices().nth(60) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

fn describe(v: &Value) -> String {
    match v {
        Value::String(s) => format!("`{}`", clip(s)),
        Value::Null => "null".into(),
        Value::Bool(b) => format!("the boolean `{b}`"),
        Value::Number(n) => format!("the number `{}`", crate::client::js::number_to_string(*n)),
        Value::Array(_) => "a list".into(),
        Value::Object(_) => "a mapping".into(),
    }
}

fn check_skill(
    catalog: &Catalog,
    skill: &Skill,
    v: &Value,
    agents: &mut Option<Vec<String>>,
    out: &mut Vec<Diagnostic>,
) {
    let file = skill.file.as_str();
    let forks = matches!(v.get("context"), Some(Value::String(s)) if s == "fork");
    // SG610
    if let Some(c) = v.get("context").filter(|c| !matches!(c, Value::Null))
        && !forks
    {
        let text = match c {
            Value::String(s) => s.trim().to_lowercase(),
            _ => String::new(),
        };
        let help = if text == "fork" || text == "forked" {
            "write `context: fork`, lowercase and alone".to_string()
        } else if matches!(
            text.as_str(),
            "inline" | "main" | "default" | "none" | "shared" | "conversation"
        ) {
            "remove the key: running inline is what Claude Code does without it".to_string()
        } else {
            "write `context: fork` to run the skill in a forked sub-agent, or remove the key"
                .to_string()
        };
        out.push(
            context::CONTEXT_NOT_FORK
                .diag(
                    file,
                    format!(
                        "`context` is {}: Claude Code reads only `context: fork` and ignores this value, so the skill runs inline, in the conversation",
                        describe(c)
                    ),
                )
                .with_span_opt(value_span(skill, "context"))
                .with_help(help),
        );
    }
    // SG611, SG612
    if let Some(a) = v.get("agent").filter(|a| !matches!(a, Value::Null)) {
        let name = a.to_js_string();
        let shown = clip(&name);
        if !forks {
            out.push(
                agent_unused::AGENT_WITHOUT_FORK
                    .diag(
                        file,
                        format!(
                            "`agent: {shown}` without `context: fork`: Claude Code uses `agent` only to fork the skill, so it runs inline and the agent is never used"
                        ),
                    )
                    .with_span_opt(value_span(skill, "agent"))
                    .with_help("add `context: fork` to run the skill with this agent, or remove `agent`"),
            );
        } else if !name.contains(':') && !BUILTIN_AGENTS.contains(&name.as_str()) {
            // a single skill's project is not known: only a name no agent
            // file can have (`Invalid_Agent`, `explore`) is reported then
            let whole = catalog.target == crate::catalog::Target::Catalog;
            let project = agents.get_or_insert_with(|| {
                if whole {
                    project_agents(&catalog.root, &catalog.skills)
                } else {
                    Vec::new()
                }
            });
            let near_builtin = BUILTIN_AGENTS.iter().any(|b| b.eq_ignore_ascii_case(&name));
            let custom_name = !name.is_empty()
                && name
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
            let unknown = !project.contains(&name) && (whole || near_builtin || !custom_name);
            if unknown {
                let near = BUILTIN_AGENTS
                    .iter()
                    .map(|s| s.to_string())
                    .chain(project.iter().cloned())
                    .find(|k| k.eq_ignore_ascii_case(&name));
                let help = match near {
                    Some(k) => format!("write `agent: {k}`: agent names are case-sensitive"),
                    None => format!(
                        "name a built-in agent ({}) or add `.claude/agents/{shown}.md` to the project",
                        BUILTIN_AGENTS.join(", ")
                    ),
                };
                out.push(
                    unknown_agent::UNKNOWN_AGENT
                        .diag(
                            file,
                            format!(
                                "`agent: {shown}` names no built-in agent and no agent of the project's `.claude/agents/`: unless the user has one of that name, Claude Code forks the skill with `general-purpose`"
                            ),
                        )
                        .with_span_opt(value_span(skill, "agent"))
                        .with_help(help),
                );
            }
        }
    }
    // SG613
    match v.get("hooks") {
        None | Some(Value::Null) => {}
        Some(Value::Object(events)) => {
            let unknown: Vec<&str> = events
                .iter()
                .map(|(k, _)| k.as_str())
                .filter(|k| !HOOK_EVENTS.contains(k))
                .collect();
            for k in &unknown {
                let shown = clip(k);
                let near = HOOK_EVENTS.iter().find(|e| e.eq_ignore_ascii_case(k));
                let help = match near {
                    Some(e) => format!("write `{e}`: event names are case-sensitive"),
                    None => "use one of Claude Code's hook events (`skillsift rule SG613` lists them), or remove the entry".to_string(),
                };
                let others = events.len() - 1;
                let also = if others > 0 {
                    format!(", the {others} other event{} with it", if others == 1 { "" } else { "s" })
                } else {
                    String::new()
                };
                out.push(
                    hook_event::UNKNOWN_HOOK_EVENT
                        .diag(
                            file,
                            format!(
                                "`hooks.{shown}`: Claude Code knows no hook event `{shown}`, and drops the skill's whole `hooks` block for it{also}: none of its hooks runs"
                            ),
                        )
                        .with_span_opt(hook_key_span(skill, k).or_else(|| value_span(skill, "hooks")))
                        .with_help(help),
                );
            }
        }
        Some(h) => out.push(
            hook_event::UNKNOWN_HOOK_EVENT
                .diag(
                    file,
                    format!(
                        "`hooks` is {}, not a mapping of hook events: Claude Code drops it, and no hook runs",
                        describe(h)
                    ),
                )
                .with_span_opt(value_span(skill, "hooks"))
                .with_help("write `hooks:` as a mapping from event names (`PreToolUse`, …) to lists of `{matcher, hooks}`"),
        ),
    }
    // SG614
    match v.get("model") {
        None | Some(Value::Null) => {}
        Some(Value::String(m)) if m.trim().is_empty() || keys::is_usable_model(m) => {}
        Some(Value::String(m)) => {
            let m = clip(m.trim());
            out.push(
                model::UNUSABLE_MODEL
                    .diag(
                        file,
                        format!(
                            "`model: {m}` is neither a Claude Code alias ({}, inherit) nor a Claude model id: Claude Code resolves no alias from it and takes `{m}` as the model id, which no Claude endpoint serves",
                            keys::MODEL_ALIASES.join(", ")
                        ),
                    )
                    .with_span_opt(value_span(skill, "model"))
                    .with_help("write an alias (`model: sonnet`), a Claude model id, or remove the key to use the session's model"),
            );
        }
        Some(m) => out.push(
            model::UNUSABLE_MODEL
                .diag(
                    file,
                    format!(
                        "`model` is {}, not a string: Claude Code ignores it and the skill runs on the session's model",
                        describe(m)
                    ),
                )
                .with_span_opt(value_span(skill, "model"))
                .with_help("write the model as a string: `model: sonnet`"),
        ),
    }
    // SG615
    if let Some(t) = v.get("allowed-tools") {
        let mut seen = Vec::new();
        for rule in keys::allowed_tool_rules(t) {
            let tool = keys::rule_tool(&rule);
            let (rule_shown, tool_shown) = (clip(&rule), clip(tool));
            // SG617: a shell tool with no command pattern
            let pattern = rule
                .strip_prefix(tool)
                .map(|r| r.trim_start_matches('(').trim_end_matches(')').trim())
                .unwrap_or("");
            if matches!(tool, "Bash" | "PowerShell") && matches!(pattern, "" | "*" | ":*") {
                out.push(
                    unscoped_shell::UNSCOPED_SHELL
                        .diag(
                            file,
                            format!(
                                "`{rule_shown}` in `allowed-tools` pre-approves every shell command while the skill runs: the agent may run any command without asking"
                            ),
                        )
                        .with_span_opt(token_span(skill, "allowed-tools", &rule))
                        .with_help(format!(
                            "name the commands the skill needs, one pattern each: `{tool}(git status:*) {tool}(git diff:*)`"
                        )),
                );
            }
            if keys::is_known_tool(tool) || seen.contains(&tool.to_string()) {
                continue;
            }
            seen.push(tool.to_string());
            let near = keys::TOOLS
                .iter()
                .find(|k| k.eq_ignore_ascii_case(tool))
                .map(|k| format!("write `{k}`: tool names are case-sensitive"));
            let help = near.unwrap_or_else(|| match tool {
                "MultiEdit" => "use `Edit`: Claude Code no longer has a `MultiEdit` tool".into(),
                "LS" => "use `Bash(ls:*)` or `Glob`: Claude Code no longer has an `LS` tool".into(),
                _ => "name a tool Claude Code has (`skillsift rule SG615` lists them), or remove the entry".into(),
            });
            out.push(
                unknown_tool::UNKNOWN_TOOL
                    .diag(
                        file,
                        format!(
                            "`{rule_shown}` in `allowed-tools`: Claude Code has no tool `{tool_shown}`, so this entry pre-approves nothing, silently"
                        ),
                    )
                    .with_span_opt(token_span(skill, "allowed-tools", &rule))
                    .with_help(help),
            );
        }
    }
    // SG616
    let user = match v.get("user-invocable") {
        None => true,
        u => keys::is_true(u),
    };
    if !user && keys::is_true(v.get("disable-model-invocation")) {
        let u = v.get("user-invocable").map(describe).unwrap_or_default();
        out.push(
            never_invocable::NEVER_INVOCABLE
                .diag(
                    file,
                    format!(
                        "`user-invocable` is {u} and `disable-model-invocation: true`: Claude Code keeps the skill from the model and refuses `/{}` from the user, so nobody can run it",
                        skill.folder
                    ),
                )
                .with_span_opt(value_span(skill, "user-invocable"))
                .with_help("remove `user-invocable: false` for a slash-command-only skill, or `disable-model-invocation` for a model-only one"),
        );
    }
}

/// The span of the key `event` under `hooks`.
fn hook_key_span(skill: &Skill, event: &str) -> Option<Span> {
    let src = skill.source.as_ref()?;
    let e = skill.frontmatter.as_ref()?.last("hooks")?;
    let Kind::Map(entries) = &e.value.kind else {
        return None;
    };
    entries
        .iter()
        .rev()
        .find(|(k, _)| k.scalar_text() == Some(event))
        .map(|(k, _)| src.span(k.start, k.start + event.len()))
        .filter(|s| src.text.get(s.start..s.end) == Some(event))
}

/// The first place after `key`'s value starts where `token` is written.
fn token_span(skill: &Skill, key: &str, token: &str) -> Option<Span> {
    let src = skill.source.as_ref()?;
    let fm = skill.frontmatter.as_ref()?;
    let e = fm.last(key)?;
    let from = e.value_span.start;
    let end = fm.yaml.end.min(src.text.len());
    let at = src.text.get(from..end)?.find(token)? + from;
    Some(src.span(at, at + token.len()))
}

/// Most agent files read from `.claude/agents/`.
const MAX_AGENT_FILES: usize = 500;
/// Bytes read from each.
const MAX_AGENT_BYTES: u64 = 64 * 1024;

/// The names of the project's agents: the frontmatter `name` of each
/// `.claude/agents/**/*.md` at the catalog root and beside each
/// `.claude/skills/` holding a skill (bounded; unreadable files are
/// skipped: they define no agent Claude Code could use either).
pub fn project_agents(root: &std::path::Path, skills: &[Skill]) -> Vec<String> {
    use std::io::Read;
    let mut out = Vec::new();
    let mut dirs = vec![".claude/agents".to_string()];
    for s in skills {
        if let Some(i) = s.rel_dir.find(".claude/skills/") {
            let d = format!("{}.claude/agents", &s.rel_dir[..i]);
            if !dirs.contains(&d) {
                dirs.push(d);
            }
        }
    }
    let mut stack: Vec<(std::path::PathBuf, usize)> =
        dirs.iter().map(|d| (root.join(d), 0usize)).collect();
    let mut files = 0;
    while let Some((dir, depth)) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            let Ok(ft) = e.file_type() else { continue };
            if ft.is_dir() && depth < 4 {
                stack.push((p, depth + 1));
            } else if ft.is_file() && p.extension().is_some_and(|x| x == "md") {
                files += 1;
                if files > MAX_AGENT_FILES {
                    return out;
                }
                let mut text = String::new();
                let Ok(f) = std::fs::File::open(&p) else {
                    continue;
                };
                if f.take(MAX_AGENT_BYTES).read_to_string(&mut text).is_err() {
                    continue;
                }
                if let Some(name) = agent_name(&text) {
                    out.push(name);
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The `name:` of an agent file's frontmatter.
fn agent_name(text: &str) -> Option<String> {
    let mut lines = text.lines();
    if lines.next()?.trim_end() != "---" {
        return None;
    }
    for l in lines {
        if l.trim_end() == "---" {
            break;
        }
        if let Some(v) = l.strip_prefix("name:") {
            let v = v.trim().trim_matches(['"', '\'']);
            return (!v.is_empty()).then(|| v.to_string());
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_docs_quote_every_name_the_rules_know() {
        for e in HOOK_EVENTS {
            assert!(
                hook_event::UNKNOWN_HOOK_EVENT
                    .doc
                    .contains(&format!("`{e}`")),
                "{e}"
            );
        }
        for t in keys::TOOLS
            .iter()
            .chain(keys::TOOL_ALIASES.iter().map(|(a, _)| a))
        {
            assert!(
                unknown_tool::UNKNOWN_TOOL.doc.contains(&format!("`{t}`")),
                "{t}"
            );
        }
        for a in BUILTIN_AGENTS {
            assert!(
                unknown_agent::UNKNOWN_AGENT.doc.contains(&format!("`{a}`")),
                "{a}"
            );
        }
        for m in keys::MODEL_ALIASES {
            assert!(model::UNUSABLE_MODEL.doc.contains(&format!("`{m}`")), "{m}");
        }
    }

    #[test]
    fn agent_names_from_frontmatter() {
        assert_eq!(
            agent_name("---\nname: \"reviewer\"\n---\n").as_deref(),
            Some("reviewer")
        );
        assert_eq!(agent_name("# no frontmatter\nname: x\n"), None);
    }
}
