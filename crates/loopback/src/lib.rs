//! A model endpoint on 127.0.0.1 that a real agent CLI can be pointed at.
//!
//! Agent CLIs take a base URL for their model API (`ANTHROPIC_BASE_URL`,
//! a Codex provider's `base_url`, `GOOGLE_GEMINI_BASE_URL`, an opencode
//! provider's `baseURL`). [`Server`] listens on a loopback port chosen by
//! the system, records every request it receives, and answers each one
//! with what its handler returns; the handler speaks the client's API
//! (one module per API: [`anthropic`]). Nothing here reaches the network:
//! the socket is bound to `127.0.0.1` only.
//!
//! One module per model API, each behind the [`Api`] interface (answer a
//! request with a scripted [`Turn`], read what a request shows the model as
//! an [`Exchange`]): [`anthropic`] (the Messages API, Claude Code),
//! [`openai_responses`] (the Responses API, Codex), [`openai_chat`] (Chat
//! Completions, opencode) and [`gemini`] (the Gemini API, Gemini CLI).
//!
//! `skillsift listing --capture` serves one of these to read the listing a
//! client sends with its first request, and the real-client tests script
//! whole agent runs with it, spending no tokens.

// The layers below, by the names the code used for them when it was one
// crate, so that a `crate::catalog::…` path reads the same in every layer.

pub mod anthropic;
pub mod gemini;
pub mod openai_chat;
pub mod openai_responses;

use std::io::Read;
use std::net::SocketAddr;
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Largest request body read; the rest of a larger one is dropped and the
/// request answered 413.
pub const MAX_BODY_BYTES: usize = 64 << 20;

/// Threads answering requests at once (a client may send a side request
/// while its main one is open).
const WORKERS: usize = 4;

/// One request as received.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    pub method: String,
    /// Path and query, e.g. `/v1/messages?beta=true`.
    pub url: String,
    /// Header names in lower case, in the order received.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Request {
    /// The path without its query.
    pub fn path(&self) -> &str {
        self.url.split_once('?').map_or(&self.url, |(p, _)| p)
    }

    /// The first header named `name` (any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The body as JSON, when it is.
    pub fn json(&self) -> Option<serde_json::Value> {
        serde_json::from_slice(&self.body).ok()
    }
}

/// What the handler answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    /// Wait this long before answering (to test a client's time limit); a
    /// server being dropped stops waiting.
    pub delay: Option<Duration>,
}

impl Response {
    /// An empty answer with `status`.
    pub fn empty(status: u16) -> Response {
        Response {
            status,
            headers: Vec::new(),
            body: Vec::new(),
            delay: None,
        }
    }

    /// A JSON answer.
    pub fn json(status: u16, value: &serde_json::Value) -> Response {
        Response {
            status,
            headers: vec![("content-type".into(), "application/json".into())],
            body: serde_json::to_vec(value).unwrap_or_default(),
            delay: None,
        }
    }

    /// A server-sent-events answer: one `event:` (when not empty) and one
    /// `data:` line per event, each data value written as one line of JSON.
    pub fn sse<'a>(events: impl IntoIterator<Item = (&'a str, serde_json::Value)>) -> Response {
        let mut body = String::new();
        for (event, data) in events {
            if !event.is_empty() {
                body.push_str("event: ");
                body.push_str(event);
                body.push('\n');
            }
            body.push_str("data: ");
            body.push_str(&data.to_string());
            body.push_str("\n\n");
        }
        Response {
            status: 200,
            headers: vec![
                ("content-type".into(), "text/event-stream".into()),
                ("cache-control".into(), "no-cache".into()),
            ],
            body: body.into_bytes(),
            delay: None,
        }
    }

    /// The same answer after `delay`.
    pub fn delayed(mut self, delay: Duration) -> Response {
        self.delay = Some(delay);
        self
    }
}

