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
        checked: Default::default(),
    };
    for format in [
        crate::base::Format::Human,
        crate::base::Format::Json,
        crate::base::Format::Sarif,
        crate::base::Format::Github,
        crate::base::Format::Junit,
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

/// The SKILL.md every fuzzed case file is checked against (its name is the
/// one a fuzzed `skill_name` has to guess, like any real catalog's).
const FUZZ_SKILL: &str = "---\nname: fuzz-skill\ndescription: Write a failing test before fixing a bug. Use when the user reports a bug or asks for tests.\n---\n# Fuzz\n";

/// A catalog rooted at a folder that does not exist, holding one skill
/// (`skills/fuzz-skill`) and `cases`.
fn catalog_with(
    cases: Vec<crate::catalog::cases::CaseFile>,
    case_sources: Vec<crate::catalog::cases::CaseSource>,
) -> crate::catalog::Catalog {
    use crate::catalog::{Catalog, Skill, Target};
    let file = "skills/fuzz-skill/SKILL.md";
    let mut diags = Vec::new();
    let (src, start) = skill::decode(file, FUZZ_SKILL.as_bytes().to_vec(), &mut diags);
    let (fm, body) = skill::parse_frontmatter(file, &src, start, &mut diags);
    assert!(diags.is_empty() && fm.is_some());
    let mut sources = SourceMap::new();
    sources.insert(file.to_string(), src.clone());
    for c in &cases {
        sources.insert(c.file.clone(), c.source.clone());
    }
    for c in &case_sources {
        sources.insert(c.file.clone(), c.source.clone());
    }
    let root = std::path::PathBuf::from("/nonexistent/skillsift-fuzz-root");
    let skills = vec![Skill {
        file: file.into(),
        dir: root.join("skills/fuzz-skill"),
        rel_dir: "skills/fuzz-skill".into(),
        folder: "fuzz-skill".into(),
        source: Some(src),
        frontmatter: fm,
        body_start: body,
        files: Vec::new(),
        empty_dirs: Vec::new(),
        evals_dir: false,
        cut: 0,
        grams: None,
        other_grams: Default::default(),
        listed_as: None,
    }];
    let suites = crate::catalog::cases::merge(&skills, &cases, &case_sources);
    let suite_by_skill = crate::catalog::cases::suite_index(&suites, skills.len());
    Catalog {
        root: root.clone(),
        display_root: root.display().to_string(),
        target: Target::Catalog,
        skills,
        cases,
        case_sources,
        suites,
        suite_by_skill,
        commands: Default::default(),
        claude_commands: Vec::new(),
        orphan_dirs: Vec::new(),
        sources,
        diagnostics: Vec::new(),
        walk: Default::default(),
        roots: vec![crate::catalog::RootRead {
            path: "skills".into(),
            skills: 0,
            skipped: None,
        }],
        units: Vec::new(),
        library: false,
    }
}

/// One case file (`evals/cases/fuzz-skill.json`) from raw bytes: decoded,
/// parsed by the spanned JSON parser, typed; then every Tier 1 case rule
/// (SG4xx) and the Tier 2 trigger checks run over it, every span is checked
/// and every diagnostic rendered. The JSON parser also runs on the text
/// directly.
pub fn case_file(data: &[u8]) {
    use crate::catalog::{cases, json};
    let limit = crate::config::CatalogConfig::default().max_case_bytes;
    let (case, diags) = cases::parse_bytes("fuzz-skill.json", data.to_vec(), limit);
    let (again, diags2) = cases::parse_bytes("fuzz-skill.json", data.to_vec(), limit);
    assert_eq!(diags, diags2);
    assert_eq!(case.positive.len(), again.positive.len());
    assert_eq!(case.evals.len(), again.evals.len());
    let text = case.source.text.clone();
    for t in case.positive.iter().chain(&case.negative) {
        assert_span(&text, &t.prompt.span, "prompt span");
        assert_span(&text, &t.span, "trigger span");
    }
    for e in &case.evals {
        assert_span(&text, &e.span, "eval span");
        assert_span(&text, &e.prompt.span, "eval prompt span");
        for f in &e.files {
            assert_span(&text, &f.span, "fixture span");
        }
    }
    if let Some(tree) = &case.json {
        assert!(tree.root.start <= tree.root.end && tree.root.end <= text.len());
    }

    check_catalog(catalog_with(vec![case], Vec::new()), diags);

    if let Ok(t) = std::str::from_utf8(data)
        && let Ok(tree) = json::parse(t)
    {
        assert!(tree.root.end <= t.len());
        for d in &tree.duplicates {
            assert!(d.first < d.second && d.second < t.len());
        }
    }
}

/// Every Tier 1 case rule and the Tier 2 trigger checks over a catalog
/// of one fuzzed file, every span checked, every diagnostic rendered.
fn check_catalog(catalog: crate::catalog::Catalog, mut diags: Vec<crate::diag::Diagnostic>) {
    let config = crate::config::Config::default();
    crate::lint::rules::cases::run(&catalog, &config, &mut diags);
    let router = crate::route::Router::new(&catalog, &config).expect("default language exists");
    let outcome = crate::route::cases::check(&router, &config.route);
    diags.extend(outcome.diagnostics);
    for d in &diags {
        if let (Some(s), Some(src)) = (&d.span, catalog.sources.get(&d.file)) {
            assert_span(&src.text, s, d.rule);
        }
    }
    crate::diag::sort_diagnostics(&mut diags);
    let mut summary = Summary::default();
    summary.count(&diags);
    let outcome = Outcome {
        diagnostics: &diags,
        summary: &summary,
        sources: &catalog.sources,
        path_prefix: "",
        checked: crate::report::junit::Checked {
            prompts: &outcome.prompts,
            ..Default::default()
        },
    };
    for format in [
        crate::base::Format::Human,
        crate::base::Format::Sarif,
        crate::base::Format::Junit,
    ] {
        let mut out = Vec::new();
        report::render(format, &outcome, &mut out).expect("rendering into memory cannot fail");
    }
}

/// One case source of a skill's own folder from raw bytes. The first byte
/// picks what the file is: a named trigger set
/// (`evals/trigger-queries.json`), an evals file (`evals/evals.json`), a
/// waza file (`trigger_tests.yaml`), or any JSON in `evals/` (classified by
/// shape); the rest is its content. It is decoded, parsed, classified and
/// typed twice with the same result; then every case rule and the trigger
/// checks run over it, as for [`case_file`].
pub fn case_source(data: &[u8]) {
    use crate::catalog::cases::{Format, scan};
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let (rel, expected) = match pick % 4 {
        0 => ("evals/trigger-queries.json", Some(Format::TriggerSet)),
        1 => ("evals/evals.json", Some(Format::EvalsJson)),
        2 => ("trigger_tests.yaml", Some(Format::Waza)),
        _ => ("evals/other.json", None),
    };
    let limit = crate::config::CatalogConfig::default().max_case_bytes;
    let skills = catalog_with(Vec::new(), Vec::new()).skills;
    let (src, diags) = scan::parse(0, &skills[0], rel, expected, rest.to_vec(), limit);
    let (again, diags2) = scan::parse(0, &skills[0], rel, expected, rest.to_vec(), limit);
    assert_eq!(diags, diags2);
    assert_eq!(src.format, again.format);
    assert_eq!(src.triggers.len(), again.triggers.len());
    let text = src.source.text.clone();
    for t in &src.triggers {
        assert_span(&text, &t.prompt.span, "prompt span");
        assert_span(&text, &t.span, "trigger span");
    }
    for e in &src.evals {
        assert_span(&text, &e.span, "eval span");
        for x in &e.expectations {
            assert_span(&text, &x.span, "expectation span");
        }
    }
    check_catalog(catalog_with(Vec::new(), vec![src]), diags);
}

/// The analyzer and the index over fuzzed text. The first byte picks the
/// stemming language; the rest is split at line breaks: the first line is
/// the prompt, the others name/description pairs of up to 16 skills.
/// Checks: the same text gives the same terms twice, no term is empty,
/// scores are finite and in 0..=1 (cosine of non-negative vectors), and the
/// ranking does not change when the skills are given in reverse order.
pub fn analyzer(data: &[u8]) {
    use crate::route::index::{DocInput, Index, Query};
    use crate::route::rank::{Scorer, score_key};
    use crate::route::text::{Analyzer, LANGUAGES};
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let language = LANGUAGES
        .get(pick as usize % (LANGUAGES.len() + 1))
        .map_or("none", |l| l.0);
    let analyzer = Analyzer::new(language, &[]).expect("listed languages exist");
    let text = String::from_utf8_lossy(rest);
    let terms = analyzer.terms(&text);
    assert_eq!(terms, analyzer.terms(&text), "same text, different terms");
    assert!(terms.iter().all(|t| !t.is_empty()), "an empty term");

    let mut lines = text.split('\n');
    let prompt = lines.next().unwrap_or("");
    let rest: Vec<&str> = lines.take(32).collect();
    let files: Vec<String> = (0..rest.len()).map(|i| format!("s{i}/SKILL.md")).collect();
    let docs: Vec<DocInput> = rest
        .chunks(2)
        .zip(&files)
        .map(|(pair, file)| DocInput {
            name: pair[0],
            description: pair.get(1).copied().unwrap_or(""),
            file,
        })
        .collect();
    let ranking = |docs: &[DocInput]| {
        let index = Index::build(docs, &analyzer, 2);
        let query = Query::new(prompt, &analyzer, &index);
        let mut scorer = Scorer::new(&index);
        let scores = scorer.score(&query);
        for d in 0..index.len() as u32 {
            let s = scores.score(d);
            assert!((0.0..=1.0 + 1e-9).contains(&s), "score {s}");
            let st = scores.standing(d);
            assert!(st.above + st.tied < index.len());
        }
        scores
            .top(0)
            .into_iter()
            .map(|(d, s)| (index.doc(d).file.clone(), score_key(s), s.to_bits()))
            .collect::<Vec<_>>()
    };
    let forward = ranking(&docs);
    let mut reversed = docs.clone();
    reversed.reverse();
    assert_eq!(
        forward,
        ranking(&reversed),
        "ranking depends on skill order"
    );

    // the rank cache's promise: an index built from interned counts, with
    // the vocabulary in another order, is the same bit for bit
    use crate::route::index::{DocCounts, count_terms, intern};
    let counted: Vec<DocCounts<String>> = docs
        .iter()
        .enumerate()
        .map(|(i, d)| DocCounts {
            name: d.name.to_string(),
            file: d.file.to_string(),
            source: i,
            counts: count_terms(&analyzer, d.name, d.description, 2),
        })
        .collect();
    let (mut interned, vocab) = intern(counted);
    let n = vocab.len() as u32;
    for d in &mut interned {
        for t in &mut d.counts {
            t.0 = n - 1 - t.0;
        }
    }
    let flipped: Vec<&str> = vocab.iter().rev().map(|t| &**t).collect();
    let a = Index::build(&docs, &analyzer, 2);
    let b = Index::from_interned(&interned, &flipped);
    assert_eq!(a.len(), b.len());
    for d in 0..a.len() as u32 {
        let (ta, wa) = a.vector(d);
        let (tb, wb) = b.vector(d);
        assert_eq!(ta, tb, "term ids differ");
        let bits = |w: &[f64]| w.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(wa), bits(wb), "weights differ");
    }
}

