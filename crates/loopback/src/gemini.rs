//! The Gemini API, as much of it as Gemini CLI needs from a loopback
//! endpoint: `POST /v1beta/models/<model>:streamGenerateContent?alt=sse`
//! answered with server-sent `data:` chunks (`candidates[0].content.parts`,
//! `finishReason`, `usageMetadata`), and `:generateContent` answered with
//! one JSON response (the CLI's model router asks that way when the model
//! is `auto`).
//!
//! A request carries `systemInstruction.parts`, `contents` (`user` and
//! `model` turns whose parts are `text`, `functionCall` or
//! `functionResponse`) and `tools[].functionDeclarations`.

use super::{Api, Block, Exchange, Request, Response, ToolResult, ToolUse, Turn};
use serde_json::{Value, json};

/// The Gemini API behind [`Api`].
#[derive(Debug, Clone, Copy, Default)]
pub struct Gemini;

/// A `generateContent` or `streamGenerateContent` call.
pub fn is_generate(req: &Request) -> bool {
    req.method == "POST"
        && (req.path().ends_with(":streamGenerateContent")
            || req.path().ends_with(":generateContent"))
}

fn usage(turn: &Turn) -> Value {
    json!({
        "promptTokenCount": turn.input_tokens,
        "cachedContentTokenCount": turn.cached_input_tokens,
        "candidatesTokenCount": turn.output_tokens,
        "thoughtsTokenCount": turn.reasoning_tokens,
        "totalTokenCount": turn.input_tokens + turn.output_tokens + turn.reasoning_tokens,
    })
}

fn response(turn: &Turn, model: &str) -> Value {
    let parts: Vec<Value> = turn
        .blocks
        .iter()
        .map(|b| match b {
            Block::Text(t) => json!({"text": t}),
            Block::ToolUse { name, input, .. } => {
                json!({"functionCall": {"name": name, "args": input}})
            }
        })
        .collect();
    json!({
        "candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": usage(turn),
        "modelVersion": model,
    })
}

/// The model named in the request's path (`models/<model>:…`).
fn model_of(req: &Request) -> String {
    req.path()
        .rsplit('/')
        .next()
        .and_then(|m| m.split(':').next())
        .unwrap_or("loopback-model")
        .to_string()
}

/// Answer `req` with `turn`: one SSE chunk for `streamGenerateContent`, one
/// JSON response for `generateContent`.
pub fn reply(req: &Request, turn: &Turn) -> Response {
    let r = response(turn, &model_of(req));
    if req.path().ends_with(":streamGenerateContent") {
        Response::sse([("", r)])
    } else {
        Response::json(200, &r)
    }
}

/// What a Gemini request shows the model.
pub fn read(body: &Value) -> Exchange {
    let system = body["systemInstruction"]["parts"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| p["text"].as_str())
        .collect::<Vec<_>>()
        .join("\n");
    let mut x = Exchange {
        texts: vec![system.clone()],
        system,
        ..Exchange::default()
    };
    let mut prompt_parts: Option<Vec<String>> = None;
    for c in body["contents"].as_array().into_iter().flatten() {
        let model = c["role"] == "model";
        if model {
            x.assistant_turns += 1;
        }
        let mut texts = Vec::new();
        for p in c["parts"].as_array().into_iter().flatten() {
            if let Some(t) = p["text"].as_str() {
                texts.push(t.to_string());
                x.texts.push(t.to_string());
            }
            let call = &p["functionCall"];
            if call.is_object() {
                x.calls.push(ToolUse {
                    id: call["id"].as_str().unwrap_or("").to_string(),
                    name: call["name"].as_str().unwrap_or("").to_string(),
                    input: call["args"].clone(),
                });
            }
            let resp = &p["functionResponse"];
            if resp.is_object() {
                let r = &resp["response"];
                let is_error = r.get("error").is_some_and(|e| !e.is_null());
                let text = match r.get("output").or_else(|| r.get("error")) {
                    Some(Value::String(s)) => s.clone(),
                    Some(v) => v.to_string(),
                    None => r.to_string(),
                };
                x.results.push(ToolResult {
                    id: resp["id"].as_str().unwrap_or("").to_string(),
                    name: resp["name"].as_str().map(str::to_string),
                    is_error,
                    text: text.clone(),
                });
                x.texts.push(text);
            }
        }
        if !model && prompt_parts.is_none() && !texts.is_empty() {
            prompt_parts = Some(texts);
        }
    }
    // Gemini CLI sends the session context (date, folder tree) as the first
    // parts of the first user turn, the prompt last
    x.prompt = prompt_parts
        .and_then(|p| p.last().cloned())
        .unwrap_or_default();
    x.tools = body["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|t| t["functionDeclarations"].as_array().into_iter().flatten())
        .filter_map(|f| f["name"].as_str().map(str::to_string))
        .collect();
    x
}

impl Api for Gemini {
    fn name(&self) -> &'static str {
        "gemini"
    }

    fn is_model_call(&self, req: &Request) -> bool {
        is_generate(req)
    }

    fn reply(&self, req: &Request, turn: &Turn) -> Response {
        reply(req, turn)
    }

    fn read(&self, body: &Value) -> Exchange {
        read(body)
    }

    /// The model router's request asks for JSON against a schema.
    fn is_side_request(&self, body: &Value) -> bool {
        let g = &body["generationConfig"];
        g.get("responseJsonSchema").is_some()
            || g.get("responseSchema").is_some()
            || g["responseMimeType"] == "application/json"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn post(url: &str) -> Request {
        Request {
            method: "POST".into(),
            url: url.into(),
            headers: Vec::new(),
            body: b"{}".to_vec(),
        }
    }

    #[test]
    fn a_stream_is_one_data_chunk_with_the_function_call_and_usage() {
        let t =
            Turn::tool("1", "activate_skill", json!({"name": "run-tests"})).usage(100, 40, 7, 3);
        let r = reply(
            &post("/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse"),
            &t,
        );
        let text = String::from_utf8(r.body).unwrap();
        let data: Value =
            serde_json::from_str(text.trim().strip_prefix("data: ").unwrap()).unwrap();
        assert_eq!(
            data["candidates"][0]["content"]["parts"][0]["functionCall"]["name"],
            "activate_skill"
        );
        assert_eq!(data["usageMetadata"]["cachedContentTokenCount"], 40);
        assert_eq!(data["modelVersion"], "gemini-2.5-pro");
        let plain = reply(&post("/v1beta/models/m:generateContent"), &Turn::text("x"));
        assert_eq!(plain.headers[0].1, "application/json");
    }

    #[test]
    fn the_prompt_is_the_last_part_of_the_first_user_turn() {
        let body = json!({
            "systemInstruction": {"parts": [{"text": "# Available Agent Skills"}]},
            "contents": [
                {"role": "user", "parts": [{"text": "<session_context>"}, {"text": "run the tests"}]},
                {"role": "model", "parts": [{"functionCall": {"name": "activate_skill", "args": {"name": "x"}}}]},
                {"role": "user", "parts": [{"functionResponse": {"name": "activate_skill", "response": {"error": "denied"}}}]}
            ],
            "tools": [{"functionDeclarations": [{"name": "activate_skill"}, {"name": "read_file"}]}]
        });
        let x = read(&body);
        assert_eq!(x.prompt, "run the tests");
        assert_eq!(x.tools, ["activate_skill", "read_file"]);
        assert!(x.results[0].is_error);
        assert_eq!(x.results[0].name.as_deref(), Some("activate_skill"));
        assert_eq!(x.assistant_turns, 1);
    }
}
