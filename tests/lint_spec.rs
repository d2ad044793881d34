//! Agent Skills specification rules (SG1xx), driven through the binary on
//! the fixture catalogs under tests/fixtures/lint/.

mod common;

use common::{check_case, check_json, fixture};

#[test]
fn missing_name_is_an_error_at_the_frontmatter() {
    let r = check_case("name-required");
    assert_eq!(r.code, 1);
    let f = r.one("SG101", "no-name/");
    assert_eq!(f.line, Some(1));
    assert!(f.message.contains("no `name`"), "{}", f.message);
}

#[test]
fn non_string_name_names_its_yaml_type() {
    let r = check_case("name-required");
    let f = r.one("SG101", "bool-name/");
    assert_eq!(f.line, Some(2));
    assert!(f.message.contains("boolean"), "{}", f.message);
    let f = r.one("SG101", "number-name/");
    assert!(f.message.contains("number"), "{}", f.message);
    assert!(r.in_file("SG103", "bool-name/").is_empty());
}

#[test]
fn empty_name_is_an_error() {
    let r = check_case("name-required");
    let f = r.one("SG101", "empty-name/");
    assert_eq!(f.line, Some(2));
    assert!(f.message.contains("empty"));
}

#[test]
fn uppercase_name_points_at_the_first_uppercase_letter() {
    let r = check_case("name-format");
    assert_eq!(r.code, 1);
    let f = r.one("SG102", "Upper-Case/");
    assert_eq!((f.line, f.column), (Some(2), Some(7)));
    assert!(f.message.contains("lowercase"));
}

#[test]
fn underscore_in_name_points_at_the_underscore() {
    let r = check_case("name-format");
    let f = r.one("SG102", "snake_case/");
    assert_eq!((f.line, f.column), (Some(2), Some(12)));
    assert!(f.message.contains("`_`"), "{}", f.message);
}

#[test]
fn double_and_leading_hyphens_are_errors() {
    let r = check_case("name-format");
    let f = r.one("SG102", "double--hyphen/");
    assert_eq!((f.line, f.column), (Some(2), Some(13)));
    let f = r.one("SG102", "-leading/");
    assert_eq!((f.line, f.column), (Some(2), Some(8)));
    assert!(f.message.contains("starts or ends with a hyphen"));
}

#[test]
fn name_longer_than_64_characters_says_its_length() {
    let r = check_case("name-format");
    let f = r.one("SG102", "aaaaaaaa");
    assert!(f.message.contains("65 characters"), "{}", f.message);
    assert!(f.message.contains("64"));
}

#[test]
fn unicode_lowercase_names_are_valid() {
    let r = check_case("name-format");
    assert!(r.rules_in("données-2/").is_empty(), "{:?}", r.findings);
    assert!(r.rules_in("技能/").is_empty(), "{:?}", r.findings);
}

#[test]
fn name_differing_from_its_folder_is_an_error() {
    let r = check_case("name-folder-mismatch");
    assert_eq!(r.code, 1);
    let f = r.one("SG103", "pdf-forms/");
    assert_eq!(f.line, Some(2));
    assert!(f.message.contains("`pdf-filler`") && f.message.contains("`pdf-forms`"));
}

#[test]
fn names_equal_after_nfkc_match_their_folder() {
    let r = check_case("name-folder-mismatch");
    assert_eq!(r.of("SG103").len(), 1, "{:#?}", r.findings);
}

#[test]
fn missing_description_is_an_error() {
    let r = check_case("description-required");
    assert_eq!(r.code, 1);
    let f = r.one("SG104", "missing/");
    assert_eq!(f.line, Some(1));
}

#[test]
fn description_starting_with_a_hash_is_explained_as_a_comment() {
    let r = check_case("description-required");
    let f = r.one("SG104", "comment/");
    assert_eq!((f.line, f.column), (Some(3), Some(14)));
    assert!(f.message.contains("starts a YAML comment"), "{}", f.message);
    assert!(f.help.as_deref().unwrap().contains("\"# Fill PDF forms\""));
}

