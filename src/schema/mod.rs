//! `skillgate schema cases|config`: JSON Schemas for editors.
//!
//! The config schema is derived from the [`crate::config::Config`] types
//! (so it cannot drift from what the parser accepts); the case-file schema
//! restates the format of ARCHITECTURE.md ("Case files"), and a test
//! validates real case files with it.

use crate::cli::SchemaKind;
use crate::config::Config;

/// The case-file schema.
pub const CASES: &str = include_str!("cases.schema.json");

/// The schema for `kind`, pretty-printed.
pub fn schema(kind: SchemaKind) -> String {
    match kind {
        SchemaKind::Cases => CASES.trim_end().to_string(),
        SchemaKind::Config => {
            let mut s = schemars::schema_for!(Config);
            s.insert("title".into(), "skillgate.toml".into());
            serde_json::to_string_pretty(&s).unwrap_or_default()
        }
    }
}
