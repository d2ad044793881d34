//! Tier 3: behavioral evals through a headless agent, graded, paired with a
//! baseline, sharded.
//!
//! The pipeline, one module per step:
//! [`build`] (catalog + flags → plan) → [`workspace`] (a fresh git
//! repository per run, the skill installed in `with` runs, a fresh run home
//! for the client's configuration) → [`process`] (the agent or [`runner`],
//! time- and size-limited, in its own process group) → [`agent`] (the
//! client's stream read into the common trace) → [`grader`] (a second model
//! call judging the fenced, untrusted trace) → [`results`] (the iteration
//! folder, the scorer's inputs) → `crate::score` (the verdict). [`cmd`]
//! drives it and `skillsift merge`; [`render`] and [`progress`] print.
//!
//! Everything that depends on the agent client (its command line,
//! environment, configuration files, where skills go, how its stream reads)
//! is behind the [`agent::Agent`] interface, one file per client.

// The layers below, by the names the code used for them when it was one
// crate, so that a `crate::catalog::…` path reads the same in every layer.
pub(crate) use crate as behave;
use base::{diag, escape, exit};
#[allow(clippy::single_component_path_imports)]
use {base, catalog, client, config, lint, score};

pub mod agent;
pub mod args;
pub mod baseline;
pub mod budget;
pub mod build;
pub mod canary;
pub mod checks;
pub mod decide;
pub mod exec;
pub mod grader;
pub mod iteration;
pub mod plan;
/// Child processes live in the layer `listing --capture` shares.
pub use process;
pub mod progress;
pub mod redact;
pub mod render;
pub mod results;
pub mod routing;
pub mod runner;
pub mod workspace;

pub use args::BehaveArgs;
