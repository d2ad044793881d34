//! Tier 3: behavioral evals.

pub mod cmd;