/// One content block of an assistant turn.
#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    Text(String),
    /// A tool call; `id` is the call's id as the API carries it (APIs that
    /// carry none drop it).
    ToolUse {
        id: String,
        name: String,
        input: serde_json::Value,
    },
}

/// One assistant message, whatever the API.
#[derive(Debug, Clone, PartialEq)]
pub struct Turn {
    pub blocks: Vec<Block>,
    /// Every input token of the request, cached ones included.
    pub input_tokens: u64,
    /// How many of `input_tokens` were read from a cache.
    pub cached_input_tokens: u64,
    /// Visible output tokens.
    pub output_tokens: u64,
    /// Reasoning ("thinking") tokens, besides `output_tokens`.
    pub reasoning_tokens: u64,
}

impl Turn {
    /// A turn that only says `text` and ends.
    pub fn text(text: impl Into<String>) -> Turn {
        Turn {
            blocks: vec![Block::Text(text.into())],
            input_tokens: 10,
            cached_input_tokens: 0,
            output_tokens: 5,
            reasoning_tokens: 0,
        }
    }

    /// A turn that calls tool `name` with `input` (its id `toolu_<id>`).
    pub fn tool(id: &str, name: &str, input: serde_json::Value) -> Turn {
        Turn {
            blocks: vec![Block::ToolUse {
                id: format!("toolu_{id}"),
                name: name.into(),
                input,
            }],
            ..Turn::text("")
        }
    }

    /// The same turn reporting other token counts.
    pub fn usage(mut self, input: u64, cached: u64, output: u64, reasoning: u64) -> Turn {
        self.input_tokens = input;
        self.cached_input_tokens = cached;
        self.output_tokens = output;
        self.reasoning_tokens = reasoning;
        self
    }

    /// Whether the turn calls a tool.
    pub fn calls_tool(&self) -> bool {
        self.blocks
            .iter()
            .any(|b| matches!(b, Block::ToolUse { .. }))
    }

    /// `tool_use` when the turn calls a tool, else `end_turn` (the Messages
    /// API's words).
    pub fn stop_reason(&self) -> &'static str {
        if self.calls_tool() {
            "tool_use"
        } else {
            "end_turn"
        }
    }

    /// The text blocks, joined.
    pub fn text_content(&self) -> String {
        self.blocks
            .iter()
            .filter_map(|b| match b {
                Block::Text(t) => Some(t.as_str()),
                _ => None,
            })
            .collect::<Vec<_>>()
            .join("")
    }
}

/// A tool call the conversation has made so far, as a request carries it.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolUse {
    pub id: String,
    pub name: String,
    pub input: serde_json::Value,
}

/// A tool's answer sent back to the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolResult {
    /// The call it answers (empty when the API carries no id).
    pub id: String,
    /// The tool's name, when the API carries it.
    pub name: Option<String>,
    /// The API marks it as an error (only some APIs can).
    pub is_error: bool,
    pub text: String,
}

/// What one model request shows the model, read the same way whatever the
/// API.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Exchange {
    /// The system prompt (developer messages included), blocks joined by
    /// newlines.
    pub system: String,
    /// Every text of the conversation in order (system first, tool results
    /// included).
    pub texts: Vec<String>,
    /// The names of the tools offered.
    pub tools: Vec<String>,
    /// The tool calls of the assistant turns so far.
    pub calls: Vec<ToolUse>,
    /// The tool answers so far.
    pub results: Vec<ToolResult>,
    /// The text of the user's prompt (the first user message, without the
    /// context blocks a client puts before it).
    pub prompt: String,
    /// Assistant turns already in the conversation.
    pub assistant_turns: usize,
}

impl Exchange {
    /// Every text joined (system prompt, messages, tool results).
    pub fn all_text(&self) -> String {
        let mut t = self.texts.clone();
        t.push(self.system.clone());
        t.join("\n")
    }
}

