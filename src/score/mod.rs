//! The scorer: trigger metrics, paired uplift, gates.

pub mod cmd;
