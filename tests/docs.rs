//! The documentation holds together: every relative link and `#anchor` in
//! README.md, ARCHITECTURE.md and `docs/**/*.md` reaches a file of this
//! repository and, for an anchor, a heading of that file (GitHub's slugs);
//! every page under `docs/` can be reached from README.md; README.md stays
//! under 300 lines; the README's tour prints what it shows; and the
//! examples of docs/case-files.md are read as the page says.
//!
//! Markdown is read with pulldown-cmark, so a link inside a code span or a
//! code block is text, as on GitHub. `http(s)` and other URLs with a scheme
//! are not fetched.

mod common;

use pulldown_cmark::{BrokenLink, Event, LinkType, Options, Parser, Tag, TagEnd};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// What a repository-relative path (`/`-separated) is.
enum Target {
    Missing,
    Folder,
    /// A file, with its text when it is Markdown.
    File(Option<String>),
}

fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_FOOTNOTES
}

/// GitHub's anchor for a heading's text: lowercase, each space a hyphen,
/// every other character that is not a letter, a digit, `-` or `_`
/// dropped.
fn slug(text: &str) -> String {
    text.trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a Markdown text's headings, in order; a repeated slug
/// gets `-1`, `-2`, … as on GitHub.
fn anchors(markdown: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut seen = BTreeSet::new();
    let mut heading: Option<String> = None;
    for event in Parser::new_ext(markdown, options()) {
        match event {
            Event::Start(Tag::Heading { .. }) => heading = Some(String::new()),
            Event::Text(t) | Event::Code(t) => {
                if let Some(h) = heading.as_mut() {
                    h.push_str(&t);
                }
            }
            Event::End(TagEnd::Heading(_)) => {
                let base = slug(&heading.take().unwrap_or_default());
                let mut candidate = base.clone();
                let mut n = 0;
                while seen.contains(&candidate) {
                    n += 1;
                    candidate = format!("{base}-{n}");
                }
                seen.insert(candidate.clone());
                out.push(candidate);
            }
            _ => {}
        }
    }
    out
}

/// One link or image of a Markdown text: its destination and its line.
struct Link {
    dest: String,
    line: usize,
}

/// Every link and image destination outside code, and every
/// `[text][reference]` whose reference is not defined (as `!missing` with
/// the reference's name).
fn links(markdown: &str) -> Vec<Link> {
    let line_of = |offset: usize| markdown[..offset].matches('\n').count() + 1;
    let mut broken = Vec::new();
    let mut out = Vec::new();
    {
        let mut callback = |b: BrokenLink<'_>| {
            if matches!(b.link_type, LinkType::Reference | LinkType::Collapsed) {
                broken.push((b.span.start, b.reference.to_string()));
            }
            None
        };
        let parser =
            Parser::new_with_broken_link_callback(markdown, options(), Some(&mut callback));
        for (event, range) in parser.into_offset_iter() {
            if let Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) = event {
                out.push(Link {
                    dest: dest_url.to_string(),
                    line: line_of(range.start),
                });
            }
        }
    }
    out.extend(broken.into_iter().map(|(at, reference)| Link {
        dest: format!("!missing {reference}"),
        line: line_of(at),
    }));
    out.sort_by_key(|l| l.line);
    out
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && bytes[i + 1].is_ascii_hexdigit()
            && bytes[i + 2].is_ascii_hexdigit()
            && let Ok(b) = u8::from_str_radix(&s[i + 1..i + 3], 16)
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `base` (a file's folder, `/`-separated, "" for the root) joined with a
/// relative `path`, `.` and `..` resolved; `None` when it climbs out of the
/// repository.
fn join(base: &str, path: &str) -> Option<String> {
    let mut parts: Vec<&str> = base.split('/').filter(|p| !p.is_empty()).collect();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

fn has_scheme(dest: &str) -> bool {
    let Some(colon) = dest.find(':') else {
        return false;
    };
    let scheme = &dest[..colon];
    !scheme.is_empty()
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
        && scheme.chars().next().unwrap().is_ascii_alphabetic()
}

/// Every problem with the links of `sources` (repository-relative path,
/// Markdown text), one line each, `file:line: …`.
fn problems(sources: &[(String, String)], lookup: &dyn Fn(&str) -> Target) -> Vec<String> {
    let mut out = Vec::new();
    let mut anchor_cache: BTreeMap<String, Option<Vec<String>>> = BTreeMap::new();
    let mut anchors_of = |path: &str| -> Option<Vec<String>> {
        anchor_cache
            .entry(path.to_string())
            .or_insert_with(|| match sources.iter().find(|(p, _)| p == path) {
                Some((_, text)) => Some(anchors(text)),
                None => match lookup(path) {
                    Target::File(Some(text)) => Some(anchors(&text)),
                    _ => None,
                },
            })
            .clone()
    };
    for (file, text) in sources {
        let folder = file.rsplit_once('/').map_or("", |(dir, _)| dir);
        for Link { dest, line } in links(text) {
            let at = format!("{file}:{line}");
            if let Some(reference) = dest.strip_prefix("!missing ") {
                out.push(format!(
                    "{at}: link reference `[{reference}]` is not defined"
                ));
                continue;
            }
            if has_scheme(&dest) || dest.starts_with("//") {
                continue;
            }
            if dest.is_empty() {
                out.push(format!("{at}: empty link"));
                continue;
            }
            if dest.starts_with('/') {
                out.push(format!(
                    "{at}: `{dest}` starts with `/`: write the link relative to {file}"
                ));
                continue;
            }
            let (path_part, anchor) = match dest.split_once('#') {
                Some((p, a)) => (p, Some(percent_decode(a))),
                None => (dest.as_str(), None),
            };
            let path_part = path_part.split_once('?').map_or(path_part, |(p, _)| p);
            let target = if path_part.is_empty() {
                file.clone()
            } else {
                match join(folder, &percent_decode(path_part)) {
                    Some(t) => t,
                    None => {
                        out.push(format!(
                            "{at}: `{dest}` leads out of the repository (a user's clone has nothing there)"
                        ));
                        continue;
                    }
                }
            };
            if target != *file || !path_part.is_empty() {
                match lookup(&target) {
                    Target::Missing => {
                        out.push(format!("{at}: `{dest}`: {target} does not exist"));
                        continue;
                    }
                    Target::Folder if anchor.is_some() => {
                        out.push(format!(
                            "{at}: `{dest}`: {target} is a folder, it has no headings"
                        ));
                        continue;
                    }
                    _ => {}
                }
            }
            let Some(anchor) = anchor else { continue };
            match anchors_of(&target) {
                None => out.push(format!(
                    "{at}: `{dest}`: {target} is not Markdown, so `#{anchor}` cannot be checked"
                )),
                Some(list) if !list.contains(&anchor) => out.push(format!(
                    "{at}: `{dest}`: {target} has no heading whose anchor is `{anchor}` (its anchors: {})",
                    list.join(", ")
                )),
                Some(_) => {}
            }
        }
    }
    out
}

/// The pages under `docs/` that no chain of relative links from README.md
/// reaches.
fn unreachable(sources: &[(String, String)]) -> Vec<String> {
    let mut reached = BTreeSet::from(["README.md".to_string()]);
    let mut todo = vec!["README.md".to_string()];
    while let Some(file) = todo.pop() {
        let Some((_, text)) = sources.iter().find(|(p, _)| *p == file) else {
            continue;
        };
        let folder = file.rsplit_once('/').map_or("", |(dir, _)| dir);
        for Link { dest, .. } in links(text) {
            if has_scheme(&dest) || dest.starts_with('!') {
                continue;
            }
            let path = dest.split('#').next().unwrap_or("");
            if path.is_empty() {
                continue;
            }
            if let Some(t) = join(folder, &percent_decode(path))
                && reached.insert(t.clone())
            {
                todo.push(t);
            }
        }
    }
    sources
        .iter()
        .map(|(p, _)| p.clone())
        .filter(|p| p.starts_with("docs/") && !reached.contains(p))
        .collect()
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn markdown_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            markdown_under(&p, out);
        } else if p.extension().is_some_and(|e| e == "md") {
            out.push(p);
        }
    }
}