#[test]
fn non_string_or_empty_description_is_an_error() {
    let r = check_case("description-required");
    assert!(r.one("SG104", "sequence/").message.contains("sequence"));
    assert!(r.one("SG104", "number/").message.contains("number"));
    assert!(r.one("SG104", "empty-string/").message.contains("empty"));
}

#[test]
fn description_over_1024_characters_says_count_and_limit() {
    let r = check_case("description-too-long");
    assert_eq!(r.code, 1);
    let f = r.one("SG105", "too-long/");
    assert_eq!(f.line, Some(3));
    assert!(f.message.contains("1025 characters") && f.message.contains("1024"));
}

#[test]
fn description_length_counts_characters_not_bytes() {
    let r = check_case("description-too-long");
    assert!(r.in_file("SG105", "at-limit-multibyte/").is_empty());
}

#[test]
fn folded_description_is_measured_after_folding() {
    let r = check_case("description-too-long");
    let f = r.one("SG105", "folded/");
    assert!(f.message.contains("1108 characters"), "{}", f.message);
    assert_eq!(f.line, Some(4));
}

#[test]
fn compatibility_must_be_1_to_500_characters_of_text() {
    let r = check_case("compatibility-invalid");
    assert_eq!(r.code, 1);
    let f = r.one("SG106", "too-long/");
    assert_eq!(f.line, Some(4));
    assert!(f.message.contains("501 characters"));
    assert!(r.one("SG106", "empty/").message.contains("empty"));
    assert!(r.one("SG106", "number/").message.contains("number"));
    assert!(r.in_file("SG106", "fine/").is_empty());
}

#[test]
fn metadata_values_must_be_strings() {
    let r = check_case("metadata-invalid");
    assert_eq!(r.code, 1);
    let f = r.one("SG107", "number-value/");
    assert_eq!((f.line, f.column), (Some(6), Some(3)));
    assert!(
        f.message
            .contains("`metadata.version` is a number (`1.10`)"),
        "{}",
        f.message
    );
    let nested = r.one("SG107", "nested/");
    assert!(nested.message.contains("mapping"));
    // the reference validator accepts a nested mapping: a warning
    assert_eq!(nested.severity, "warning");
    assert!(
        r.one("SG107", "not-a-map/")
            .message
            .contains("not a mapping")
    );
    assert!(r.in_file("SG107", "fine/").is_empty());
}

#[test]
fn allowed_tools_mapping_is_an_error() {
    let r = check_case("allowed-tools-invalid");
    assert_eq!(r.code, 1);
    let f = r.one("SG108", "mapping/");
    assert_eq!((f.line, f.severity.as_str()), (Some(4), "error"));
}

#[test]
fn allowed_tools_list_is_only_a_warning() {
    let r = check_case("allowed-tools-list");
    assert_eq!(r.code, 0);
    let f = r.one("SG108", "list/");
    assert_eq!((f.line, f.severity.as_str()), (Some(4), "warning"));
    assert!(
        f.help
            .as_deref()
            .unwrap()
            .contains("allowed-tools: Read Grep")
    );
}

#[test]
fn unknown_key_close_to_a_known_one_suggests_it() {
    let r = check_case("unknown-key");
    assert_eq!(r.code, 1);
    let f = r.one("SG109", "typo/");
    assert_eq!((f.line, f.column), (Some(4), Some(1)));
    assert!(
        f.message.contains("did you mean `license`?"),
        "{}",
        f.message
    );
    let f = r.one("SG109", "underscore/");
    assert!(
        f.message.contains("did you mean `allowed-tools`?"),
        "{}",
        f.message
    );
}

#[test]
fn unknown_key_without_a_near_match_points_to_metadata() {
    let r = check_case("unknown-key");
    let f = r.one("SG109", "custom/");
    assert!(!f.message.contains("did you mean"));
    assert!(f.help.as_deref().unwrap().contains("metadata"));
}

#[test]
fn client_extension_key_is_a_warning() {
    let r = check_case("client-key");
    assert_eq!(r.code, 0);
    let f = r.one("SG110", "claude-only/");
    assert_eq!((f.line, f.severity.as_str()), (Some(4), "warning"));
}

