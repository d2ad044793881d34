//! Tier 3: behavioral evals.

pub mod cmd;
pub mod exec;
pub mod grader;
pub mod plan;
pub mod process;
pub mod progress;
pub mod redact;
pub mod results;
pub mod runner;
pub mod stream;
pub mod workspace;