/// README.md, ARCHITECTURE.md and every `docs/**/*.md`, by
/// repository-relative path.
fn repository_docs() -> Vec<(String, String)> {
    let mut files = vec![root().join("README.md"), root().join("ARCHITECTURE.md")];
    markdown_under(&root().join("docs"), &mut files);
    files
        .into_iter()
        .map(|p| {
            let rel = p.strip_prefix(root()).unwrap();
            let rel = rel
                .components()
                .map(|c| c.as_os_str().to_str().unwrap())
                .collect::<Vec<_>>()
                .join("/");
            let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{rel}: {e}"));
            (rel, text)
        })
        .collect()
}

fn on_disk(path: &str) -> Target {
    let p = root().join(path);
    match std::fs::metadata(&p) {
        Err(_) => Target::Missing,
        Ok(m) if m.is_dir() => Target::Folder,
        Ok(_) if path.ends_with(".md") => Target::File(std::fs::read_to_string(&p).ok()),
        Ok(_) => Target::File(None),
    }
}

#[test]
fn every_relative_link_and_anchor_in_the_docs_resolves() {
    let docs = repository_docs();
    let found = problems(&docs, &on_disk);
    assert!(found.is_empty(), "broken links:\n{}", found.join("\n"));
}

#[test]
fn every_docs_page_is_reached_from_the_readme() {
    let docs = repository_docs();
    let lost = unreachable(&docs);
    assert!(
        lost.is_empty(),
        "pages no link from README.md leads to (add a row to README's documentation table): {}",
        lost.join(", ")
    );
}