/// A rank cache file (`route::cache`): the fuzzed bytes follow a valid
/// header, so the fuzzer explores the body. Checks: decoding never panics;
/// what decodes builds an index without panicking, with finite weights;
/// encoding it again decodes to the same ranking, and a second round
/// gives the same bytes.
pub fn rank_cache(data: &[u8]) {
    use crate::route::cache::{decode, encode, header};
    let key = [0x5a; 32];
    let mut bytes = header(&key);
    bytes.extend_from_slice(data);
    let Some(record) = decode(&bytes, &key) else {
        return;
    };
    let ranking = record.analysis.ranking();
    let vectors = |index: &crate::route::index::Index| {
        (0..index.len() as u32)
            .map(|d| {
                let (ts, ws) = index.vector(d);
                assert!(ws.iter().all(|w| w.is_finite()), "weight not finite");
                (
                    ts.to_vec(),
                    ws.iter().map(|w| w.to_bits()).collect::<Vec<_>>(),
                )
            })
            .collect::<Vec<_>>()
    };
    let first = vectors(&ranking.index);
    let again = encode(&key, &record.dirs, &record.analysis);
    let back = decode(&again, &key).expect("an encoded cache decodes");
    let second = back.analysis.ranking();
    assert_eq!(ranking.unroutable, second.unroutable);
    assert_eq!(
        first,
        vectors(&second.index),
        "ranking changed in a round trip"
    );
    assert_eq!(
        encode(&key, &back.dirs, &back.analysis),
        again,
        "encoding is not stable"
    );
}

