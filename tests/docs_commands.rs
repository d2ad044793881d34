//! Every `skillsift …` command line README.md and `docs/**/*.md` show is
//! one the binary's argument parser accepts, and every `--flag` the docs
//! name in a code span is one of skillsift's (or one of the listed flags of
//! another tool), so a renamed flag cannot live on in the docs.
//!
//! A command line is an inline code span or a code-block line where
//! `skillsift` is the command: first on the line (after a `$ ` prompt,
//! `run:`/`script:`, `npx`/`uvx` or a path such as `target/debug/`), or
//! after `|`, `&&`, `;` or `$(`. Its words end at an unquoted `|`, `>`,
//! `;`, `&&`, `)` or `#`. Placeholders are read as written: `[ROOT]` is
//! `ROOT`, `<client>` is `client`, `…` is dropped; a placeholder given
//! where the parser wants one of a list of values is accepted.

#[allow(dead_code, unused_imports)]
#[path = "../src/cli.rs"]
mod cli;

use clap::CommandFactory;
use clap::Parser as _;
use clap::error::{ContextKind, ContextValue, ErrorKind};
use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// README.md and every Markdown file under docs/, as (relative path, text).
fn pages() -> Vec<(String, String)> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|e| e == "md") {
                out.push(p);
            }
        }
    }
    let mut files = vec![root().join("README.md")];
    walk(&root().join("docs"), &mut files);
    files
        .into_iter()
        .map(|p| {
            let rel = p
                .strip_prefix(root())
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            (rel, std::fs::read_to_string(&p).unwrap())
        })
        .collect()
}

/// Where a piece of text was shown.
#[derive(Debug, Clone)]
struct Shown {
    page: String,
    line: usize,
    text: String,
    /// From a code span (prose) rather than a code block.
    span: bool,
    /// The code block's info string (`console`, `sh`, …).
    info: String,
}

/// The code spans and code-block lines of a page (a block's lines ending
/// in `\` joined with the next).
fn snippets(page: &str, markdown: &str) -> Vec<Shown> {
    let line_of = |offset: usize| markdown[..offset].matches('\n').count() + 1;
    let mut out = Vec::new();
    let mut block: Option<usize> = None;
    let mut info = String::new();
    let opts = Options::ENABLE_TABLES | Options::ENABLE_FOOTNOTES | Options::ENABLE_STRIKETHROUGH;
    for (event, range) in Parser::new_ext(markdown, opts).into_offset_iter() {
        match event {
            Event::Start(Tag::CodeBlock(kind)) => {
                block = Some(line_of(range.start) + 1);
                info = match kind {
                    pulldown_cmark::CodeBlockKind::Fenced(i) => i.to_string(),
                    pulldown_cmark::CodeBlockKind::Indented => String::new(),
                };
            }
            Event::End(TagEnd::CodeBlock) => block = None,
            Event::Text(t) => {
                let Some(first) = block else { continue };
                let first = first.max(line_of(range.start));
                let mut joined = String::new();
                let mut start = first;
                for (i, l) in t.lines().enumerate() {
                    if joined.is_empty() {
                        start = first + i;
                    }
                    if let Some(head) = l.strip_suffix('\\') {
                        joined.push_str(head);
                        joined.push(' ');
                        continue;
                    }
                    joined.push_str(l);
                    out.push(Shown {
                        page: page.to_string(),
                        line: start,
                        text: std::mem::take(&mut joined),
                        span: false,
                        info: info.clone(),
                    });
                }
            }
            Event::Code(c) if block.is_none() => out.push(Shown {
                page: page.to_string(),
                line: line_of(range.start),
                text: c.to_string(),
                span: true,
                info: String::new(),
            }),
            _ => {}
        }
    }
    out
}

/// A word of a shell line, and whether it was written as a placeholder.
#[derive(Debug, Clone, PartialEq)]
struct Word {
    text: String,
    placeholder: bool,
}

