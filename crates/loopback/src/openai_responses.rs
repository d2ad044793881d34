//! The OpenAI Responses API, as much of it as Codex needs from a loopback
//! endpoint: `POST <base>/responses` answered with server-sent events
//! (`response.created`, `response.output_item.added`,
//! `response.output_text.delta`, `response.output_item.done`,
//! `response.completed` with usage). Codex 0.171 sends nothing else to a
//! provider declared with `wire_api = "responses"`; anything else gets a
//! 404 (a WebSocket upgrade included, so a client that tries one falls back
//! to HTTP).
//!
//! A request's `input` holds `developer`, `user` and `assistant` messages
//! (`input_text` / `output_text` parts), `function_call` items and their
//! `function_call_output`s.

use super::{Api, Block, Exchange, Request, Response, ToolResult, ToolUse, Turn};
use serde_json::{Value, json};

/// The Responses API behind [`Api`].
#[derive(Debug, Clone, Copy, Default)]
pub struct Responses;

/// A `POST …/responses` call.
pub fn is_responses(req: &Request) -> bool {
    req.method == "POST" && req.path().ends_with("/responses")
}

fn usage(turn: &Turn) -> Value {
    json!({
        "input_tokens": turn.input_tokens,
        "input_tokens_details": {"cached_tokens": turn.cached_input_tokens},
        "output_tokens": turn.output_tokens + turn.reasoning_tokens,
        "output_tokens_details": {"reasoning_tokens": turn.reasoning_tokens},
        "total_tokens": turn.input_tokens + turn.output_tokens + turn.reasoning_tokens,
    })
}

/// The output items of `turn`: one message for its text, one
/// `function_call` per tool call (its `call_id` the block's id).
fn items(turn: &Turn) -> Vec<Value> {
    let mut out = Vec::new();
    let text = turn.text_content();
    if !text.is_empty() {
        out.push(json!({
            "type": "message", "id": "msg_loopback", "role": "assistant", "status": "completed",
            "content": [{"type": "output_text", "text": text, "annotations": []}],
        }));
    }
    for (k, b) in turn.blocks.iter().enumerate() {
        if let Block::ToolUse { id, name, input } = b {
            out.push(json!({
                "type": "function_call", "id": format!("fc_loopback_{k}"), "call_id": id,
                "name": name, "arguments": input.to_string(), "status": "completed",
            }));
        }
    }
    out
}

/// Answer `req` with `turn` as an event stream.
pub fn reply(req: &Request, turn: &Turn) -> Response {
    let body = req.json().unwrap_or(Value::Null);
    let model = body["model"].as_str().unwrap_or("loopback-model");
    let output = items(turn);
    let mut events = vec![(
        "response.created",
        json!({"type": "response.created", "response": {"id": "resp_loopback", "model": model, "status": "in_progress", "output": []}}),
    )];
    for (i, item) in output.iter().enumerate() {
        let mut added = item.clone();
        if added["type"] == "message" {
            added["content"] = json!([]);
        }
        events.push((
            "response.output_item.added",
            json!({"type": "response.output_item.added", "output_index": i, "item": added}),
        ));
        if item["type"] == "message" {
            events.push((
                "response.output_text.delta",
                json!({"type": "response.output_text.delta", "output_index": i, "content_index": 0,
                       "item_id": item["id"], "delta": item["content"][0]["text"]}),
            ));
        }
        events.push((
            "response.output_item.done",
            json!({"type": "response.output_item.done", "output_index": i, "item": item}),
        ));
    }
    events.push((
        "response.completed",
        json!({"type": "response.completed", "response": {
            "id": "resp_loopback", "model": model, "status": "completed",
            "output": output, "usage": usage(turn),
        }}),
    ));
    Response::sse(events)
}

