//! Every rule of every tier, and the order Tier 1 runs them in.

use super::Rule;
use super::rules::{cases, commands, load};
use crate::catalog::Catalog;
use crate::config::Config;
use crate::diag::Diagnostic;

/// All rules, sorted by id.
pub static RULES: &[&Rule] = &[
    &load::FILE_TOO_LARGE,
    &load::UNREADABLE,
    &load::INVALID_UTF8,
    &load::NUL_BYTE,
    &load::BOM,
    &load::LINE_ENDINGS,
    &load::MISSING_FRONTMATTER,
    &load::FRONTMATTER_NOT_AT_START,
    &load::UNCLOSED_FRONTMATTER,
    &load::YAML_SYNTAX,
    &load::YAML_LIMIT,
    &load::DUPLICATE_KEY,
    &load::NOT_A_MAPPING,
    &commands::toml_syntax::TOML_SYNTAX,
    &commands::description::DESCRIPTION,
    &commands::missing::MISSING,
    &commands::description_mismatch::DESCRIPTION_MISMATCH,
    &commands::builtin::BUILTIN,
    &commands::prompt::PROMPT,
    &commands::name_map::NAME_MAP,
    &cases::load::UNREADABLE,
    &cases::load::JSON_SYNTAX,
    &cases::duplicate_key::DUPLICATE_KEY,
    &cases::shape::SHAPE,
    &cases::skill_name::SKILL_NAME,
    &cases::unknown_skill::UNKNOWN_SKILL,
    &cases::missing_case_file::MISSING_CASE_FILE,
    &cases::minimums::MINIMUMS,
    &cases::eval_shape::EVAL_SHAPE,
    &cases::duplicate_eval_id::DUPLICATE_EVAL_ID,
    &cases::eval_kind::EVAL_KIND,
    &cases::fixtures::FIXTURES,
    &cases::fixture_escape::FIXTURE_ESCAPE,
    &cases::provisional::PROVISIONAL_EXECUTION,
    &cases::unknown_key::UNKNOWN_KEY,
    &cases::negative_owner::NEGATIVE_OWNER,
    &cases::duplicate_prompt::DUPLICATE_PROMPT,
];

/// Look a rule up by id (case-insensitive) or by name.
pub fn find(id_or_name: &str) -> Option<&'static Rule> {
    RULES
        .iter()
        .copied()
        .find(|r| r.id.eq_ignore_ascii_case(id_or_name) || r.name == id_or_name)
}

/// Run the Tier 1 checks over a loaded catalog.
pub fn run_lint(catalog: &Catalog, config: &Config) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    commands::run(catalog, config, &mut out);
    cases::run(catalog, config, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_names_are_unique_and_sorted() {
        for w in RULES.windows(2) {
            assert!(w[0].id < w[1].id, "{} before {}", w[0].id, w[1].id);
        }
        let mut names: Vec<_> = RULES.iter().map(|r| r.name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), RULES.len());
    }

    #[test]
    fn every_rule_has_a_doc() {
        for r in RULES {
            assert!(r.doc.contains("## What it does"), "{} lacks docs", r.id);
        }
    }
}
