//! Entry points for the fuzz targets in `fuzz/` and for their regression
//! tests (`tests/fuzz_regressions.rs`), which feed every saved crash input
//! to the same function so CI replays what the fuzzer once found.
//!
//! Each entry point takes arbitrary bytes, runs one reader of untrusted
//! input over them, and checks the reader's promises: it returns (never
//! panics, never hangs), every span it reports lies inside the text on
//! character boundaries, and the same input gives the same result twice.
//! A broken promise panics, which is what the fuzzer and the tests detect.

use crate::catalog::source::SourceMap;
use crate::catalog::{frontmatter, skill, yaml};
use crate::diag::{Diagnostic, Span};
use crate::report::{self, Outcome, Summary};

/// Panic unless `span` lies inside `text` on character boundaries with
/// consistent 1-based positions.
pub fn assert_span(text: &str, span: &Span, what: &str) {
    assert!(
        span.start <= span.end && span.end <= text.len(),
        "{what}: span {}..{} outside text of {} bytes",
        span.start,
        span.end,
        text.len()
    );
    assert!(
        span.line >= 1 && span.col >= 1 && span.end_line >= span.line,
        "{what}: bad line/column in {span:?}"
    );
}

fn assert_node(text: &str, node: &yaml::Node) {
    assert!(
        node.start <= node.end && node.end <= text.len(),
        "yaml node {}..{} outside text of {} bytes",
        node.start,
        node.end,
        text.len()
    );
    match &node.kind {
        yaml::Kind::Scalar { .. } => {}
        yaml::Kind::Seq(items) => items.iter().for_each(|n| assert_node(text, n)),
        yaml::Kind::Map(entries) => entries.iter().for_each(|(k, v)| {
            assert_node(text, k);
            assert_node(text, v);
        }),
    }
}

/// Render `diags` against `text` in every output format (human through
/// miette, JSON, SARIF, GitHub); a reporter that panics on an odd span is
/// a bug the fuzzer should see.
pub fn render_all(file: &str, text: &str, diags: &[Diagnostic]) {
    let mut sources = SourceMap::new();
    sources.insert(
        file.to_string(),
        crate::catalog::Source::new(text.to_string()),
    );
    let mut summary = Summary::default();
    summary.count(diags);
    let outcome = Outcome {
        diagnostics: diags,
        summary: &summary,
        sources: &sources,
        path_prefix: "",
    };
    for format in [
        crate::cli::Format::Human,
        crate::cli::Format::Json,
        crate::cli::Format::Sarif,
        crate::cli::Format::Github,
    ] {
        let mut out = Vec::new();
        report::render(format, &outcome, &mut out).expect("rendering into memory cannot fail");
        assert!(
            std::str::from_utf8(&out).is_ok(),
            "{format:?} output is not UTF-8"
        );
    }
}

/// One SKILL.md read from raw bytes: decoded (BOM, invalid UTF-8, NUL, line
/// ends), split into frontmatter and body, the YAML parsed into a spanned,
/// bounded tree; then every span checked and every diagnostic rendered.
/// The YAML parser and the splitter are also run on the text directly.
pub fn frontmatter(data: &[u8]) {
    const FILE: &str = "skills/fuzz/SKILL.md";
    let run = || {
        let mut diags = Vec::new();
        let (src, start) = skill::decode(FILE, data.to_vec(), &mut diags);
        let (fm, body) = skill::parse_frontmatter(FILE, &src, start, &mut diags);
        (src, start, fm, body, diags)
    };
    let (src, start, fm, body, diags) = run();
    let text = src.text.as_str();
    assert!(start <= text.len() && text.is_char_boundary(start));
    assert!(
        body <= text.len() && text.is_char_boundary(body),
        "body starts at {body}, not a char boundary of a {}-byte text",
        text.len()
    );
    for d in &diags {
        if let Some(s) = &d.span {
            assert_span(text, s, d.rule);
        }
    }
    if let Some(fm) = &fm {
        assert!(fm.yaml.start <= fm.yaml.end && fm.yaml.end <= text.len());
        for e in &fm.entries {
            assert_span(text, &e.key_span, "key span");
            assert_span(text, &e.value_span, "value span");
            assert_node(text, &e.value);
        }
    }
    // Same input, same answer.
    let (_, _, fm2, body2, diags2) = run();
    assert_eq!(body, body2);
    assert_eq!(diags, diags2);
    assert_eq!(fm.map(|f| f.entries.len()), fm2.map(|f| f.entries.len()));
    render_all(FILE, text, &diags);

    if let Ok(t) = std::str::from_utf8(data) {
        if let Ok(tree) = yaml::parse(t) {
            if let Some(root) = &tree.root {
                assert_node(t, root);
            }
            for d in &tree.duplicates {
                assert!(d.first <= t.len() && d.second <= t.len());
            }
        }
        if let Ok((split, _)) = frontmatter::split(t, 0) {
            assert!(split.open <= split.yaml.start);
            assert!(split.yaml.end <= split.close.start && split.close.end <= split.body);
            assert!(split.body <= t.len() && t.is_char_boundary(split.body));
        }
    }
}
