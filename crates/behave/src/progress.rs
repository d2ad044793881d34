//! Progress on stderr while runs execute: on a terminal, one line redrawn in
//! place (runs done/total, elapsed time, tokens, cost); elsewhere (CI, a
//! pipe), one plain line per finished run.

use super::results::RunRecord;
use std::io::{IsTerminal, Write};
use std::sync::Mutex;
use std::time::Instant;

pub struct Progress {
    inner: Mutex<State>,
    live: bool,
    start: Instant,
    total: usize,
}

#[derive(Default)]
struct State {
    done: usize,
    tokens: u64,
    cost: f64,
    missing: usize,
}

impl Progress {
    /// `total` runs; a live line only when stderr is a terminal.
    pub fn new(total: usize) -> Progress {
        let err = std::io::stderr();
        let live = err.is_terminal() && std::env::var("TERM").map_or(true, |t| t != "dumb");
        Progress {
            inner: Mutex::new(State::default()),
            live,
            start: Instant::now(),
            total,
        }
    }

    /// Print a message above the progress line.
    pub fn note(&self, msg: &str) {
        let _g = self.inner.lock();
        let mut err = std::io::stderr().lock();
        if self.live {
            let _ = write!(err, "\r\x1b[2K");
        }
        let _ = writeln!(err, "{}", crate::escape::text(msg));
    }

    /// One run finished; `label` names it.
    pub fn finished(&self, label: &str, r: &RunRecord) {
        let mut s = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        s.done += 1;
        s.tokens = s.tokens.saturating_add(r.tokens);
        s.cost += r.cost_usd.unwrap_or(0.0);
        if !r.evidence {
            s.missing += 1;
        }
        let elapsed = elapsed(self.start.elapsed().as_secs());
        let mut err = std::io::stderr().lock();
        let verdict = verdict(r);
        let (label, verdict) = (crate::escape::line(label), crate::escape::line(&verdict));
        if self.live {
            if !r.evidence {
                let _ = writeln!(err, "\r\x1b[2K{label}: {verdict}");
            }
            let _ = write!(
                err,
                "\r\x1b[2K[{}/{}] {elapsed} · {} tokens · ${:.4}{}",
                s.done,
                self.total,
                s.tokens,
                s.cost,
                if s.missing > 0 {
                    format!(" · {} without evidence", s.missing)
                } else {
                    String::new()
                }
            );
            if s.done == self.total {
                let _ = writeln!(err);
            }
        } else {
            let _ = writeln!(
                err,
                "skillsift: run {}/{} {label}: {verdict} ({:.1}s, {} tokens, ${:.4}; total {elapsed}, {} tokens, ${:.4})",
                s.done,
                self.total,
                r.duration_ms as f64 / 1000.0,
                r.tokens,
                r.cost_usd.unwrap_or(0.0),
                s.tokens,
                s.cost
            );
        }
        let _ = err.flush();
    }
}

fn verdict(r: &RunRecord) -> String {
    if !r.evidence {
        return format!(
            "no evidence: {}",
            r.reason.as_deref().unwrap_or("unknown reason")
        );
    }
    let mut loaded = if r.invoked_skills.is_empty() {
        "no skill loaded".to_string()
    } else {
        format!("loaded {}", r.invoked_skills.join(", "))
    };
    if !r.failed_loads.is_empty() {
        loaded.push_str(&format!(
            " (refused Skill call: {})",
            r.failed_loads.join(", ")
        ));
    }
    if let Some(s) = &r.trigger_stop {
        loaded.push_str(&format!(
            "; stopped: {} after {} turn{}",
            s.reason.as_str(),
            s.turns,
            if s.turns == 1 { "" } else { "s" }
        ));
    }
    match &r.grading {
        Some(g) => format!("{}/{} expectations passed, {loaded}", g.passed, g.total),
        None => format!("exit code {}, {loaded}", r.exit_code.unwrap_or(-1)),
    }
}

/// `1h02m03s`, `4m05s`, `7s`.
fn elapsed(secs: u64) -> String {
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    if h > 0 {
        format!("{h}h{m:02}m{s:02}s")
    } else if m > 0 {
        format!("{m}m{s:02}s")
    } else {
        format!("{s}s")
    }
}