#[test]
fn the_link_check_finds_a_missing_file_a_missing_anchor_and_an_escape() {
    let readme = "\
# Tool

See [the guide](docs/guide.md#set-up), [limits](docs/guide.md#limits),
[gone](docs/gone.md), [up](../shared/x.md), [self](#tool), [lost](#nowhere),
![picture](docs/img/a.png), [ref][undefined], [web](https://example.com/x.md),
`[in code](docs/missing.md)`.

```md
[in a block](docs/missing.md)
```
";
    let guide = "# Guide\n\n## Set up\n\n## Set up\n\nBack [home](../README.md#tool), [twice](#set-up-1).\n";
    let sources = vec![
        ("README.md".to_string(), readme.to_string()),
        ("docs/guide.md".to_string(), guide.to_string()),
    ];
    let lookup = |p: &str| match p {
        "README.md" => Target::File(Some(readme.to_string())),
        "docs/guide.md" => Target::File(Some(guide.to_string())),
        "docs/img/a.png" => Target::File(None),
        "docs" | "docs/img" => Target::Folder,
        _ => Target::Missing,
    };
    let found = problems(&sources, &lookup);
    assert_eq!(
        found,
        [
            "README.md:3: `docs/guide.md#limits`: docs/guide.md has no heading whose anchor is `limits` (its anchors: guide, set-up, set-up-1)",
            "README.md:4: `docs/gone.md`: docs/gone.md does not exist",
            "README.md:4: `../shared/x.md` leads out of the repository (a user's clone has nothing there)",
            "README.md:4: `#nowhere`: README.md has no heading whose anchor is `nowhere` (its anchors: tool)",
            "README.md:5: link reference `[undefined]` is not defined",
        ],
        "{found:#?}"
    );
    // the picture is missing once its file is
    let no_picture = |p: &str| match p {
        "docs/img/a.png" => Target::Missing,
        p => lookup(p),
    };
    assert!(
        problems(&sources, &no_picture)
            .contains(&"README.md:5: `docs/img/a.png`: docs/img/a.png does not exist".to_string())
    );
    // a page nothing links to is found
    let orphan = vec![
        sources[0].clone(),
        sources[1].clone(),
        ("docs/orphan.md".to_string(), "# Orphan\n".to_string()),
    ];
    assert_eq!(unreachable(&orphan), ["docs/orphan.md"]);
}

#[test]
fn slugs_follow_github() {
    assert_eq!(slug("Tier 1 — lint"), "tier-1--lint");
    assert_eq!(slug("`[behave]` — Tier 3"), "behave--tier-3");
    assert_eq!(
        slug("Release gates: blockers, quality, deterministic checks, versions"),
        "release-gates-blockers-quality-deterministic-checks-versions"
    );
    assert_eq!(
        slug("The agent interface (Tier 3)"),
        "the-agent-interface-tier-3"
    );
    assert_eq!(slug("snake_case and CI/CD"), "snake_case-and-cicd");
    assert_eq!(
        anchors("# A\n\n## A\n\n```\n# not a heading\n```\n\n## `A`\n"),
        ["a", "a-1", "a-2"]
    );
}

/// The README's section under the heading `title`, up to the next heading
/// of the same level.
fn section<'a>(markdown: &'a str, title: &str) -> &'a str {
    let start = markdown
        .find(&format!("\n## {title}\n"))
        .unwrap_or_else(|| panic!("README.md has no `## {title}` section"));
    let rest = &markdown[start + 1..];
    let end = rest[3..].find("\n## ").map_or(rest.len(), |e| e + 4);
    &rest[..end]
}

/// The code blocks of a Markdown text: (info string, content).
fn code_blocks(markdown: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut current: Option<(String, String)> = None;
    for event in Parser::new_ext(markdown, options()) {
        match event {
            Event::Start(Tag::CodeBlock(kind)) => {
                let info = match kind {
                    pulldown_cmark::CodeBlockKind::Fenced(i) => i.to_string(),
                    pulldown_cmark::CodeBlockKind::Indented => String::new(),
                };
                current = Some((info, String::new()));
            }
            Event::Text(t) => {
                if let Some((_, body)) = current.as_mut() {
                    body.push_str(&t);
                }
            }
            Event::End(TagEnd::CodeBlock) => out.extend(current.take()),
            _ => {}
        }
    }
    out
}

/// A command line split into words: white space separates, double quotes
/// group (no other shell syntax is allowed in the tour).
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            c if c.is_whitespace() && !quoted => {
                if any {
                    out.push(std::mem::take(&mut word));
                    any = false;
                }
            }
            c => {
                assert!(
                    !"'$`|&;<>*\\".contains(c) || quoted,
                    "the tour's command `{line}` uses shell syntax the test does not run"
                );
                word.push(c);
                any = true;
            }
        }
    }
    assert!(!quoted, "unbalanced quote in `{line}`");
    if any {
        out.push(word);
    }
    out
}