#[test]
fn allowed_keys_in_config_are_silent() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("skillsift.toml");
    std::fs::write(&cfg, "[lint]\nallowed-keys = [\"user-invocable\"]\n").unwrap();
    let r = check_json(&fixture("client-key"), &["--config", cfg.to_str().unwrap()]);
    assert_eq!(r.code, 0);
    assert!(r.findings.is_empty(), "{:#?}", r.findings);
}

#[test]
fn client_key_removed_from_config_becomes_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("skillsift.toml");
    std::fs::write(&cfg, "[lint]\nclient-keys = []\n").unwrap();
    let r = check_json(&fixture("client-key"), &["--config", cfg.to_str().unwrap()]);
    assert_eq!(r.code, 1);
    r.one("SG109", "claude-only/");
}

#[test]
fn rule_levels_in_config_change_severity_and_exit_code() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("skillsift.toml");
    std::fs::write(&cfg, "[lint.rules]\nclient-key = \"error\"\n").unwrap();
    let r = check_json(&fixture("client-key"), &["--config", cfg.to_str().unwrap()]);
    assert_eq!(r.code, 1);
    assert_eq!(r.one("SG110", "claude-only/").severity, "error");
}

#[test]
fn every_unquoted_colon_is_reported_once_at_its_column() {
    let r = check_case("unquoted-colon");
    assert_eq!(r.code, 1);
    // the parser stops at the first one (SG013), at the colon
    let f = r.one("SG013", "colons/");
    assert_eq!((f.line, f.column), (Some(3), Some(33)));
    // the scan finds the next one; the first is not reported twice
    let f = r.one("SG111", "colons/");
    assert_eq!((f.line, f.column), (Some(4), Some(21)));
    assert!(f.help.as_deref().unwrap().contains("compatibility: >-"));
}

#[test]
fn tab_indentation_is_an_error_even_where_yaml_rust2_accepts_it() {
    let r = check_case("tab-indentation");
    assert_eq!(r.code, 1);
    assert!(r.of("SG013").is_empty(), "yaml-rust2 accepts this file");
    let lines: Vec<_> = r.of("SG112").iter().map(|f| (f.line, f.column)).collect();
    assert_eq!(lines, vec![(Some(4), Some(1)), (Some(6), Some(1))]);
}

#[test]
fn quote_running_past_a_dashes_line_is_unterminated_for_other_clients() {
    let r = check_case("unterminated-quote");
    assert_eq!(r.code, 1);
    assert!(r.in_file("SG013", "marker/").is_empty());
    let f = r.one("SG113", "marker/");
    assert_eq!((f.line, f.column), (Some(3), Some(14)));
    assert!(f.message.contains("`---`"), "{}", f.message);
}

#[test]
fn every_unterminated_quote_is_reported() {
    let r = check_case("unterminated-quote");
    let f = r.one("SG113", "two-quotes/");
    assert_eq!((f.line, f.column), (Some(4), Some(10)));
    assert_eq!(r.in_file("SG013", "two-quotes/").len(), 1);
}

#[test]
fn folder_with_files_but_no_skill_is_a_warning() {
    let r = check_case("orphan-folder");
    assert_eq!(r.code, 0);
    let f = r.one("SG114", "skills/orphan");
    assert_eq!(f.file, "skills/orphan");
    assert_eq!(f.line, None);
    assert_eq!(r.summary["skills_checked"], 1);
}

#[test]
fn rule_command_prints_each_rules_documentation() {
    for id in [
        "SG101", "SG102", "SG103", "SG104", "SG105", "SG106", "SG107", "SG108", "SG109", "SG110",
        "SG111", "SG112", "SG113", "SG114", "SG201", "SG202", "SG203", "SG204", "SG205", "SG206",
        "SG207", "SG208", "SG209",
    ] {
        let out = common::skillsift().args(["rule", id]).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{id}");
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.starts_with(&format!("# {id} ")), "{text}");
        assert!(text.contains("## What it does"), "{id}: {text}");
    }
}
