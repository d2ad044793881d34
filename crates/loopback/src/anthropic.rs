//! The Anthropic Messages API, as much of it as Claude Code needs from a
//! loopback endpoint: `HEAD /` at start, `POST /v1/messages` (streamed as
//! server-sent events when the request asks, else one JSON message), and
//! token counting. A [`Turn`] is one assistant message to send back.
//! [`Messages`] is this API behind [`super::Api`].

use super::{Api, Exchange, Request, Response};
use serde_json::{Value, json};

pub use super::{Block, ToolResult, ToolUse, Turn};

/// The Messages API behind [`Api`].
#[derive(Debug, Clone, Copy, Default)]
pub struct Messages;

impl Api for Messages {
    fn name(&self) -> &'static str {
        "anthropic"
    }

    fn is_model_call(&self, req: &Request) -> bool {
        is_messages(req)
    }

    fn housekeeping(&self, req: &Request) -> Response {
        housekeeping(req).unwrap_or_else(|| Response::empty(404))
    }

    fn reply(&self, req: &Request, turn: &Turn) -> Response {
        reply(req, turn)
    }

    fn read(&self, body: &Value) -> Exchange {
        let prompt = match &body["messages"][0]["content"] {
            Value::String(s) => s.clone(),
            // Claude Code puts its reminders before the prompt
            Value::Array(blocks) => blocks
                .iter()
                .filter_map(|b| b["text"].as_str())
                .next_back()
                .unwrap_or("")
                .to_string(),
            _ => String::new(),
        };
        Exchange {
            system: system_text(body),
            texts: texts(body),
            tools: tool_names(body),
            calls: tool_uses(body),
            results: tool_results(body),
            prompt,
            assistant_turns: body["messages"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|m| m["role"] == "assistant")
                .count(),
        }
    }

    fn is_side_request(&self, body: &Value) -> bool {
        is_title_request(body)
    }
}

/// A `POST …/v1/messages` call (not token counting).
pub fn is_messages(req: &Request) -> bool {
    req.method == "POST" && req.path().ends_with("/v1/messages")
}

/// Answer `req` with `turn`: as an event stream when its body asks for
/// `"stream": true`, else as one message.
pub fn reply(req: &Request, turn: &Turn) -> Response {
    let body = req.json().unwrap_or(Value::Null);
    let model = body["model"]
        .as_str()
        .unwrap_or("loopback-model")
        .to_string();
    if body["stream"].as_bool() == Some(true) {
        stream(&model, turn)
    } else {
        Response::json(200, &message(&model, turn))
    }
}

fn block_json(b: &Block) -> Value {
    match b {
        Block::Text(t) => json!({"type": "text", "text": t}),
        Block::ToolUse { id, name, input } => {
            json!({"type": "tool_use", "id": id, "name": name, "input": input})
        }
    }
}

/// The Messages API's usage: uncached input apart from cache reads; output
/// including thinking.
fn usage(turn: &Turn) -> Value {
    json!({
        "input_tokens": turn.input_tokens.saturating_sub(turn.cached_input_tokens),
        "cache_read_input_tokens": turn.cached_input_tokens,
        "output_tokens": turn.output_tokens + turn.reasoning_tokens,
    })
}

fn message(model: &str, turn: &Turn) -> Value {
    json!({
        "id": "msg_loopback",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": turn.blocks.iter().map(block_json).collect::<Vec<_>>(),
        "stop_reason": turn.stop_reason(),
        "stop_sequence": null,
        "usage": usage(turn),
    })
}