/// Splits a shell line into segments of words at unquoted `|`, `;`, `&&`,
/// `$(` and `)`; a segment ends its words at an unquoted `>` or `#`.
fn segments(line: &str) -> Vec<Vec<String>> {
    let mut out = vec![Vec::new()];
    let mut word = String::new();
    let mut any = false;
    let mut quote: Option<char> = None;
    let mut stopped = false;
    let chars: Vec<char> = line.chars().collect();
    let mut i = 0;
    let flush = |out: &mut Vec<Vec<String>>, word: &mut String, any: &mut bool| {
        if *any {
            out.last_mut().unwrap().push(std::mem::take(word));
            *any = false;
        }
    };
    while i < chars.len() {
        let c = chars[i];
        if let Some(q) = quote {
            if c == q {
                quote = None;
            } else if !stopped {
                word.push(c);
            }
            i += 1;
            continue;
        }
        match c {
            '\'' | '"' => {
                quote = Some(c);
                any = !stopped;
            }
            '\\' if i + 1 < chars.len() => {
                i += 1;
                if !stopped {
                    word.push(chars[i]);
                    any = true;
                }
            }
            '|' | ';' | ')' => {
                flush(&mut out, &mut word, &mut any);
                out.push(Vec::new());
                stopped = false;
                if c == '|' && chars.get(i + 1) == Some(&'|') {
                    i += 1;
                }
            }
            '&' if chars.get(i + 1) == Some(&'&') => {
                flush(&mut out, &mut word, &mut any);
                out.push(Vec::new());
                stopped = false;
                i += 1;
            }
            '$' if chars.get(i + 1) == Some(&'(') => {
                flush(&mut out, &mut word, &mut any);
                out.push(Vec::new());
                stopped = false;
                i += 1;
            }
            '<' if !any && !stopped && chars[i + 1..].contains(&'>') => {
                // A `<placeholder>`, spaces and all.
                while chars[i] != '>' {
                    word.push(chars[i]);
                    i += 1;
                }
                word.push('>');
                any = true;
            }
            '>' | '<' if !any || word.chars().all(|d| d.is_ascii_digit()) => {
                // A redirection (`2>`, `>`, `<`): its target is no argument.
                word.clear();
                any = false;
                stopped = true;
            }
            // A comment ends the line.
            '#' if !any => break,
            c if c.is_whitespace() => flush(&mut out, &mut word, &mut any),
            c => {
                if !stopped {
                    word.push(c);
                    any = true;
                }
            }
        }
        i += 1;
    }
    flush(&mut out, &mut word, &mut any);
    out.retain(|s| !s.is_empty());
    out
}

/// The arguments of a segment whose command is skillsift, else `None`.
fn skillsift_args(segment: &[String]) -> Option<Vec<Word>> {
    let mut rest = segment;
    // A prompt, a YAML key, environment assignments, a runner.
    while let Some(first) = rest.first() {
        let f = first.as_str();
        let assignment = f.split_once('=').is_some_and(|(k, _)| {
            !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        });
        if matches!(
            f,
            "$" | "-" | "run:" | "script:" | "npx" | "uvx" | "--offline"
        ) || assignment
        {
            rest = &rest[1..];
        } else {
            break;
        }
    }
    let (command, args) = rest.split_first()?;
    let name = command.rsplit('/').next().unwrap();
    if name != "skillsift" {
        return None;
    }
    let mut words = Vec::new();
    for a in args {
        if a == "…" || a == "..." {
            continue;
        }
        let (text, bracketed) = match a.strip_prefix('[').and_then(|s| s.strip_suffix(']')) {
            Some(inner) => (inner, true),
            None => match a.strip_prefix('<').and_then(|s| s.strip_suffix('>')) {
                Some(inner) => (inner, true),
                None => (a.as_str(), false),
            },
        };
        let text = text.trim_end_matches('…');
        let upper = text.chars().any(|c| c.is_ascii_uppercase())
            && text
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
        words.push(Word {
            text: text.to_string(),
            placeholder: bracketed || upper || a.contains('…'),
        });
    }
    Some(words)
}

/// Every skillsift command line the docs show: (where, its words).
fn command_lines() -> Vec<(Shown, Vec<Word>)> {
    let mut out = Vec::new();
    for (page, text) in pages() {
        for shown in snippets(&page, &text) {
            // A console block's commands are its `$ ` lines; the rest is output.
            if shown.info == "console" && !shown.text.starts_with("$ ") {
                continue;
            }
            for segment in segments(&shown.text) {
                if let Some(words) = skillsift_args(&segment) {
                    out.push((shown.clone(), words));
                }
            }
        }
    }
    out
}

/// Why the parser refuses a command line, or `None` when it accepts it (a
/// placeholder where a value from a list is wanted counts as accepted).
fn refusal(words: &[Word]) -> Option<String> {
    let known = known_flags();
    for w in words {
        let name = w.text.split('=').next().unwrap();
        if name.starts_with("--") && name.len() > 2 && !known.contains(name) {
            return Some(format!(
                "`{name}` is no flag of skillsift's (an old spelling?)"
            ));
        }
    }
    let argv = std::iter::once("skillsift").chain(words.iter().map(|w| w.text.as_str()));
    let err = match cli::Cli::try_parse_from(argv) {
        Ok(_) => return None,
        Err(e) => e,
    };
    match err.kind() {
        ErrorKind::DisplayHelp
        | ErrorKind::DisplayVersion
        | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
        | ErrorKind::MissingSubcommand => return None,
        ErrorKind::InvalidValue | ErrorKind::ValueValidation => {
            if let Some(ContextValue::String(v)) = err.get(ContextKind::InvalidValue)
                && words.iter().any(|w| w.placeholder && &w.text == v)
            {
                return None;
            }
        }
        // A prose span may name a command without an argument it requires
        // (`skillsift rank`, `skillsift rule`).
        ErrorKind::MissingRequiredArgument => return None,
        _ => {}
    }
    Some(err.render().to_string())
}

