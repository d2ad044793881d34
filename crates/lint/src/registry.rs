//! Every rule of every tier, and the order Tier 1 runs them in.

use super::Rule;
use super::rules::context::{Ctx, Env, SkillCtx};
use super::rules::{
    budget, bundled_links, cases, client, commands, comment_cut, description, fields, files, keys,
    load, mixed_script, name, not_text, orphan, plugin, portability, references, sections,
    security, skill_md_folder, sub_document, template, trigger, unclosed_fence, unmentioned,
    workflow,
};
use crate::catalog::{Catalog, Skill};
use crate::config::Config;
use crate::diag::Diagnostic;
use crate::route::rules as route;
use rayon::prelude::*;

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
    &load::SYMLINK_AS_FILE,
    &not_text::NOT_TEXT,
    &skill_md_folder::SKILL_MD_FOLDER,
    &super::rules::suppression::UNUSED_SUPPRESSION,
    &super::rules::suppression::INVALID_SUPPRESSION,
    &plugin::PLUGIN_MANIFEST,
    &sub_document::SUB_DOCUMENT,
    &plugin::PLUGIN_LOADS_NOTHING,
    &name::NAME_REQUIRED,
    &name::NAME_FORMAT,
    &name::NAME_FOLDER_MISMATCH,
    &description::DESCRIPTION_REQUIRED,
    &description::DESCRIPTION_TOO_LONG,
    &fields::COMPATIBILITY_INVALID,
    &fields::METADATA_INVALID,
    &fields::ALLOWED_TOOLS_INVALID,
    &keys::UNKNOWN_KEY,
    &keys::CLIENT_KEY,
    &portability::UNQUOTED_COLON,
    &portability::TAB_INDENTATION,
    &portability::UNTERMINATED_QUOTE,
    &orphan::ORPHAN_FOLDER,
    &comment_cut::COMMENT_CUT,
    &mixed_script::MIXED_SCRIPT,
    &trigger::MISSING_TRIGGER,
    &sections::MISSING_SECTION,
    &sections::SELF_EXEMPTION,
    &sections::STALE_EXEMPTION,
    &budget::LINE_BUDGET,
    &references::DEAD_REFERENCE,
    &files::FILE_NAME,
    &files::EMPTY_FOLDER,
    &workflow::WORKFLOW_STEPS,
    &bundled_links::MISSING_FILE,
    &unmentioned::UNMENTIONED,
    &unclosed_fence::UNCLOSED_FENCE,
    &template::TEMPLATE,
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
    &cases::waza_shape::YAML_SYNTAX,
    &cases::trigger_set_shape::TRIGGER_SET_SHAPE,
    &cases::evals_json_shape::EVALS_JSON_SHAPE,
    &cases::waza_shape::WAZA_SHAPE,
    &cases::source_skill::SOURCE_SKILL,
    &cases::two_places::TWO_PLACES,
    &cases::drafts::DRAFTS,
    &cases::expectations::SHAPE,
    &cases::expectations::PREFIX,
    &cases::expectations::UNKNOWN_CHECK,
    &cases::expectations::ARGUMENTS,
    &cases::expectations::PATH_ESCAPE,
    &cases::expectations::REGEX,
    &cases::repo_level::UNKNOWN_SKILL_FILE,
    &cases::shaped::NOT_READ,
    &cases::shaped::UNKNOWN_SKILL,
    &route::POSITIVE_MISSED,
    &route::POSITIVE_NO_VOCABULARY,
    &route::NEGATIVE_FIRST,
    &route::OWNER_NOT_AHEAD,
    &route::RANK1_FLOOR,
    &route::BASELINE_REGRESSION,
    &route::UNROUTABLE_CASES,
    &route::BUILTIN_WINS,
    &route::NO_CAPTURE,
    &route::COLLISION,
    &route::OVERLAP,
    &route::COMMAND_WINS,
    &route::OWNER_ELSEWHERE,
    &route::LISTING_BUDGET,
    &route::ENTRY_CAP,
    &client::ends_early::ENDS_EARLY,
    &client::dropped::DROPPED,
    &client::from_body::FROM_BODY,
    &client::surrogate::SURROGATE_SPLIT,
    &client::hidden::HIDDEN,
    &client::too_deep::TOO_DEEP,
    &client::alias::ALIAS_COLLISION,
    &client::retry::RETRY_CHANGED,
    &client::not_string::NOT_A_STRING,
    &client::not_listed::NOT_LISTED,
    &client::context::CONTEXT_NOT_FORK,
    &client::agent_unused::AGENT_WITHOUT_FORK,
    &client::unknown_agent::UNKNOWN_AGENT,
    &client::hook_event::UNKNOWN_HOOK_EVENT,
    &client::model::UNUSABLE_MODEL,
    &client::unknown_tool::UNKNOWN_TOOL,
    &client::never_invocable::NEVER_INVOCABLE,
    &client::unscoped_shell::UNSCOPED_SHELL,
    &security::control::CONTROL_CHARACTER,
    &security::invisible::INVISIBLE_UNICODE,
    &security::comment::HIDDEN_COMMENT,
    &security::encoded::ENCODED_PAYLOAD,
    &security::secrets::SECRET,
    &security::download::DOWNLOAD_EXECUTE,
    &security::unprompted::RUNS_WITHOUT_ASKING,
    &security::escape_sequence::ESCAPE_SEQUENCE,
];

