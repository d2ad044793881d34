//! Tier 3: behavioral evals through a headless agent, graded, paired with a
//! baseline, sharded.
//!
//! The pipeline, one module per step:
//! [`build`] (catalog + flags → plan) → [`workspace`] (a fresh folder or git
//! repository per run, the skill installed in `with` runs) → [`process`]
//! (the agent or [`runner`], time- and size-limited, in its own process
//! group) → [`stream`] (what the agent did) → [`grader`] (a second model
//! call judging the fenced, untrusted trace) → [`results`] (the iteration
//! folder, the scorer's inputs) → `crate::score` (the verdict). [`cmd`]
//! drives it and `skillgate merge`; [`render`] and [`progress`] print.

pub mod build;
pub mod cmd;
pub mod exec;
pub mod grader;
pub mod iteration;
pub mod plan;
pub mod process;
pub mod progress;
pub mod redact;
pub mod render;
pub mod results;
pub mod runner;
pub mod stream;
pub mod workspace;
