//! `skillsift schema cases|trigger-set|evals|waza|config`: JSON Schemas for
//! editors.
//!
//! The config schema is derived from the [`crate::config::Config`] types
//! (so it cannot drift from what the parser accepts); the case-source
//! schemas restate the formats `catalog::cases` reads (ARCHITECTURE.md,
//! "Case files"), and a test validates real files of each with them.

use crate::cli::SchemaKind;
use crate::config::Config;

/// The case-file schema.
pub const CASES: &str = include_str!("cases.schema.json");
/// A skill's trigger set (`evals/trigger-queries.json`, `eval_set.json`, …).
pub const TRIGGER_SET: &str = include_str!("trigger-set.schema.json");
/// A skill's `evals/evals.json`.
pub const EVALS: &str = include_str!("evals.schema.json");
/// waza's `trigger_tests.yaml` (for YAML language servers).
pub const WAZA: &str = include_str!("waza.schema.json");

/// The schema for `kind`, pretty-printed.
pub fn schema(kind: SchemaKind) -> String {
    match kind {
        SchemaKind::Cases => CASES.trim_end().to_string(),
        SchemaKind::TriggerSet => TRIGGER_SET.trim_end().to_string(),
        SchemaKind::Evals => EVALS.trim_end().to_string(),
        SchemaKind::Waza => WAZA.trim_end().to_string(),
        SchemaKind::Config => {
            let mut s = schemars::schema_for!(Config);
            s.insert("title".into(), "skillsift.toml".into());
            serde_json::to_string_pretty(&s).unwrap_or_default()
        }
    }
}