/// What a Responses request shows the model. The prompt is the first user
/// message that is not one of the context blocks Codex sends before it
/// (`<environment_context>`, `<user_instructions>`, …).
pub fn read(body: &Value) -> Exchange {
    let mut x = Exchange::default();
    let mut system = Vec::new();
    if let Some(i) = body["instructions"].as_str().filter(|s| !s.is_empty()) {
        system.push(i.to_string());
        x.texts.push(i.to_string());
    }
    for item in body["input"].as_array().into_iter().flatten() {
        match item["type"].as_str().unwrap_or("message") {
            "message" => {
                let text = super::content_text(&item["content"]);
                match item["role"].as_str() {
                    Some("developer") | Some("system") => system.push(text.clone()),
                    Some("user") if x.prompt.is_empty() && !text.trim_start().starts_with('<') => {
                        x.prompt = text.clone()
                    }
                    Some("assistant") => x.assistant_turns += 1,
                    _ => {}
                }
                x.texts.push(text);
            }
            "additional_tools" => {
                // the "responses lite" form: tools sent as an input item
                x.tools.extend(tool_names(&item["tools"]));
            }
            "function_call" | "custom_tool_call" => {
                x.assistant_turns += 1;
                let input = match item["arguments"].as_str() {
                    Some(a) => serde_json::from_str(a).unwrap_or(Value::Null),
                    None => item["input"].clone(),
                };
                x.calls.push(ToolUse {
                    id: item["call_id"].as_str().unwrap_or("").to_string(),
                    name: item["name"].as_str().unwrap_or("").to_string(),
                    input,
                });
            }
            "function_call_output" | "custom_tool_call_output" => {
                let text = match &item["output"] {
                    Value::String(s) => s.clone(),
                    other => super::content_text(other),
                };
                x.results.push(ToolResult {
                    id: item["call_id"].as_str().unwrap_or("").to_string(),
                    name: None,
                    is_error: false,
                    text: text.clone(),
                });
                x.texts.push(text);
            }
            _ => {}
        }
    }
    x.system = system.join("\n");
    x.tools.extend(tool_names(&body["tools"]));
    x
}

/// The names of a `tools` array: each tool's `name` (else its `type`), and
/// the tools of a `namespace` in its place.
fn tool_names(tools: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for t in tools.as_array().into_iter().flatten() {
        if t["type"] == "namespace" {
            out.extend(tool_names(&t["tools"]));
        } else if let Some(n) = t["name"].as_str().or_else(|| t["type"].as_str()) {
            out.push(n.to_string());
        }
    }
    out
}

impl Api for Responses {
    fn name(&self) -> &'static str {
        "openai-responses"
    }

    fn is_model_call(&self, req: &Request) -> bool {
        is_responses(req)
    }

    fn reply(&self, req: &Request, turn: &Turn) -> Response {
        reply(req, turn)
    }

    fn read(&self, body: &Value) -> Exchange {
        read(body)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn post(body: Value) -> Request {
        Request {
            method: "POST".into(),
            url: "/v1/responses".into(),
            headers: Vec::new(),
            body: body.to_string().into_bytes(),
        }
    }

    #[test]
    fn a_tool_call_becomes_a_function_call_item_with_its_arguments_as_text() {
        let t =
            Turn::tool("1", "exec_command", json!({"cmd": "cat SKILL.md"})).usage(100, 40, 7, 3);
        let r = reply(&post(json!({"model": "m"})), &t);
        let text = String::from_utf8(r.body).unwrap();
        let done: Vec<Value> = text
            .lines()
            .filter_map(|l| l.strip_prefix("data: "))
            .filter_map(|d| serde_json::from_str::<Value>(d).ok())
            .collect();
        let call = done
            .iter()
            .find(|e| e["type"] == "response.output_item.done")
            .unwrap();
        assert_eq!(call["item"]["type"], "function_call");
        assert_eq!(call["item"]["call_id"], "toolu_1");
        assert_eq!(call["item"]["arguments"], r#"{"cmd":"cat SKILL.md"}"#);
        let u = &done.last().unwrap()["response"]["usage"];
        assert_eq!(u["input_tokens"], 100);
        assert_eq!(u["input_tokens_details"]["cached_tokens"], 40);
        assert_eq!(u["output_tokens"], 10);
    }

    #[test]
    fn a_request_reads_into_system_prompt_calls_and_results() {
        let body = json!({
            "input": [
                {"type": "message", "role": "developer", "content": [{"type": "input_text", "text": "<skills_instructions>x"}]},
                {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "<environment_context>…"}]},
                {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "fix it"}]},
                {"type": "function_call", "name": "exec_command", "arguments": "{\"cmd\":\"ls\"}", "call_id": "c1"},
                {"type": "function_call_output", "call_id": "c1", "output": "a.js"}
            ],
            "tools": [{"type": "function", "name": "exec_command"}, {"type": "web_search"}]
        });
        let x = read(&body);
        assert_eq!(x.prompt, "fix it");
        assert!(x.system.contains("<skills_instructions>"));
        assert_eq!(x.tools, ["exec_command", "web_search"]);
        assert_eq!(x.calls[0].input["cmd"], "ls");
        assert_eq!(x.results[0].id, "c1");
        assert_eq!(x.assistant_turns, 1);
    }
}