/// Look a rule up by id (case-insensitive) or by name.
pub fn find(id_or_name: &str) -> Option<&'static Rule> {
    // an id as the rules spell it (every finding's): a search of the
    // sorted list, not a walk of it
    if let Ok(i) = RULES.binary_search_by(|r| r.id.cmp(id_or_name)) {
        return Some(RULES[i]);
    }
    RULES
        .iter()
        .copied()
        .find(|r| r.id.eq_ignore_ascii_case(id_or_name) || r.name == id_or_name)
}

/// A check of one skill.
type SkillCheck = fn(&SkillCtx, &mut Vec<Diagnostic>);

/// The per-skill checks, in the order they run on each skill.
const SKILL_CHECKS: &[SkillCheck] = &[
    name::check,
    mixed_script::check,
    description::check,
    fields::check,
    keys::check,
    portability::check,
    comment_cut::check,
    trigger::check,
    sections::check,
    budget::check,
    files::check,
    workflow::check,
    security::check,
    bundled_links::check,
    unmentioned::check,
    unclosed_fence::check,
];

/// A check of the catalog as a whole.
type CatalogCheck = fn(&Ctx, &mut Vec<Diagnostic>);

const CATALOG_CHECKS: &[CatalogCheck] = &[orphan::check_catalog, sections::check_catalog];

/// One skill's Tier 1 results: its findings, and what the catalog-wide
/// checks need from it once every skill is loaded.
#[derive(Debug, Default)]
pub struct SkillLint {
    pub diagnostics: Vec<Diagnostic>,
    /// References to other skills, resolved by [`finish`].
    pub references: Vec<references::Candidate>,
}

/// Run the per-skill checks on one skill. `load` holds the findings made
/// while loading it. Also returns the byte offset up to which the skill's
/// text is needed to show these findings (and the references [`finish`]
/// may report), so a caller may drop the rest.
pub fn lint_skill(env: &Env, skill: &Skill, load: &[Diagnostic]) -> (SkillLint, usize) {
    let mut out = SkillLint::default();
    if skill.source.is_none() {
        return (out, 0);
    }
    let others = super::rules::text::other_texts(skill);
    let Some(s) = SkillCtx::new(env, skill, load, &others) else {
        return (out, 0);
    };
    for check in SKILL_CHECKS {
        check(&s, &mut out.diagnostics);
    }
    out.references = references::collect(&s);
    // the body line Claude Code shows when there is no description
    let mut client_needs = crate::client::claude_code::read(skill).needs;
    // the text the clients' own splits read must survive the cut too:
    // where skillsift finds no frontmatter block, a client may still find
    // one, ending anywhere, so the whole text is kept
    if let Some(src) = &skill.source {
        let start = if src.text.starts_with('\u{feff}') {
            3
        } else {
            0
        };
        // skillsift's frontmatter block, as loading found it (empty: none)
        let block = src.text.get(start..skill.body_start).unwrap_or("");
        if block.is_empty() {
            client_needs = src.text.len();
        } else if block.lines().count() == 2 {
            // `---` right after the opening line: Gemini CLI's and
            // gray-matter's patterns need at least a line break between the
            // two, so they end at the next line starting with `---`
            let mut at = skill.body_start;
            for line in src.text[skill.body_start..].split_inclusive('\n') {
                at += line.len();
                if line.starts_with("---") {
                    client_needs = client_needs.max(at);
                    break;
                }
            }
        }
    }
    let keep = load
        .iter()
        .chain(&out.diagnostics)
        .filter(|d| d.file == skill.file)
        .filter_map(|d| d.span.map(|s| s.end))
        .chain(out.references.iter().map(|r| r.span.end))
        .chain(std::iter::once(client_needs))
        .max()
        .unwrap_or(0);
    (out, keep)
}

/// The catalog-wide part of Tier 1, given every skill's [`SkillLint`] in
/// skill order: their findings, dead references, orphan folders, stale
/// exemptions.
pub fn finish(catalog: &Catalog, config: &Config, per_skill: Vec<SkillLint>) -> Vec<Diagnostic> {
    let ctx = Ctx::new(catalog, config);
    let per_skill: Vec<Vec<Diagnostic>> = catalog
        .skills
        .par_iter()
        .zip(per_skill)
        .map(|(skill, lint)| {
            let mut out = lint.diagnostics;
            unmentioned::finish(catalog, skill, &mut out);
            references::check_catalog(&ctx, skill, &lint.references, &mut out);
            out
        })
        .collect();
    let mut out: Vec<Diagnostic> = per_skill.into_iter().flatten().collect();
    for check in CATALOG_CHECKS {
        check(&ctx, &mut out);
    }
    commands::run(catalog, config, &mut out);
    cases::run(catalog, config, &mut out);
    client::run(catalog, config, &mut out);
    out
}

/// Run the Tier 1 checks over a loaded catalog: every per-skill check on
/// every skill in parallel (rayon), then the catalog-wide checks. The
/// result is in skill order, each skill's findings in check order, so it
/// is the same on every run and thread count.
pub fn run_lint(catalog: &Catalog, config: &Config) -> Vec<Diagnostic> {
    let env = Env::new(config);
    let per_skill: Vec<SkillLint> = catalog
        .skills
        .par_iter()
        .map(|skill| {
            let load: Vec<Diagnostic> = catalog
                .diagnostics
                .iter()
                .filter(|d| d.file == skill.file && d.span.is_some())
                .cloned()
                .collect();
            lint_skill(&env, skill, &load).0
        })
        .collect();
    finish(catalog, config, per_skill)
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
