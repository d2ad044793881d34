//! The OpenAI Chat Completions API, as much of it as opencode's
//! OpenAI-compatible provider needs from a loopback endpoint:
//! `POST <base>/chat/completions`, streamed (`"stream": true`: one chunk
//! for the text, one per tool call, a finish chunk, a usage chunk, then
//! `[DONE]`) or as one `chat.completion`.
//!
//! A request's `messages` are `system`, `user`, `assistant` (with
//! `tool_calls`) and `tool` messages. Every `opencode run` also sends a
//! session-title request (no tools, a "title generator" system prompt)
//! unless `--title` names the session.

use super::{Api, Block, Exchange, Request, Response, ToolResult, ToolUse, Turn};
use serde_json::{Value, json};

/// The Chat Completions API behind [`Api`].
#[derive(Debug, Clone, Copy, Default)]
pub struct Chat;

/// A `POST …/chat/completions` call.
pub fn is_chat(req: &Request) -> bool {
    req.method == "POST" && req.path().ends_with("/chat/completions")
}

fn usage(turn: &Turn) -> Value {
    json!({
        "prompt_tokens": turn.input_tokens,
        "completion_tokens": turn.output_tokens + turn.reasoning_tokens,
        "total_tokens": turn.input_tokens + turn.output_tokens + turn.reasoning_tokens,
        "prompt_tokens_details": {"cached_tokens": turn.cached_input_tokens},
        "completion_tokens_details": {"reasoning_tokens": turn.reasoning_tokens},
    })
}

fn tool_calls(turn: &Turn) -> Vec<Value> {
    turn.blocks
        .iter()
        .filter_map(|b| match b {
            Block::ToolUse { id, name, input } => Some((id, name, input)),
            _ => None,
        })
        .enumerate()
        .map(|(i, (id, name, input))| {
            json!({"index": i, "id": id, "type": "function",
                   "function": {"name": name, "arguments": input.to_string()}})
        })
        .collect()
}

fn finish_reason(turn: &Turn) -> &'static str {
    if turn.calls_tool() {
        "tool_calls"
    } else {
        "stop"
    }
}

/// Answer `req` with `turn`: chunks when it asks for `"stream": true`, else
/// one completion.
pub fn reply(req: &Request, turn: &Turn) -> Response {
    let body = req.json().unwrap_or(Value::Null);
    let model = body["model"].as_str().unwrap_or("loopback-model");
    let base = json!({"id": "chatcmpl-loopback", "object": "chat.completion.chunk", "created": 0, "model": model});
    let chunk = |choices: Value, usage: Option<Value>| {
        let mut c = base.clone();
        c["choices"] = choices;
        if let Some(u) = usage {
            c["usage"] = u;
        }
        ("", c)
    };
    let text = turn.text_content();
    let calls = tool_calls(turn);
    if body["stream"].as_bool() != Some(true) {
        let mut message = json!({"role": "assistant", "content": text});
        if !calls.is_empty() {
            message["tool_calls"] = json!(calls);
        }
        return Response::json(
            200,
            &json!({"id": "chatcmpl-loopback", "object": "chat.completion", "created": 0, "model": model,
                    "choices": [{"index": 0, "message": message, "finish_reason": finish_reason(turn)}],
                    "usage": usage(turn)}),
        );
    }
    let mut events = Vec::new();
    if !text.is_empty() {
        events.push(chunk(
            json!([{"index": 0, "delta": {"role": "assistant", "content": text}, "finish_reason": null}]),
            None,
        ));
    }
    for c in calls {
        events.push(chunk(
            json!([{"index": 0, "delta": {"role": "assistant", "tool_calls": [c]}, "finish_reason": null}]),
            None,
        ));
    }
    events.push(chunk(
        json!([{"index": 0, "delta": {}, "finish_reason": finish_reason(turn)}]),
        None,
    ));
    events.push(chunk(json!([]), Some(usage(turn))));
    let mut r = Response::sse(events);
    r.body.extend_from_slice(b"data: [DONE]\n\n");
    r
}

