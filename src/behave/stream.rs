//! Reading `claude -p --verbose --output-format stream-json` output.
//!
//! One JSON object per line (see `claude-stream-json.md` in the shared
//! notes). The format changes between versions, so the parser keeps what it
//! knows and skips every event type and field it does not: a line that is not
//! JSON, an unknown `type`, a missing field are all tolerated and counted.
//!
//! What it keeps:
//! - the `system`/`init` line's tool list and MCP servers;
//! - every skill load: a `tool_use` block named `Skill` anywhere in any
//!   event (nested sub-agent messages too), its `input.skill` naming the
//!   skill, plugin skills namespaced `plugin:name`;
//! - the conversation, as events the grader's transcript is built from;
//! - the `result` line: `is_error`, `subtype`, final text, cost and usage.
//!   A stream without one has no verdict: it is missing evidence.

use serde_json::Value;

/// One step of the conversation.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// Text from the assistant (`role` = `assistant`) or the user.
    Text { role: Role, text: String },
    /// A tool call.
    ToolUse { name: String, input: Value },
    /// A tool's answer.
    ToolResult { text: String, is_error: bool },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Assistant,
    User,
}

/// The `result` line.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ResultLine {
    pub is_error: bool,
    pub subtype: String,
    /// The final text (`result`).
    pub text: String,
    pub cost_usd: Option<f64>,
    /// input + cache creation + cache read.
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub num_turns: Option<u64>,
    pub duration_ms: Option<u64>,
    /// Tool calls the permission system refused.
    pub permission_denials: usize,
}

impl ResultLine {
    pub fn total_tokens(&self) -> u64 {
        self.input_tokens.saturating_add(self.output_tokens)
    }
}

/// Everything read from one stream.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Trace {
    /// Tools listed by the `init` line, when there was one.
    pub init_tools: Option<Vec<String>>,
    /// MCP server names listed by the `init` line.
    pub mcp_servers: Vec<String>,
    pub model: Option<String>,
    /// Skills loaded through the `Skill` tool, first-seen order, no repeats.
    pub skills: Vec<String>,
    pub events: Vec<Event>,
    /// The last `result` line.
    pub result: Option<ResultLine>,
    /// Non-empty lines read.
    pub lines: usize,
    /// Lines that were not JSON objects (skipped).
    pub skipped_lines: usize,
}

impl Trace {
    /// Tool calls per tool name, sorted by name.
    pub fn tool_counts(&self) -> std::collections::BTreeMap<String, u64> {
        let mut m = std::collections::BTreeMap::new();
        for e in &self.events {
            if let Event::ToolUse { name, .. } = e {
                *m.entry(name.clone()).or_insert(0) += 1;
            }
        }
        m
    }

    /// `init` tools that belong to an MCP server (`mcp__…`).
    pub fn mcp_tools(&self) -> Vec<String> {
        self.init_tools
            .iter()
            .flatten()
            .filter(|t| t.starts_with("mcp__"))
            .cloned()
            .collect()
    }
}

/// Parse a whole stream.
pub fn parse(bytes: &[u8]) -> Trace {
    let mut t = Trace::default();
    for raw in bytes.split(|&b| b == b'\n') {
        let line = String::from_utf8_lossy(raw);
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        t.lines += 1;
        match serde_json::from_str::<Value>(line) {
            Ok(v @ Value::Object(_)) => read_event(&v, &mut t),
            _ => t.skipped_lines += 1,
        }
    }
    t
}

fn read_event(v: &Value, t: &mut Trace) {
    find_skill_loads(v, &mut t.skills, 0);
    match v.get("type").and_then(Value::as_str) {
        Some("system") if v.get("subtype").and_then(Value::as_str) == Some("init") => {
            t.init_tools = v.get("tools").and_then(Value::as_array).map(|a| {
                a.iter()
                    .filter_map(|x| x.as_str().map(str::to_string))
                    .collect()
            });
            t.mcp_servers = v
                .get("mcp_servers")
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(|s| {
                            s.as_str()
                                .or_else(|| s.get("name").and_then(Value::as_str))
                                .map(str::to_string)
                        })
                        .collect()
                })
                .unwrap_or_default();
            t.model = v.get("model").and_then(Value::as_str).map(str::to_string);
        }
        Some("assistant") => read_message(v, Role::Assistant, t),
        Some("user") => read_message(v, Role::User, t),
        Some("result") => {
            let usage = v.get("usage");
            let n = |k: &str| {
                usage
                    .and_then(|u| u.get(k))
                    .and_then(Value::as_u64)
                    .unwrap_or(0)
            };
            t.result = Some(ResultLine {
                is_error: v.get("is_error").and_then(Value::as_bool).unwrap_or(false),
                subtype: v
                    .get("subtype")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string(),
                text: v
                    .get("result")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string(),
                cost_usd: v
                    .get("total_cost_usd")
                    .and_then(Value::as_f64)
                    .filter(|c| c.is_finite()),
                // counts come from the agent's output: a hostile or broken
                // stream must not overflow them
                input_tokens: n("input_tokens")
                    .saturating_add(n("cache_creation_input_tokens"))
                    .saturating_add(n("cache_read_input_tokens")),
                output_tokens: n("output_tokens"),
                num_turns: v.get("num_turns").and_then(Value::as_u64),
                duration_ms: v.get("duration_ms").and_then(Value::as_u64),
                permission_denials: v
                    .get("permission_denials")
                    .and_then(Value::as_array)
                    .map_or(0, Vec::len),
            });
        }
        _ => {}
    }
}

