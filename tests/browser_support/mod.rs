//! A headless Chromium driven over the DevTools protocol through
//! `--remote-debugging-pipe` (JSON messages ending in a NUL byte on file
//! descriptors 3 and 4): no WebSocket, no port, no extra dependency. The
//! page's console errors, exceptions, dialogs and network requests are
//! recorded for the tests to assert on.
//!
//! [`Browser::start`] returns `None` (and says why) when no Chromium is
//! installed: Debian's `chromium` package, or `SKILLSIFT_CHROMIUM`; with
//! `SKILLSIFT_REQUIRE_CHROMIUM` set (CI) it fails instead.
#![allow(dead_code)]

use serde_json::{Value, json};
use std::io::{Read, Write};
use std::os::fd::{FromRawFd, RawFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

/// How long one protocol reply may take.
const REPLY: Duration = Duration::from_secs(60);

/// The Chromium to use: `$SKILLSIFT_CHROMIUM`, else `chromium` (or
/// `chromium-browser`) on PATH.
pub fn chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("SKILLSIFT_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|d| ["chromium", "chromium-browser"].map(|n| d.join(n)))
        .find(|p| p.is_file())
}

fn pipe() -> (RawFd, RawFd) {
    let mut fds = [0; 2];
    // SAFETY: `fds` has room for the two descriptors pipe2 writes.
    let r = unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) };
    assert_eq!(r, 0, "pipe2: {}", std::io::Error::last_os_error());
    (fds[0], fds[1])
}

pub struct Browser {
    child: Child,
    commands: std::fs::File,
    replies: Receiver<Value>,
    next: u64,
    /// Every event received, in order.
    pub events: Vec<Value>,
    _profile: tempfile::TempDir,
}

impl Browser {
    /// Start a headless Chromium with a fresh profile, or `None` when there
    /// is none to start.
    pub fn start() -> Option<Browser> {
        let Some(bin) = chromium() else {
            let why = "no chromium on PATH (apt-get install chromium, or set SKILLSIFT_CHROMIUM)";
            // CI sets this, so that a missing browser fails instead of skipping
            assert!(
                std::env::var_os("SKILLSIFT_REQUIRE_CHROMIUM").is_none(),
                "SKILLSIFT_REQUIRE_CHROMIUM is set, but {why}"
            );
            eprintln!("skipping: {why}");
            return None;
        };
        let profile = tempfile::tempdir().unwrap();
        let (cmd_r, cmd_w) = pipe();
        let (res_r, res_w) = pipe();
        let mut c = Command::new(&bin);
        c.args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-extensions",
            "--hide-scrollbars",
            "--window-size=1280,900",
            "--remote-debugging-pipe",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("about:blank")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
        // SAFETY: only async-signal-safe calls (fcntl, dup2) between fork
        // and exec. The pipe ends are moved above 10 first so that dup2
        // onto 3 and 4 never overwrites one of them.
        unsafe {
            c.pre_exec(move || {
                let a = libc::fcntl(cmd_r, libc::F_DUPFD, 10);
                let b = libc::fcntl(res_w, libc::F_DUPFD, 10);
                if a < 0 || b < 0 || libc::dup2(a, 3) < 0 || libc::dup2(b, 4) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = c
            .spawn()
            .unwrap_or_else(|e| panic!("{}: {e}", bin.display()));
        // SAFETY: each descriptor came from pipe2 above and is owned once.
        let (commands, mut reader) = unsafe {
            drop(std::fs::File::from_raw_fd(cmd_r));
            drop(std::fs::File::from_raw_fd(res_w));
            (
                std::fs::File::from_raw_fd(cmd_w),
                std::fs::File::from_raw_fd(res_r),
            )
        };
        let (tx, replies) = channel();
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            let mut chunk = [0u8; 65536];
            loop {
                let n = match reader.read(&mut chunk) {
                    Ok(0) | Err(_) => return,
                    Ok(n) => n,
                };
                buf.extend_from_slice(&chunk[..n]);
                while let Some(end) = buf.iter().position(|&b| b == 0) {
                    let msg: Vec<u8> = buf.drain(..=end).collect();
                    let v: Value =
                        serde_json::from_slice(&msg[..msg.len() - 1]).expect("DevTools sends JSON");
                    if tx.send(v).is_err() {
                        return;
                    }
                }
            }
        });
        Some(Browser {
            child,
            commands,
            replies,
            next: 0,
            events: Vec::new(),
            _profile: profile,
        })
    }

    /// Send one command and wait for its reply (events that arrive
    /// meanwhile are kept).
    pub fn call(&mut self, session: Option<&str>, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = self.next;
        let mut msg = json!({"id": id, "method": method, "params": params});
        if let Some(s) = session {
            msg["sessionId"] = json!(s);
        }
        let mut bytes = serde_json::to_vec(&msg).unwrap();
        bytes.push(0);
        self.commands.write_all(&bytes).unwrap();
        loop {
            let v = self
                .replies
                .recv_timeout(REPLY)
                .unwrap_or_else(|e| panic!("no reply to {method}: {e}"));
            if v["id"] == json!(id) {
                if let Some(err) = v.get("error") {
                    panic!("{method} failed: {err}");
                }
                return v["result"].clone();
            }
            self.events.push(v);
        }
    }

    /// Wait until an event named `method` arrives for `session`.
    pub fn wait_for(&mut self, session: &str, method: &str) -> Value {
        if let Some(e) = self
            .events
            .iter()
            .find(|e| e["method"] == method && e["sessionId"] == session)
        {
            return e.clone();
        }
        loop {
            let v = self
                .replies
                .recv_timeout(REPLY)
                .unwrap_or_else(|e| panic!("no {method} event: {e}"));
            self.events.push(v.clone());
            if v["method"] == method && v["sessionId"] == session {
                return v;
            }
        }
    }

    /// Open `file` in a new tab and wait until it has loaded.
    pub fn open(&mut self, file: &Path, fragment: &str) -> Page<'_> {
        let target = self.call(None, "Target.createTarget", json!({"url": "about:blank"}));
        let target = target["targetId"].as_str().unwrap().to_string();
        let s = self.call(
            None,
            "Target.attachToTarget",
            json!({"targetId": target, "flatten": true}),
        );
        let session = s["sessionId"].as_str().unwrap().to_string();
        for domain in [
            "Page.enable",
            "Runtime.enable",
            "Log.enable",
            "Network.enable",
        ] {
            self.call(Some(&session), domain, json!({}));
        }
        let url = format!(
            "file://{}{fragment}",
            file.canonicalize().unwrap().display()
        );
        self.call(Some(&session), "Page.navigate", json!({"url": url}));
        self.wait_for(&session, "Page.loadEventFired");
        Page {
            browser: self,
            session,
            url,
        }
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One open tab.
pub struct Page<'b> {
    browser: &'b mut Browser,
    session: String,
    pub url: String,
}

impl Page<'_> {
    fn call(&mut self, method: &str, params: Value) -> Value {
        let s = self.session.clone();
        self.browser.call(Some(&s), method, params)
    }

