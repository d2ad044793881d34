//! One file per rule or small family of rules. Load-time rules (`SG0xx`)
//! are raised while the catalog is read; the others run over the loaded
//! catalog: spec rules `SG1xx`, catalog conventions `SG2xx`, slash-command
//! parity `SG3xx` (in `commands/`), case files `SG4xx` (in `cases/`).

pub mod cases;
pub mod client;
pub mod commands;
pub mod context;
/// The load-time rules live with the loader that raises them.
pub use crate::catalog::rules::{load, not_text, plugin, skill_md_folder, sub_document};
pub mod markdown;
pub mod suppression;
pub mod text;
pub mod yaml_lines;

// SG1xx: the Agent Skills specification.
pub mod comment_cut;
pub mod description;
pub mod fields;
pub mod fixes;
pub mod keys;
pub mod mixed_script;
pub mod name;
pub mod orphan;
pub mod portability;

// SG2xx: catalog conventions.
pub mod budget;
pub mod bundled_links;
pub mod files;
pub mod references;
pub mod sections;
/// SG213 is raised by the loader, which leaves templates out of the catalog.
pub use crate::catalog::rules::template;
pub mod trigger;
pub mod unclosed_fence;
pub mod unmentioned;
pub mod workflow;

// SG700–SG749: hostile skills (what hides from a reviewer).
pub mod security;

#[cfg(test)]
mod robustness {
    //! Arbitrary text never panics any scanner, and every offset a scanner
    //! reports is a character boundary of the text.
    use proptest::prelude::*;

    /// Text built from pieces that matter to the scanners.
    fn texty() -> impl Strategy<Value = String> {
        let piece = prop_oneof![
            Just("\n".to_string()),
            Just("\r\n".to_string()),
            Just("\r".to_string()),
            Just("\t".to_string()),
            Just("  ".to_string()),
            Just(": ".to_string()),
            Just("\"".to_string()),
            Just("'".to_string()),
            Just("```".to_string()),
            Just("~~~".to_string()),
            Just("## ".to_string()),
            Just("- ".to_string()),
            Just("|".to_string()),
            Just(">-".to_string()),
            Just("[".to_string()),
            Just("]".to_string()),
            Just("{".to_string()),
            Just("#".to_string()),
            Just("`x-y` skill".to_string()),
            Just("](../a/SKILL.md)".to_string()),
            Just("Step 1".to_string()),
            Just("1. ".to_string()),
            Just("é".to_string()),
            Just("技".to_string()),
            Just("\u{2019}".to_string()),
            "[a-z ]{0,8}",
        ];
        proptest::collection::vec(piece, 0..40).prop_map(|v| v.concat())
    }

    proptest! {
        #[test]
        fn yaml_line_scan_never_panics(t in texty()) {
            for issue in super::yaml_lines::scan(&t, 0, t.len()) {
                let at = match issue {
                    super::yaml_lines::Issue::Colon { at, .. }
                    | super::yaml_lines::Issue::Tab { at }
                    | super::yaml_lines::Issue::Quote { at, .. } => at,
                };
                prop_assert!(t.is_char_boundary(at) && at < t.len());
            }
        }

        #[test]
        fn markdown_body_never_panics(t in texty()) {
            let b = super::markdown::Body::parse(&t, 0);
            for h in &b.headings {
                prop_assert!(t.is_char_boundary(h.text_start));
            }
            for i in 0..b.len() {
                let l = b.line(i).unwrap();
                prop_assert!(t[l.start..].starts_with(l.text));
            }
            let _ = b.sections();
        }

        #[test]
        fn lines_holding_finds_the_lines_a_search_of_each_finds(
            t in "(\n|\r\n|!|`|a|-|#| |é){0,80}",
            start in 0usize..40,
            needle in prop::sample::select(vec!["!`", "`", "a!", "-- "]),
        ) {
            let start = super::markdown::split_lines(&t, 0)
                .map(|(s, _)| s)
                .find(|&s| s >= start)
                .unwrap_or(t.len());
            let b = super::markdown::Body::parse(&t, start);
            let each: Vec<usize> = (0..b.len())
                .filter(|&i| b.line(i).unwrap().text.contains(needle))
                .collect();
            prop_assert_eq!(b.lines_holding(needle.as_bytes()), each);
        }

        #[test]
        fn trigger_classification_never_panics(t in texty()) {
            let _ = super::trigger::classify(&t);
            for c in super::trigger::clauses(&format!("Use when {t}. USE FOR: {t}, é{t}")) {
                prop_assert!(!c.trim().is_empty());
            }
        }
    }
}