#[test]
fn the_readme_tour_runs_as_written_from_a_clone() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let tour = section(&readme, "A 60-second tour");
    let blocks = code_blocks(tour);
    let mut installed = false;
    let mut ran = 0;
    for (info, body) in &blocks {
        match info.as_str() {
            "sh" => {
                for line in body.lines().filter(|l| !l.trim().is_empty()) {
                    assert_eq!(
                        line.trim(),
                        "cargo install --locked --path .",
                        "the tour's shell block should only put skillsift on PATH"
                    );
                    installed = true;
                }
            }
            "console" => {
                let mut lines = body.lines().peekable();
                while let Some(line) = lines.next() {
                    let command = line.strip_prefix("$ ").unwrap_or_else(|| {
                        panic!("console block line `{line}` is no `$ ` command")
                    });
                    assert!(
                        installed,
                        "the tour runs `{command}` before putting skillsift on PATH"
                    );
                    let mut shown = String::new();
                    while let Some(l) = lines.next_if(|l| !l.starts_with("$ ")) {
                        shown.push_str(l);
                        shown.push('\n');
                    }
                    let words = words(command);
                    assert_eq!(words[0], "skillsift", "`{command}`");
                    for w in &words {
                        assert!(!w.contains("../"), "`{command}` reaches outside the clone");
                    }
                    let out = common::skillsift()
                        .current_dir(root())
                        .args(&words[1..])
                        .output()
                        .unwrap();
                    assert_eq!(
                        String::from_utf8_lossy(&out.stdout),
                        shown,
                        "`{command}` prints something else than the tour shows (stderr: {})",
                        String::from_utf8_lossy(&out.stderr)
                    );
                    ran += 1;
                }
            }
            other => panic!("the tour has a `{other}` code block the test does not run"),
        }
    }
    assert!(ran >= 2, "the tour shows {ran} skillsift commands");
}

#[test]
fn the_readme_is_under_300_lines() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let n = readme.lines().count();
    assert!(
        n < 300,
        "README.md has {n} lines: move detail to a page under docs/"
    );
}

/// The code blocks of docs/case-files.md's "The formats" section, by info
/// string, in order.
fn case_format_examples() -> Vec<(String, String)> {
    let page = std::fs::read_to_string(root().join("docs/case-files.md")).unwrap();
    let start = page
        .find("\n## The formats\n")
        .expect("docs/case-files.md has a `## The formats` section");
    let end = start + page[start..].find("\n### Declared sources").unwrap();
    code_blocks(&page[start..end])
}