fn stream(model: &str, turn: &Turn) -> Response {
    let mut events = vec![(
        "message_start",
        json!({"type": "message_start", "message": {
            "id": "msg_loopback", "type": "message", "role": "assistant", "model": model,
            "content": [], "stop_reason": null, "stop_sequence": null,
            "usage": {"input_tokens": turn.input_tokens.saturating_sub(turn.cached_input_tokens),
                "cache_read_input_tokens": turn.cached_input_tokens, "output_tokens": 1},
        }}),
    )];
    for (i, b) in turn.blocks.iter().enumerate() {
        let (start, delta) = match b {
            Block::Text(t) => (
                json!({"type": "text", "text": ""}),
                json!({"type": "text_delta", "text": t}),
            ),
            Block::ToolUse { id, name, input } => (
                json!({"type": "tool_use", "id": id, "name": name, "input": {}}),
                json!({"type": "input_json_delta", "partial_json": input.to_string()}),
            ),
        };
        events.push((
            "content_block_start",
            json!({"type": "content_block_start", "index": i, "content_block": start}),
        ));
        events.push((
            "content_block_delta",
            json!({"type": "content_block_delta", "index": i, "delta": delta}),
        ));
        events.push((
            "content_block_stop",
            json!({"type": "content_block_stop", "index": i}),
        ));
    }
    events.push((
        "message_delta",
        json!({"type": "message_delta",
            "delta": {"stop_reason": turn.stop_reason(), "stop_sequence": null},
            "usage": {"output_tokens": turn.output_tokens + turn.reasoning_tokens}}),
    ));
    events.push(("message_stop", json!({"type": "message_stop"})));
    Response::sse(events)
}

/// What a Claude Code endpoint answers besides model turns: `HEAD /` (a
/// connectivity check), token counting, and 404 for anything else. `None`
/// for a messages call, which the caller answers.
pub fn housekeeping(req: &Request) -> Option<Response> {
    if is_messages(req) {
        return None;
    }
    Some(match (req.method.as_str(), req.path()) {
        ("HEAD", _) => Response::empty(200),
        ("POST", p) if p.ends_with("/v1/messages/count_tokens") => {
            Response::json(200, &json!({"input_tokens": 1}))
        }
        _ => Response::empty(404),
    })
}

/// Every text a request shows the model, in order: the system blocks, then
/// each message's string content or text blocks (tool results included).
pub fn texts(body: &Value) -> Vec<String> {
    let mut out = Vec::new();
    fn collect(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::String(s) => out.push(s.clone()),
            Value::Array(items) => items.iter().for_each(|i| collect(i, out)),
            Value::Object(o) => {
                if let Some(Value::String(t)) = o.get("text") {
                    out.push(t.clone());
                }
                if let Some(c) = o.get("content") {
                    collect(c, out);
                }
            }
            _ => {}
        }
    }
    collect(&body["system"], &mut out);
    if let Some(messages) = body["messages"].as_array() {
        for m in messages {
            collect(&m["content"], &mut out);
        }
    }
    out
}

/// The text of a request's system prompt, its blocks joined by newlines.
pub fn system_text(body: &Value) -> String {
    super::content_text(&body["system"])
}

/// Whether a messages request is Claude Code's session-title side request
/// (sent with every `claude -p` call unless
/// `CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC` is set; it carries the prompt).
pub fn is_title_request(body: &Value) -> bool {
    system_text(body).contains("Generate a concise, sentence-case title")
}

/// Every `tool_use` block of a request's assistant messages, in order: the
/// tool calls the conversation has made so far.
pub fn tool_uses(body: &Value) -> Vec<ToolUse> {
    let mut out = Vec::new();
    for m in body["messages"].as_array().into_iter().flatten() {
        if m["role"] != "assistant" {
            continue;
        }
        for b in m["content"].as_array().into_iter().flatten() {
            if b["type"] == "tool_use" {
                out.push(ToolUse {
                    id: b["id"].as_str().unwrap_or("").to_string(),
                    name: b["name"].as_str().unwrap_or("").to_string(),
                    input: b["input"].clone(),
                });
            }
        }
    }
    out
}