/// A `claude -p --output-format stream-json` stream: parsed, turned into
/// the grader's transcript for both eval kinds, and fenced in a grader
/// prompt. Checks: the parser is deterministic, and the fence holds: the
/// closing marker appears exactly twice (once in the rules, once closing
/// the data), the whole transcript lies between the markers and nothing of
/// it follows the closing one.
pub fn stream_json(data: &[u8]) {
    use crate::behave::agent::claude;
    use crate::behave::grader::{self, Kind, Request};
    let trace = claude::parse(data);
    assert_eq!(trace, claude::parse(data));
    let _ = trace.result.as_ref().map(|r| r.total_tokens());
    let _ = (trace.tool_counts(), trace.mcp_tools());
    let expectations = vec!["The agent wrote a failing test first".to_string()];
    for kind in [Kind::Execution, Kind::Dialogue] {
        let transcript = grader::transcript(kind, "Fix the bug", &trace);
        assert!(transcript.len() <= grader::TRANSCRIPT_BUDGET + 256);
        let req = Request {
            kind,
            expected_output: "a fix",
            expectations: &expectations,
            transcript: &transcript,
        };
        let (prompt, nonce) = grader::prompt(&req, None);
        let (begin, end) = grader::markers(&nonce);
        assert_eq!(
            prompt.matches(&end).count(),
            2,
            "the closing marker is forged"
        );
        let open = prompt.rfind(&format!("{begin}\n")).expect("fence opens") + begin.len() + 1;
        let close = prompt.rfind(&format!("\n{end}\n")).expect("fence closes");
        assert_eq!(
            &prompt[open..close],
            transcript,
            "the trace leaks out of its fence"
        );
    }
}

/// A grader reply checked against expectations. The input's first line
/// lists the expectations (separated by `|`), the rest is the reply.
/// Checks: an accepted grading has one entry per expectation, in order,
/// with the expectation's own text, and a summary recomputed from them.
pub fn grader_reply(data: &[u8]) {
    use crate::behave::grader;
    let text = String::from_utf8_lossy(data);
    let (head, reply) = text.split_once('\n').unwrap_or(("", &text));
    let expectations: Vec<String> = head
        .split('|')
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();
    let result = grader::parse_reply(reply, &expectations);
    assert_eq!(result, grader::parse_reply(reply, &expectations));
    if let Ok(g) = result {
        assert_eq!(g.expectations.len(), expectations.len());
        for (e, want) in g.expectations.iter().zip(&expectations) {
            assert_eq!(&e.text, want);
        }
        let passed = g.expectations.iter().filter(|e| e.passed).count();
        assert_eq!(g.summary.passed, passed);
        assert_eq!(g.summary.failed + passed, g.summary.total);
        assert_eq!(g.summary.total, expectations.len());
        assert!((0.0..=1.0).contains(&g.summary.pass_rate));
    }
}
