//! The rules the loader raises itself, while it reads a file and splits and
//! parses its frontmatter ([`load`], [`toml_syntax`]) or a case file
//! ([`cases`]), or leaves a skill template out ([`template`]); the lint registry lists them beside every other rule.

pub mod load;
pub mod not_text;
pub mod plugin;
pub mod repo_level;
pub mod skill_md_folder;
pub mod sub_document;
pub mod template;
pub mod toml_syntax;

pub use ::cases::rules::{cases, did_you_mean, edit_distance, shaped};