/// What a Chat Completions request shows the model.
pub fn read(body: &Value) -> Exchange {
    let mut x = Exchange::default();
    let mut system = Vec::new();
    let mut names: std::collections::HashMap<String, String> = Default::default();
    for m in body["messages"].as_array().into_iter().flatten() {
        let text = super::content_text(&m["content"]);
        match m["role"].as_str() {
            Some("system") | Some("developer") => system.push(text.clone()),
            Some("user") if x.prompt.is_empty() => x.prompt = text.clone(),
            Some("assistant") => {
                x.assistant_turns += 1;
                for c in m["tool_calls"].as_array().into_iter().flatten() {
                    let name = c["function"]["name"].as_str().unwrap_or("").to_string();
                    let id = c["id"].as_str().unwrap_or("").to_string();
                    names.insert(id.clone(), name.clone());
                    x.calls.push(ToolUse {
                        id,
                        name,
                        input: c["function"]["arguments"]
                            .as_str()
                            .and_then(|a| serde_json::from_str(a).ok())
                            .unwrap_or(Value::Null),
                    });
                }
            }
            Some("tool") => {
                let id = m["tool_call_id"].as_str().unwrap_or("").to_string();
                x.results.push(ToolResult {
                    name: names.get(&id).cloned(),
                    id,
                    is_error: false,
                    text: text.clone(),
                });
            }
            _ => {}
        }
        x.texts.push(text);
    }
    x.system = system.join("\n");
    x.tools = body["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| t["function"]["name"].as_str().map(str::to_string))
        .collect();
    x
}

/// Whether a request is opencode's session-title request.
pub fn is_title_request(body: &Value) -> bool {
    read(body).system.contains("You are a title generator")
}

impl Api for Chat {
    fn name(&self) -> &'static str {
        "openai-chat"
    }

    fn is_model_call(&self, req: &Request) -> bool {
        is_chat(req)
    }

    fn reply(&self, req: &Request, turn: &Turn) -> Response {
        reply(req, turn)
    }

    fn read(&self, body: &Value) -> Exchange {
        read(body)
    }

    fn is_side_request(&self, body: &Value) -> bool {
        is_title_request(body)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn post(body: Value) -> Request {
        Request {
            method: "POST".into(),
            url: "/v1/chat/completions".into(),
            headers: Vec::new(),
            body: body.to_string().into_bytes(),
        }
    }

    #[test]
    fn a_streamed_tool_call_ends_with_a_usage_chunk_and_done() {
        let t = Turn::tool("2", "skill", json!({"name": "run-tests"})).usage(100, 40, 7, 3);
        let r = reply(&post(json!({"model": "m", "stream": true})), &t);
        let text = String::from_utf8(r.body).unwrap();
        assert!(text.ends_with("data: [DONE]\n\n"), "{text}");
        assert!(text.contains(r#""finish_reason":"tool_calls""#));
        assert!(text.contains(r#""arguments":"{\"name\":\"run-tests\"}""#));
        assert!(text.contains(r#""prompt_tokens":100"#));
        assert!(text.contains(r#""cached_tokens":40"#));
    }

    #[test]
    fn tool_results_are_named_after_their_call() {
        let body = json!({"messages": [
            {"role": "system", "content": "You are a title generator."},
            {"role": "user", "content": "run the tests"},
            {"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "skill", "arguments": "{\"name\":\"x\"}"}}]},
            {"role": "tool", "tool_call_id": "c1", "content": "loaded"}
        ], "tools": [{"type": "function", "function": {"name": "skill"}}]});
        let x = read(&body);
        assert!(is_title_request(&body));
        assert_eq!(x.prompt, "run the tests");
        assert_eq!(x.results[0].name.as_deref(), Some("skill"));
        assert_eq!(x.calls[0].input["name"], "x");
        assert_eq!(x.tools, ["skill"]);
    }
}
