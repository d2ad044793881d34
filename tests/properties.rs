//! Property tests (proptest):
//!
//! - the analyzer gives the same terms for the same text, whatever
//!   analyzer instance reads it, and the terms of two texts joined by a
//!   space are the terms of each, in order;
//! - ranking does not depend on the order in which skills were discovered;
//! - `check --format json` and `--format sarif` are byte-identical between
//!   runs and between `--threads 1` and `--threads 2`, for generated
//!   catalogs with findings of every tier.

use assert_cmd::Command;
use proptest::prelude::*;
use route::index::{DocInput, Index, Query};
use route::rank::Scorer;
use route::text::{Analyzer, LANGUAGES};

/// Text drawn from the characters that make analysis interesting: ASCII
/// words and punctuation, accents (composed and decomposed), ligatures and
/// full-width letters (NFKC), Greek and Turkish case rules, CJK and Hangul
/// (bigrams), apostrophes, underscores, dots, digits.
fn text() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "test",
        "Tests",
        "TESTING",
        "failing",
        "bug",
        "fixes",
        "the",
        "and",
        "API",
        "résumé",
        "re\u{301}sume\u{301}",
        "naïve",
        "ﬁle",
        "ＡＰＩ",
        "ΣΟΦΟΣ",
        "σοφός",
        "İstanbul",
        "ılık",
        "漢字",
        "かな",
        "カタカナ",
        "한국어",
        "snake_case",
        "dotted.name",
        "l'apostrophe",
        "don't",
        "v2",
        "2024",
        "x",
        "ab",
        "über",
        "straße",
        "Ǆemal",
        "a\u{301}",
        "-",
        ",",
        ".",
        "!",
        "?",
        "(",
        ")",
        "/",
        "—",
        "…",
        "\u{200d}",
        "🙂",
    ]);
    let sep = prop::sample::select(vec![" ", "", "\n", "\t", "  "]);
    prop::collection::vec((pieces, sep), 0..12).prop_map(|v| {
        v.into_iter()
            .map(|(p, s)| format!("{p}{s}"))
            .collect::<String>()
    })
}

fn language() -> impl Strategy<Value = &'static str> {
    prop::sample::select(
        LANGUAGES
            .iter()
            .map(|l| l.0)
            .chain(["none"])
            .collect::<Vec<_>>(),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn the_analyzer_gives_the_same_terms_for_the_same_text(t in text(), lang in language()) {
        let a = Analyzer::new(lang, &[]).unwrap();
        let b = Analyzer::new(lang, &[]).unwrap();
        let terms = a.terms(&t);
        prop_assert_eq!(&terms, &a.terms(&t));
        prop_assert_eq!(&terms, &b.terms(&t));
        prop_assert!(terms.iter().all(|t| !t.is_empty()));
    }

    #[test]
    fn terms_of_texts_joined_by_a_space_are_the_terms_of_each(a in text(), b in text()) {
        let an = Analyzer::new("english", &[]).unwrap();
        let mut separate = an.terms(&a);
        separate.extend(an.terms(&b));
        prop_assert_eq!(an.terms(&format!("{a} {b}")), separate);
    }
}

/// Made-up skills: (name, description) from a small vocabulary, so that
/// descriptions share words and ties happen.
fn skills() -> impl Strategy<Value = Vec<(String, String)>> {
    let word = prop::sample::select(vec![
        "test", "bug", "fix", "api", "design", "docs", "deploy", "release", "chart", "pdf", "form",
        "review", "security", "cache", "index", "rank", "prompt", "invoice", "cent",
    ]);
    prop::collection::vec(prop::collection::vec(word, 1..8), 1..14).prop_map(|descs| {
        descs
            .into_iter()
            .enumerate()
            .map(|(i, words)| {
                // duplicate names now and then: ties are broken by file
                (format!("skill-{}", i % 9), words.join(" "))
            })
            .collect()
    })
}