/// The names of the tools a request offers.
pub fn tool_names(body: &Value) -> Vec<String> {
    body["tools"]
        .as_array()
        .map(|t| {
            t.iter()
                .filter_map(|t| t["name"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// Every `tool_result` block of a request's messages, in order.
pub fn tool_results(body: &Value) -> Vec<ToolResult> {
    let mut out = Vec::new();
    for m in body["messages"].as_array().into_iter().flatten() {
        for b in m["content"].as_array().into_iter().flatten() {
            if b["type"] != "tool_result" {
                continue;
            }
            let text = match &b["content"] {
                Value::String(s) => s.clone(),
                Value::Array(parts) => parts
                    .iter()
                    .filter_map(|p| p["text"].as_str())
                    .collect::<Vec<_>>()
                    .join("\n"),
                _ => String::new(),
            };
            out.push(ToolResult {
                id: b["tool_use_id"].as_str().unwrap_or("").to_string(),
                name: None,
                is_error: b["is_error"].as_bool() == Some(true),
                text,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn post(body: Value) -> Request {
        Request {
            method: "POST".into(),
            url: "/v1/messages?beta=true".into(),
            headers: Vec::new(),
            body: body.to_string().into_bytes(),
        }
    }

    #[test]
    fn a_streamed_tool_call_carries_its_input_as_one_json_delta() {
        let r = reply(
            &post(json!({"model": "m", "stream": true})),
            &Turn::tool("1", "Skill", json!({"skill": "run-tests"})),
        );
        let text = String::from_utf8(r.body).unwrap();
        let events: Vec<&str> = text
            .lines()
            .filter_map(|l| l.strip_prefix("event: "))
            .collect();
        assert_eq!(
            events,
            [
                "message_start",
                "content_block_start",
                "content_block_delta",
                "content_block_stop",
                "message_delta",
                "message_stop"
            ]
        );
        assert!(text.contains(r#""partial_json":"{\"skill\":\"run-tests\"}""#));
        assert!(text.contains(r#""stop_reason":"tool_use""#));
    }

    #[test]
    fn a_plain_request_gets_one_message() {
        let r = reply(&post(json!({"model": "m"})), &Turn::text("hi"));
        let v: Value = serde_json::from_slice(&r.body).unwrap();
        assert_eq!(v["content"][0]["text"], "hi");
        assert_eq!(v["stop_reason"], "end_turn");
    }

    #[test]
    fn tool_results_and_texts_are_read_in_order() {
        let body = json!({
            "system": [{"type": "text", "text": "sys"}],
            "messages": [
                {"role": "user", "content": "hello"},
                {"role": "user", "content": [
                    {"type": "tool_result", "tool_use_id": "toolu_1", "is_error": true,
                     "content": "<tool_use_error>Unknown skill: x</tool_use_error>"},
                    {"type": "tool_result", "tool_use_id": "toolu_2",
                     "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}
                ]}
            ]
        });
        let r = tool_results(&body);
        assert_eq!(r.len(), 2);
        assert!(r[0].is_error && r[0].text.contains("Unknown skill"));
        assert_eq!((r[1].id.as_str(), r[1].text.as_str()), ("toolu_2", "a\nb"));
        assert_eq!(texts(&body)[..2], ["sys".to_string(), "hello".to_string()]);
    }

    #[test]
    fn the_conversation_so_far_and_the_system_prompt_are_read() {
        let body = json!({
            "system": [{"type": "text", "text": "a"}, {"type": "text", "text": "Generate a concise, sentence-case title"}],
            "messages": [
                {"role": "user", "content": "go"},
                {"role": "assistant", "content": [
                    {"type": "text", "text": "ok"},
                    {"type": "tool_use", "id": "toolu_1", "name": "Skill", "input": {"skill": "s"}}
                ]}
            ]
        });
        assert!(is_title_request(&body));
        assert_eq!(
            system_text(&body),
            "a\nGenerate a concise, sentence-case title"
        );
        let uses = tool_uses(&body);
        assert_eq!(uses.len(), 1);
        assert_eq!(
            (uses[0].name.as_str(), &uses[0].input["skill"]),
            ("Skill", &json!("s"))
        );
        assert!(!is_title_request(&json!({"system": "You are an agent"})));
    }
}