#[test]
fn every_command_line_in_the_docs_parses() {
    let lines = command_lines();
    assert!(
        lines.len() >= 60,
        "found only {} skillsift command lines in README.md and docs/",
        lines.len()
    );
    let mut failures = Vec::new();
    for (shown, words) in &lines {
        if let Some(why) = refusal(words) {
            failures.push(format!(
                "{}:{}: `{}`\n    {}",
                shown.page,
                shown.line,
                shown.text,
                why.trim().replace('\n', "\n    ")
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} command lines in the docs are refused by the argument parser:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Every long flag of every subcommand, by its name (a hidden alias, the
/// old spelling of a renamed flag, is not one the docs may show).
fn known_flags() -> BTreeSet<String> {
    fn walk(cmd: &clap::Command, out: &mut BTreeSet<String>) {
        for arg in cmd.get_arguments() {
            if let Some(long) = arg.get_long() {
                out.insert(format!("--{long}"));
            }
        }
        for sub in cmd.get_subcommands() {
            walk(sub, out);
        }
    }
    let mut out = BTreeSet::from(["--help".to_string(), "--version".to_string()]);
    walk(&cli::Cli::command(), &mut out);
    out
}

/// Flags of other programs the docs name in code spans (the agent CLIs,
/// npm, cargo, Chromium): never skillsift's.
const OTHER_TOOLS_FLAGS: &[&str] = &[
    "--allowed",
    "--append-system-prompt",
    "--approve-for-me",
    "--auto",
    "--bare",
    "--dangerously-",
    "--model",
    "--nocapture",
    "--omit",
    "--plugin-dir",
    "--prepare",
    "--output",
    "--skip-trust",
    "--strict-config",
    "--title",
    "--tools",
    "--trust",
    "--yolo",
];

#[test]
fn every_flag_the_docs_name_is_skillsifts() {
    let known = known_flags();
    let flag = regex::Regex::new(r"^(--[a-z][a-z0-9-]*)").unwrap();
    let mut failures = Vec::new();
    for (page, text) in pages() {
        for shown in snippets(&page, &text).into_iter().filter(|s| s.span) {
            let Some(m) = flag.captures(&shown.text) else {
                continue;
            };
            let name = &m[1];
            if !known.contains(name) && !OTHER_TOOLS_FLAGS.contains(&name) {
                failures.push(format!("{}:{}: `{}`", shown.page, shown.line, shown.text));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "the docs name flags skillsift does not have (renamed? add another tool's flag to \
         OTHER_TOOLS_FLAGS):\n{}",
        failures.join("\n")
    );
}

#[test]
fn the_extraction_finds_commands_where_the_docs_show_them() {
    let words = |line: &str| -> Vec<Vec<String>> {
        segments(line)
            .iter()
            .filter_map(|s| skillsift_args(s))
            .map(|w| w.into_iter().map(|w| w.text).collect())
            .collect()
    };
    assert_eq!(
        words("$ skillsift check . --format json | jq .summary"),
        [["check", ".", "--format", "json"]]
    );
    assert_eq!(
        words("uvx skillsift check .            # or: pipx install skillsift"),
        [["check", "."]]
    );
    assert_eq!(
        words("- run: target/debug/skillsift rank \"fix the flaky test\" 2>/dev/null"),
        [["rank", "fix the flaky test"]]
    );
    assert_eq!(words("pip install skillsift"), Vec::<Vec<String>>::new());
    assert_eq!(
        words("skillsift check --behavioral SKILL [ROOT]"),
        [["check", "--behavioral", "SKILL", "ROOT"]]
    );
    assert_eq!(
        words("skillsift merge … --across-clients"),
        [["merge", "--across-clients"]]
    );
    assert_eq!(
        words("echo $(skillsift rank x) && skillsift rules"),
        [vec!["rank", "x"], vec!["rules"]]
    );
    // A refused flag is reported, a placeholder value is not.
    let parsed = |line: &str| {
        let seg = segments(line);
        refusal(&skillsift_args(&seg[0]).unwrap())
    };
    assert!(parsed("skillsift check --no-baseline SKILL").is_some());
    assert!(parsed("skillsift check --behavioral --agent <client>").is_none());
    assert!(parsed("skillsift check --format nothing").is_some());
    assert!(parsed("skillsift check --format FORMAT").is_none());
}

/// The console blocks of docs/ (README.md's tour has its own test in
/// tests/docs.rs): each `$ skillsift …` line is run from the repository's
/// root, and the lines shown under it are lines of its output, in order; a
/// line `…` stands for any lines.
#[test]
fn the_console_blocks_of_the_docs_print_what_they_show() {
    let mut ran = 0;
    let mut failures = Vec::new();
    for (page, markdown) in pages().into_iter().filter(|(p, _)| p != "README.md") {
        let lines: Vec<Shown> = snippets(&page, &markdown)
            .into_iter()
            .filter(|s| s.info == "console")
            .collect();
        let mut i = 0;
        while i < lines.len() {
            let Some(command) = lines[i].text.strip_prefix("$ ") else {
                failures.push(format!(
                    "{}:{}: a console block should start with a `$ ` command",
                    page, lines[i].line
                ));
                i += 1;
                continue;
            };
            let at = lines[i].line;
            let mut shown = Vec::new();
            i += 1;
            while i < lines.len() && !lines[i].text.starts_with("$ ") {
                shown.push(lines[i].text.clone());
                i += 1;
            }
            let segs = segments(command);
            let words = match segs.as_slice() {
                [one] => skillsift_args(one),
                _ => None,
            }
            .unwrap_or_else(|| panic!("{page}:{at}: `{command}` is not one skillsift command"));
            let out = assert_cmd::Command::cargo_bin("skillsift")
                .unwrap()
                .current_dir(root())
                .env("NO_COLOR", "1")
                .env("COLUMNS", "200")
                .args(words.iter().map(|w| &w.text))
                .output()
                .unwrap();
            let printed = format!(
                "{}{}",
                String::from_utf8_lossy(&out.stderr),
                String::from_utf8_lossy(&out.stdout)
            );
            let mut rest = printed.lines();
            for want in shown
                .iter()
                .filter(|l| l.trim() != "…" && !l.trim().is_empty())
            {
                if !rest.any(|l| l.trim_end() == want.trim_end()) {
                    failures.push(format!(
                        "{page}:{at}: `{command}` does not print, in this order:\n    {want}\n  it printed:\n{printed}"
                    ));
                    break;
                }
            }
            ran += 1;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(ran >= 2, "ran {ran} console blocks");
}

/// A path only a clone has: a page of docs/ or ARCHITECTURE.md.
fn names_a_repository_page(text: &str) -> Option<String> {
    let page = regex::Regex::new(r"\bdocs/[A-Za-z0-9_-]+\.md\b|\bARCHITECTURE\.md\b").unwrap();
    page.find(text).map(|m| m.as_str().to_string())
}

/// An installed user has no docs/ and no ARCHITECTURE.md: no help, rule
/// text, error or hint names them (they name `skillsift rule ID`,
/// `skillsift schema …` or `--help` instead).
#[test]
fn no_message_names_a_file_an_installed_user_lacks() {
    let run = |args: &[&str]| {
        let out = assert_cmd::Command::cargo_bin("skillsift")
            .unwrap()
            .args(args)
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    };
    let mut failures = Vec::new();
    let mut check = |what: String, text: &str| {
        if let Some(page) = names_a_repository_page(text) {
            failures.push(format!("{what} names {page}"));
        }
    };
    // Every subcommand's help, and every rule's documentation.
    let cmd = cli::Cli::command();
    check("`skillsift --help`".into(), &run(&["--help"]));
    for sub in cmd.get_subcommands() {
        let name = sub.get_name();
        check(
            format!("`skillsift {name} --help`"),
            &run(&[name, "--help"]),
        );
    }
    let rules = run(&["rules"]);
    let ids: Vec<&str> = rules
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| w.starts_with("SG") && w.len() == 5)
        .collect();
    assert!(
        ids.len() > 100,
        "`skillsift rules` listed {} rules",
        ids.len()
    );
    for id in ids {
        check(format!("`skillsift rule {id}`"), &run(&["rule", id]));
    }
    // Every message and hint: the string literals of the code outside its
    // tests (a comment may name a page: contributors have the clone).
    let mut sources = Vec::new();
    let mut dirs = vec![root().join("src")];
    for entry in std::fs::read_dir(root().join("crates")).unwrap() {
        dirs.push(entry.unwrap().path().join("src"));
    }
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let p = entry.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|e| e == "rs") {
                sources.push(p);
            }
        }
    }
    sources.sort();
    for p in sources {
        let text = std::fs::read_to_string(&p).unwrap();
        let code = text.split("#[cfg(test)]").next().unwrap();
        for (n, line) in code.lines().enumerate() {
            if line.trim_start().starts_with("//") || !line.contains('"') {
                continue;
            }
            let rel = p.strip_prefix(root()).unwrap().display().to_string();
            check(format!("{rel}:{}", n + 1), line);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