    /// Evaluate `expression` in the page; its value.
    pub fn eval(&mut self, expression: &str) -> Value {
        let r = self.call(
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true, "awaitPromise": true}),
        );
        if let Some(e) = r.get("exceptionDetails") {
            panic!("{expression}: {e}");
        }
        r["result"]["value"].clone()
    }

    pub fn count(&mut self, selector: &str) -> u64 {
        self.eval(&format!(
            "document.querySelectorAll({}).length",
            json!(selector)
        ))
        .as_u64()
        .unwrap()
    }

    /// Click the middle of the first element matching `selector` with the
    /// mouse, as a person would.
    pub fn click(&mut self, selector: &str) {
        let at = self.eval(&format!(
            "(() => {{ const e = document.querySelector({}); e.scrollIntoView({{block: 'center'}}); const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()",
            json!(selector)
        ));
        let (x, y) = (at[0].as_f64().unwrap(), at[1].as_f64().unwrap());
        for kind in ["mousePressed", "mouseReleased"] {
            self.call(
                "Input.dispatchMouseEvent",
                json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}),
            );
        }
    }

    /// Type `text` into the focused element.
    pub fn type_text(&mut self, text: &str) {
        self.call("Input.insertText", json!({"text": text}));
    }

    /// Emulate `prefers-color-scheme: dark` (or light).
    pub fn color_scheme(&mut self, scheme: &str) {
        self.call(
            "Emulation.setEmulatedMedia",
            json!({"features": [{"name": "prefers-color-scheme", "value": scheme}]}),
        );
    }

    /// A PNG of the viewport.
    pub fn screenshot(&mut self) -> Vec<u8> {
        let r = self.call("Page.captureScreenshot", json!({"format": "png"}));
        decode_base64(r["data"].as_str().unwrap())
    }

    /// What went wrong in this tab: console errors, uncaught exceptions,
    /// error log entries (a CSP violation is one), dialogs (`alert`), and
    /// requests for anything but a local file.
    pub fn problems(&mut self) -> Vec<String> {
        // a round trip, so every event sent before it has arrived
        self.eval("1");
        let mut out = Vec::new();
        for e in &self.browser.events {
            if e["sessionId"] != self.session.as_str() {
                continue;
            }
            let p = &e["params"];
            match e["method"].as_str().unwrap_or("") {
                "Runtime.consoleAPICalled" if p["type"] == "error" || p["type"] == "assert" => {
                    out.push(format!("console {}: {}", p["type"], p["args"]))
                }
                "Runtime.exceptionThrown" => {
                    out.push(format!("exception: {}", p["exceptionDetails"]))
                }
                "Log.entryAdded" if p["entry"]["level"] == "error" => {
                    out.push(format!("log: {}", p["entry"]["text"]))
                }
                "Page.javascriptDialogOpening" => out.push(format!("dialog: {}", p["message"])),
                "Network.requestWillBeSent" => {
                    let url = p["request"]["url"].as_str().unwrap_or("");
                    if !url.starts_with("file://") {
                        out.push(format!("request: {url}"));
                    }
                }
                _ => {}
            }
        }
        out
    }
}

fn decode_base64(s: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let bytes: Vec<u8> = s.bytes().filter(|&c| c != b'=').collect();
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for chunk in bytes.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= u32::from(val(c)) << (18 - 6 * i);
        }
        for i in 0..chunk.len() - 1 {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    out
}