fn read_message(v: &Value, role: Role, t: &mut Trace) {
    let Some(content) = v.get("message").and_then(|m| m.get("content")) else {
        return;
    };
    match content {
        Value::String(s) => t.events.push(Event::Text {
            role,
            text: s.clone(),
        }),
        Value::Array(blocks) => {
            for b in blocks {
                match b.get("type").and_then(Value::as_str) {
                    Some("text") => {
                        if let Some(s) = b.get("text").and_then(Value::as_str) {
                            t.events.push(Event::Text {
                                role,
                                text: s.to_string(),
                            });
                        }
                    }
                    Some("tool_use") => t.events.push(Event::ToolUse {
                        name: b
                            .get("name")
                            .and_then(Value::as_str)
                            .unwrap_or("?")
                            .to_string(),
                        input: b.get("input").cloned().unwrap_or(Value::Null),
                    }),
                    Some("tool_result") => t.events.push(Event::ToolResult {
                        text: tool_result_text(b.get("content")),
                        is_error: b.get("is_error").and_then(Value::as_bool).unwrap_or(false),
                    }),
                    _ => {}
                }
            }
        }
        _ => {}
    }
}

/// A tool result's content: a string, or blocks whose text parts are joined.
fn tool_result_text(c: Option<&Value>) -> String {
    match c {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        Some(other) if !other.is_null() => other.to_string(),
        _ => String::new(),
    }
}

/// Deepest nesting searched for `Skill` calls.
const MAX_DEPTH: usize = 64;

/// Walk `v` for `{"type":"tool_use","name":"Skill","input":{"skill":…}}`
/// objects at any depth.
fn find_skill_loads(v: &Value, out: &mut Vec<String>, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    match v {
        Value::Object(m) => {
            if m.get("type").and_then(Value::as_str) == Some("tool_use")
                && m.get("name").and_then(Value::as_str) == Some("Skill")
                && let Some(name) = m.get("input").and_then(skill_input_name)
                && !out.iter().any(|s| s == name)
            {
                out.push(name.to_string());
            }
            for x in m.values() {
                find_skill_loads(x, out, depth + 1);
            }
        }
        Value::Array(a) => {
            for x in a {
                find_skill_loads(x, out, depth + 1);
            }
        }
        _ => {}
    }
}

/// The skill a `Skill` call names: `input.skill` (current), else
/// `input.command` (the key some earlier versions used).
fn skill_input_name(input: &Value) -> Option<&str> {
    ["skill", "command"]
        .iter()
        .find_map(|k| input.get(*k).and_then(Value::as_str))
        .map(|s| s.trim().trim_start_matches('/'))
        .filter(|s| !s.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    const RUN: &str = r#"{"type":"system","subtype":"hook_started","hook_name":"SessionStart:startup"}
{"type":"system","subtype":"init","cwd":"/tmp/ws","tools":["Task","Bash","Read","Skill"],"mcp_servers":[],"model":"claude-sonnet-5"}
{"type":"assistant","message":{"content":[{"type":"text","text":"Let me look."},{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}]}}
{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"a.js"}]}}
not json at all
{"type":"stream_event","event":{"type":"content_block_start","content_block":{"type":"tool_use","name":"Skill","input":{}}}}
{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t2","name":"Skill","input":{"skill":"acme:test-driven-development"}}]},"parent_tool_use_id":"t0"}
{"type":"rate_limit_event","rate_limit_info":{"status":"allowed"}}
{"type":"result","subtype":"success","is_error":false,"num_turns":3,"result":"Done.","total_cost_usd":0.0123,"usage":{"input_tokens":150,"cache_creation_input_tokens":20,"cache_read_input_tokens":400,"output_tokens":25},"permission_denials":[{"tool_name":"Bash"}]}
"#;

    #[test]
    fn reads_init_skill_loads_and_result() {
        let t = parse(RUN.as_bytes());
        assert_eq!(
            t.init_tools.as_deref(),
            Some(&["Task", "Bash", "Read", "Skill"].map(String::from)[..])
        );
        assert_eq!(t.skills, vec!["acme:test-driven-development"]);
        let r = t.result.clone().unwrap();
        assert_eq!(r.text, "Done.");
        assert_eq!(r.input_tokens, 570);
        assert_eq!(r.output_tokens, 25);
        assert_eq!(r.cost_usd, Some(0.0123));
        assert_eq!(r.permission_denials, 1);
        assert_eq!(t.skipped_lines, 1);
        assert_eq!(t.tool_counts().get("Bash"), Some(&1));
    }

    #[test]
    fn a_stream_without_result_has_no_verdict() {
        let t = parse(b"{\"type\":\"assistant\",\"message\":{\"content\":[]}}\n");
        assert!(t.result.is_none());
    }

    #[test]
    fn token_counts_saturate_instead_of_overflowing() {
        let line = r#"{"type":"result","usage":{"input_tokens":18446744073709551615,"cache_read_input_tokens":5,"output_tokens":18446744073709551615}}"#;
        let r = parse(line.as_bytes()).result.unwrap();
        assert_eq!(r.input_tokens, u64::MAX);
        assert_eq!(r.total_tokens(), u64::MAX);
    }

    #[test]
    fn repeated_loads_are_listed_once() {
        let line = r#"{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Skill","input":{"skill":"a"}},{"type":"tool_use","name":"Skill","input":{"skill":"a"}},{"type":"tool_use","name":"Skill","input":{"command":"/b"}}]}}"#;
        assert_eq!(parse(line.as_bytes()).skills, vec!["a", "b"]);
    }
}