/// The text of a message item's content (a string, or its parts' texts
/// joined by newlines).
pub fn content_text(c: &serde_json::Value) -> String {
    match c {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Array(parts) => parts
            .iter()
            .filter_map(|p| p["text"].as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// One model API, as a loopback endpoint speaks it.
pub trait Api: Send + Sync + std::fmt::Debug {
    /// A short name (`anthropic`, `openai-responses`, `openai-chat`,
    /// `gemini`).
    fn name(&self) -> &'static str;
    /// Whether `req` asks the model for a turn.
    fn is_model_call(&self, req: &Request) -> bool;
    /// The answer to anything else (health checks, token counting, …):
    /// by default 404.
    fn housekeeping(&self, _req: &Request) -> Response {
        Response::empty(404)
    }
    /// Answer a model call with `turn`, in the form the request asks for
    /// (streamed or not).
    fn reply(&self, req: &Request, turn: &Turn) -> Response;
    /// What a model call's body shows the model.
    fn read(&self, body: &serde_json::Value) -> Exchange;
    /// Whether a model call is a client's side request rather than a turn
    /// of the conversation (a session title, a model router): by default
    /// none is.
    fn is_side_request(&self, _body: &serde_json::Value) -> bool {
        false
    }
}

/// Answers requests; called from several threads at once.
pub type Handler = dyn Fn(&Request) -> Response + Send + Sync;

#[derive(Default)]
struct Log {
    requests: Mutex<Vec<Request>>,
    arrived: Condvar,
    /// Set when the server stops: delayed answers stop waiting.
    closing: std::sync::atomic::AtomicBool,
}

/// A running loopback endpoint. Dropping it stops it.
pub struct Server {
    http: Arc<tiny_http::Server>,
    addr: SocketAddr,
    log: Arc<Log>,
    workers: Vec<JoinHandle<()>>,
}

impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server").field("addr", &self.addr).finish()
    }
}

impl Server {
    /// Listen on `127.0.0.1` at a free port and answer with `handler`.
    pub fn start(
        handler: impl Fn(&Request) -> Response + Send + Sync + 'static,
    ) -> std::io::Result<Server> {
        let http = tiny_http::Server::http("127.0.0.1:0").map_err(std::io::Error::other)?;
        let addr = http
            .server_addr()
            .to_ip()
            .ok_or_else(|| std::io::Error::other("the server has no IP address"))?;
        let http = Arc::new(http);
        let log = Arc::new(Log::default());
        let handler: Arc<Handler> = Arc::new(handler);
        let workers = (0..WORKERS)
            .map(|_| {
                let (http, log, handler) = (http.clone(), log.clone(), handler.clone());
                std::thread::spawn(move || {
                    // `recv` fails once the server is unblocked on drop
                    while let Ok(rq) = http.recv() {
                        serve(rq, &log, &*handler);
                    }
                })
            })
            .collect();
        Ok(Server {
            http,
            addr,
            log,
            workers,
        })
    }

    /// `http://127.0.0.1:PORT`, without a trailing slash.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The port listened on.
    pub fn port(&self) -> u16 {
        self.addr.port()
    }

    /// Every request received so far, in arrival order.
    pub fn requests(&self) -> Vec<Request> {
        self.log
            .requests
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Wait until a received request satisfies `pred`, at most `timeout`;
    /// returns it.
    pub fn wait_for(&self, timeout: Duration, pred: impl Fn(&Request) -> bool) -> Option<Request> {
        let deadline = Instant::now() + timeout;
        let mut seen = self.log.requests.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(r) = seen.iter().find(|r| pred(r)) {
                return Some(r.clone());
            }
            let left = deadline.checked_duration_since(Instant::now())?;
            seen = self
                .log
                .arrived
                .wait_timeout(seen, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.log
            .closing
            .store(true, std::sync::atomic::Ordering::SeqCst);
        for _ in &self.workers {
            self.http.unblock();
        }
        for w in self.workers.drain(..) {
            let _ = w.join();
        }
    }
}

fn serve(mut rq: tiny_http::Request, log: &Log, handler: &Handler) {
    let mut body = Vec::new();
    let mut too_large = false;
    if let Err(e) = rq
        .as_reader()
        .take(MAX_BODY_BYTES as u64 + 1)
        .read_to_end(&mut body)
    {
        let _ = rq.respond(tiny_http::Response::from_string(e.to_string()).with_status_code(400));
        return;
    }
    if body.len() > MAX_BODY_BYTES {
        body.truncate(MAX_BODY_BYTES);
        too_large = true;
    }
    let request = Request {
        method: rq.method().as_str().to_string(),
        url: rq.url().to_string(),
        headers: rq
            .headers()
            .iter()
            .map(|h| {
                (
                    h.field.as_str().as_str().to_ascii_lowercase(),
                    h.value.as_str().to_string(),
                )
            })
            .collect(),
        body,
    };
    let answer = if too_large {
        Response::empty(413)
    } else {
        handler(&request)
    };
    {
        let mut seen = log.requests.lock().unwrap_or_else(|e| e.into_inner());
        seen.push(request);
    }
    log.arrived.notify_all();
    if let Some(d) = answer.delay {
        // in steps, so that a stopping server does not wait out the delay
        let until = Instant::now() + d;
        while !log.closing.load(std::sync::atomic::Ordering::SeqCst) {
            let Some(left) = until.checked_duration_since(Instant::now()) else {
                break;
            };
            std::thread::sleep(left.min(Duration::from_millis(10)));
        }
    }
    let mut response = tiny_http::Response::from_data(answer.body).with_status_code(answer.status);
    for (k, v) in &answer.headers {
        if let Ok(h) = tiny_http::Header::from_bytes(k.as_bytes(), v.as_bytes()) {
            response.add_header(h);
        }
    }
    // the client may have gone (killed on a time limit): nothing to do
    let _ = rq.respond(response);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::net::TcpStream;

    fn send(addr: &str, raw: &str) -> String {
        let mut s = TcpStream::connect(addr).unwrap();
        s.write_all(raw.as_bytes()).unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).unwrap();
        out
    }

    #[test]
    fn it_answers_and_records_a_post() {
        let server = Server::start(|r| {
            Response::json(
                200,
                &serde_json::json!({"path": r.path(), "n": r.body.len()}),
            )
        })
        .unwrap();
        assert!(server.url().starts_with("http://127.0.0.1:"));
        let out = send(
            &server.addr.to_string(),
            "POST /v1/messages?beta=true HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 7\r\nConnection: close\r\n\r\n{\"a\":1}",
        );
        assert!(out.starts_with("HTTP/1.1 200"), "{out}");
        assert!(out.contains(r#"{"n":7,"path":"/v1/messages"}"#), "{out}");
        let seen = server.requests();
        assert_eq!(seen.len(), 1);
        assert_eq!(seen[0].method, "POST");
        assert_eq!(seen[0].url, "/v1/messages?beta=true");
        assert_eq!(seen[0].header("CONTENT-TYPE"), Some("application/json"));
        assert_eq!(seen[0].json().unwrap()["a"], 1);
    }

    #[test]
    fn sse_writes_one_event_and_data_line_per_event() {
        let r = Response::sse([
            ("ping", serde_json::json!({"type": "ping"})),
            ("", serde_json::json!(1)),
        ]);
        assert_eq!(
            String::from_utf8(r.body).unwrap(),
            "event: ping\ndata: {\"type\":\"ping\"}\n\ndata: 1\n\n"
        );
    }

    #[test]
    fn wait_for_times_out_when_nothing_matches() {
        let server = Server::start(|_| Response::empty(204)).unwrap();
        let out = send(
            &server.addr.to_string(),
            "HEAD / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        );
        assert!(out.starts_with("HTTP/1.1 204"), "{out}");
        assert!(
            server
                .wait_for(Duration::from_secs(5), |r| r.method == "HEAD")
                .is_some()
        );
        assert!(
            server
                .wait_for(Duration::from_millis(50), |r| r.method == "POST")
                .is_none()
        );
    }
}