/// The ranking for `prompt`: (file, score bits) in rank order.
fn ranking(
    skills: &[(String, String)],
    files: &[String],
    order: &[usize],
    prompt: &str,
) -> Vec<(String, u64)> {
    let analyzer = Analyzer::new("english", &[]).unwrap();
    let docs: Vec<DocInput> = order
        .iter()
        .map(|&i| DocInput {
            name: &skills[i].0,
            description: &skills[i].1,
            file: &files[i],
        })
        .collect();
    let index = Index::build(&docs, &analyzer, 2);
    let query = Query::new(prompt, &analyzer, &index);
    let mut scorer = Scorer::new(&index);
    let scores = scorer.score(&query);
    scores
        .top(0)
        .into_iter()
        .map(|(d, s)| (index.doc(d).file.clone(), s.to_bits()))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn ranking_does_not_depend_on_discovery_order(
        (skills, order) in skills().prop_flat_map(|s| {
            let n = s.len();
            (Just(s), Just((0..n).collect::<Vec<usize>>()).prop_shuffle())
        }),
        prompt in prop::collection::vec(prop::sample::select(vec!["fix", "the", "bug", "test", "api", "release", "chart", "cents", "reviewing"]), 1..6),
    ) {
        let files: Vec<String> = (0..skills.len()).map(|i| format!("skills/s{i}/SKILL.md")).collect();
        let prompt = prompt.join(" ");
        let identity: Vec<usize> = (0..skills.len()).collect();
        prop_assert_eq!(
            ranking(&skills, &files, &identity, &prompt),
            ranking(&skills, &files, &order, &prompt)
        );
    }
}

/// A generated catalog: skills with findings of several kinds (bad names,
/// missing descriptions, near-duplicate descriptions, YAML errors), one
/// case file with trigger prompts.
fn catalog() -> impl Strategy<Value = Vec<(u8, String)>> {
    let kind = 0u8..6;
    let desc = prop::collection::vec(
        prop::sample::select(vec![
            "fixes", "bugs", "tests", "release", "notes", "charts", "forms",
        ]),
        2..6,
    );
    prop::collection::vec((kind, desc.prop_map(|w| w.join(" "))), 1..10)
}

fn write_catalog(root: &std::path::Path, skills: &[(u8, String)]) {
    for (i, (kind, desc)) in skills.iter().enumerate() {
        let name = format!("skill-{i}");
        let dir = root.join("skills").join(&name);
        std::fs::create_dir_all(&dir).unwrap();
        let text = match kind {
            0 => format!(
                "---\nname: {name}\ndescription: {desc}. Use when the user asks for {desc}.\n---\n# {name}\n"
            ),
            1 => format!("---\nname: Bad_Name_{i}\ndescription: {desc}.\n---\n"),
            2 => format!("---\nname: {name}\n---\nno description\n"),
            3 => format!("---\nname: {name}\ndescription: Use this when: {desc}\n---\n"),
            4 => format!("---\nname: {name}\ndescription: {desc}\nname: again\n---\n"),
            _ => "no frontmatter at all\n".to_string(),
        };
        std::fs::write(dir.join("SKILL.md"), text).unwrap();
    }
    let cases = root.join("evals/cases");
    std::fs::create_dir_all(&cases).unwrap();
    let first = &skills[0].1;
    std::fs::write(
        cases.join("skill-0.json"),
        serde_json::json!({
            "skill_name": "skill-0",
            "trigger": {
                "positive": [{"prompt": first}, {"prompt": format!("please {first}")}, {"prompt": "fix the release notes"}],
                "negative": [{"prompt": "draw charts"}, {"prompt": "tests", "owner": "skill-1"}]
            },
            "evals": [{"id": 1, "kind": "dialogue", "prompt": "talk", "expectations": ["talks"]}]
        })
        .to_string(),
    )
    .unwrap();
}

fn check(root: &std::path::Path, format: &str, threads: &str) -> Vec<u8> {
    let out = Command::cargo_bin("skillsift")
        .unwrap()
        .arg("check")
        .arg(root)
        .args(["--format", format, "--threads", threads])
        .output()
        .unwrap();
    assert!(matches!(out.status.code(), Some(0 | 1)), "{out:?}");
    out.stdout
}

proptest! {
    // each case runs the binary four times
    #![proptest_config(ProptestConfig::with_cases(16))]

    #[test]
    fn json_and_sarif_are_byte_identical_across_runs_and_thread_counts(skills in catalog()) {
        let dir = tempfile::tempdir().unwrap();
        write_catalog(dir.path(), &skills);
        for format in ["json", "sarif"] {
            let one = check(dir.path(), format, "1");
            let two = check(dir.path(), format, "2");
            prop_assert!(one == two, "{} differs between -j1 and -j2", format);
        }
    }
}