#[test]
fn the_case_format_examples_are_read_as_written() {
    let blocks = case_format_examples();
    let kinds: Vec<&str> = blocks.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(
        kinds,
        [
            "json", "json", "json", "yaml", "json", "json", "yaml", "jsonl", "csv", "markdown",
            "toml"
        ],
        "the four formats, then the examples found by shape, then a table SG437 gives"
    );
    let dir = tempfile::tempdir().unwrap();
    let cat = dir.path();
    let write = |rel: &str, text: &str| {
        let p = cat.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    for skill in [
        "suite-stability",
        "debugging",
        "pdf-forms",
        "pdf-merge",
        "receipt-scanner",
        "git-commit",
    ] {
        write(
            &format!("skills/{skill}/SKILL.md"),
            &format!(
                "---\nname: {skill}\ndescription: Handles {skill} work. Use when the user asks about {skill}.\n---\n# {skill}\n"
            ),
        );
    }
    write("evals/cases/suite-stability.json", &blocks[0].1);
    write("evals/fixtures/test-driven-development/BUG.md", "a bug\n");
    write("skills/pdf-forms/evals/evals.json", &blocks[1].1);
    write("skills/pdf-forms/evals/files/w9.txt", "form\n");
    write("skills/pdf-forms/evals/files/details.txt", "details\n");
    write("skills/pdf-forms/evals/trigger-queries.json", &blocks[2].1);
    write("skills/receipt-scanner/trigger_tests.yaml", &blocks[3].1);
    // found by shape, each where the page says such files are read
    write("tests/skill-objects.json", &blocks[4].1);
    write("evals/routing.json", &blocks[5].1);
    write("skills/pdf-forms/skill-tests.yaml", &blocks[6].1);
    write("tests/activation.jsonl", &blocks[7].1);
    write("evals/pdf-forms/prompts.csv", &blocks[8].1);
    write("tests/pdf-forms/prompts.md", &blocks[9].1);

    let cases = |skill: &str| -> serde_json::Value {
        let out = common::skillsift()
            .args(["cases", skill])
            .arg(cat)
            .args(["--format", "json"])
            .output()
            .unwrap();
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!(
                "{skill}: not JSON ({e}): {}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            )
        })
    };
    let count = |v: &serde_json::Value, key: &str| v[key].as_array().map_or(0, Vec::len);
    // (skill, positive, negative, evals)
    for (skill, positive, negative, evals) in [
        ("suite-stability", 2, 1, 2),
        ("pdf-forms", 7, 5, 2),
        ("receipt-scanner", 1, 1, 0),
        ("git-commit", 1, 0, 0),
    ] {
        let v = cases(skill);
        // The examples are short: only the minimums (SG407) may complain.
        let problems: Vec<&serde_json::Value> = v["problems"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["rule"] != "SG407")
            .collect();
        assert!(problems.is_empty(), "{skill}: {problems:#?}");
        assert_eq!(
            (
                count(&v, "positive"),
                count(&v, "negative"),
                count(&v, "evals")
            ),
            (positive, negative, evals),
            "{skill}: {v:#}"
        );
    }
}

/// `node`, or the definition its `$ref` names (directly or as the one
/// reference of an `anyOf`/`allOf`/`oneOf`).
fn resolve<'a>(
    schema: &'a serde_json::Value,
    node: &'a serde_json::Value,
) -> &'a serde_json::Value {
    if let Some(r) = node["$ref"].as_str() {
        let name = r.rsplit('/').next().unwrap();
        return resolve(schema, &schema["$defs"][name]);
    }
    for combinator in ["anyOf", "allOf", "oneOf"] {
        if let Some(list) = node[combinator].as_array()
            && let Some(target) = list.iter().find(|n| n["$ref"].is_string())
        {
            return resolve(schema, target);
        }
    }
    node
}

#[test]
fn every_configuration_key_has_a_row_in_docs_configuration() {
    let out = common::skillsift()
        .args(["schema", "config"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let schema: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let page = std::fs::read_to_string(root().join("docs/configuration.md")).unwrap();
    // The text under each heading that names a table: "## `[route]` — …".
    let mut sections: BTreeMap<String, String> = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in page.lines() {
        if line.starts_with('#') {
            current = line
                .split_once("`[")
                .and_then(|(_, rest)| rest.split_once("]`"))
                .map(|(name, _)| name.to_string());
            if let Some(name) = &current {
                sections.entry(name.clone()).or_default();
            }
            continue;
        }
        if let Some(name) = &current {
            let text = sections.get_mut(name).unwrap();
            text.push_str(line);
            text.push('\n');
        }
    }
    let mut missing = Vec::new();
    let mut tables = vec![(String::new(), &schema)];
    while let Some((table, node)) = tables.pop() {
        let Some(properties) = resolve(&schema, node)["properties"].as_object() else {
            continue;
        };
        for (key, sub) in properties {
            let path = if table.is_empty() {
                key.clone()
            } else {
                format!("{table}.{key}")
            };
            if table.is_empty() || sections.contains_key(&path) {
                if !sections.contains_key(&path) {
                    missing.push(format!("a `## `[{path}]`` section"));
                }
                tables.push((path, sub));
            } else if !sections[&table].contains(&format!("\n| `{key}` |")) {
                missing.push(format!("`{key}` in the `[{table}]` table"));
            }
        }
    }
    missing.sort();
    assert!(
        missing.is_empty(),
        "docs/configuration.md lacks what `skillsift schema config` has: {}",
        missing.join(", ")
    );
}
