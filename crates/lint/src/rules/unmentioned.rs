//! SG211: files bundled with a skill that SKILL.md never mentions.

use super::context::SkillCtx;
use crate::diag::Diagnostic;
use crate::rule;

rule! {
    /// ## What it does
    /// Notes each file bundled with the skill that nothing the agent reads
    /// mentions: neither its path, nor its file name, nor a folder holding
    /// it (`assets/`, `references/forms/`) appears in SKILL.md (code blocks
    /// included), nor in a bundled file that SKILL.md (or such a file)
    /// mentions. A guide that names the rest counts, and so does a
    /// mentioned script that uses a file: `validate.py` naming
    /// `ISO-IEC29500-4_2016/wml.xsd`, an `.xsd` importing another, a
    /// Python script importing `helpers.merge_runs`, a shell script
    /// unpacking `shadcn-components.tar.gz`. Every file of the skill
    /// folder is looked at, wherever it is; left alone: `LICENSE`,
    /// `README`, `CHANGELOG` and `NOTICE` files, a package's manifest and
    /// lock files (`package.json`, `requirements.txt`, `pyproject.toml`,
    /// …), Codex's `agents/openai.yaml`, Python byte code, `__init__.py`,
    /// dot files and `__pycache__/`, a developer's tests and test data
    /// (`tests/`, `fixtures/`, `test_*.py`, `*.test.ts`), and files of
    /// trigger tests or evals (read by skillsift, or named by SG437 and
    /// SG438). A vendored tree (a Python package, a folder with its own
    /// manifest, `vendor/`, `third_party/`) is one finding for the whole
    /// tree. Past 20 findings in one skill, one more counts the rest.
    ///
    /// A notice: the specification does not ask for it; it is there to
    /// show a reviewer what ships unexplained.
    ///
    /// ## Why is this bad?
    /// The agent only learns what SKILL.md tells it: a file nobody points
    /// to is never read or run, yet it ships with the skill, code nobody
    /// reviews included.
    ///
    /// ## Example
    /// `scripts/cleanup.sh` in a skill whose SKILL.md only mentions
    /// `scripts/upload.py`. Say when to use it (``run `scripts/cleanup.sh`
    /// after …``), or delete it.
    pub static UNMENTIONED = ("SG211", "unmentioned-bundled-file", Notice, "a bundled file is never mentioned in SKILL.md", taste);
}

/// Findings per skill before the rest are counted in one.
const MAX_PER_SKILL: usize = 20;

/// Files a skill ships for people (any extension), not for the agent.
const FOR_PEOPLE: &[&str] = &[
    "license",
    "licence",
    "readme",
    "changelog",
    "notice",
    "authors",
    "contributing",
];

/// A package's manifest and lock files, read by package tools.
const MANIFESTS: &[&str] = &[
    "package.json",
    "package-lock.json",
    "pnpm-lock.yaml",
    "yarn.lock",
    "bun.lockb",
    "tsconfig.json",
    "requirements.txt",
    "pyproject.toml",
    "poetry.lock",
    "uv.lock",
    "setup.py",
    "setup.cfg",
    "cargo.toml",
    "cargo.lock",
    "go.mod",
    "go.sum",
    "gemfile",
    "gemfile.lock",
];

fn ignored(f: &str) -> bool {
    let name = f.rsplit('/').next().unwrap_or(f);
    let lower = name.to_ascii_lowercase();
    let stem = lower.split('.').next().unwrap_or(&lower);
    name.starts_with('.')
        || name == "__init__.py"
        || name.ends_with(".pyc")
        || f == "agents/openai.yaml"
        || MANIFESTS.contains(&lower.as_str())
        || FOR_PEOPLE.contains(&stem)
        || f.split('/')
            .any(|c| c == "__pycache__" || c == "node_modules" || c.starts_with('.'))
}

/// Mentioned files read for the mentions they hold, at most.
/// Whether a bundled file is a developer's test or test data (`tests/`,
/// `fixtures/`, `test_x.py`, `x.test.ts`, `conftest.py`): run by whoever
/// maintains the skill, never read by the agent.
fn for_tests(f: &str) -> bool {
    let mut parts: Vec<&str> = f.split('/').collect();
    let name = parts.pop().unwrap_or(f).to_ascii_lowercase();
    parts.iter().any(|p| {
        matches!(
            p.to_ascii_lowercase().as_str(),
            "tests" | "test" | "__tests__" | "fixtures" | "testdata" | "test_data" | "spec"
        )
    }) || name == "conftest.py"
        || (name.starts_with("test_") && name.ends_with(".py"))
        || name.ends_with("_test.py")
        || name.ends_with("_test.go")
        || [".test.", ".spec."].iter().any(|m| name.contains(m))
}

/// The roots of the vendored trees among a skill's files (relative to its
/// folder): a Python package whose parent is not one (`lib/pdfkit/` with
/// its `__init__.py`), a folder below the skill's own with a manifest of
/// its own (`package.json`, `pyproject.toml`, `setup.py`, `Cargo.toml`,
/// `go.mod`), or a folder named `vendor`, `vendored`, `third_party` or
/// `site-packages`. Sorted, none inside another.
fn vendored_roots(files: &[String]) -> Vec<String> {
    use std::collections::BTreeSet;
    let set: BTreeSet<&str> = files.iter().map(String::as_str).collect();
    let mut roots: BTreeSet<String> = BTreeSet::new();
    for f in files {
        let Some((dir, name)) = f.rsplit_once('/') else {
            continue;
        };
        let lower = name.to_ascii_lowercase();
        if name == "__init__.py" {
            // the outermost package
            let mut top = dir;
            while let Some((parent, _)) = top.rsplit_once('/') {
                if set.contains(format!("{parent}/__init__.py").as_str()) {
                    top = parent;
                } else {
                    break;
                }
            }
            roots.insert(top.to_string());
        } else if [
            "package.json",
            "pyproject.toml",
            "setup.py",
            "cargo.toml",
            "go.mod",
        ]
        .contains(&lower.as_str())
        {
            roots.insert(dir.to_string());
        }
        let mut at = String::new();
        for part in dir.split('/') {
            if !at.is_empty() {
                at.push('/');
            }
            at.push_str(part);
            if ["vendor", "vendored", "third_party", "site-packages"]
                .contains(&part.to_ascii_lowercase().as_str())
            {
                roots.insert(at.clone());
                break;
            }
        }
    }
    let all: Vec<String> = roots.into_iter().collect();
    all.iter()
        .filter(|r| {
            !all.iter()
                .any(|o| o != *r && r.starts_with(&format!("{o}/")))
        })
        .cloned()
        .collect()
}

const MAX_READ: usize = 200;
/// Bytes read of each.
const MAX_READ_BYTES: u64 = 256 * 1024;

/// Extensions of scripts that name another by its module path
/// (`from helpers.merge_runs import …`, `require('./lib/util')`).
const MODULES: &[&str] = &[".py", ".js", ".mjs", ".cjs", ".ts"];

/// A text read for mentions: `/` for `\\`, and lowercased.
struct Text<'a> {
    text: std::borrow::Cow<'a, str>,
    /// Read from a bundled file that is not Markdown.
    from_script: bool,
}

impl<'a> Text<'a> {
    /// `text` with `/` for `\` (copied only when it holds a `\`).
    fn new(text: impl Into<std::borrow::Cow<'a, str>>, from_script: bool) -> Text<'a> {
        let mut text = text.into();
        if memchr::memchr(b'\\', text.as_bytes()).is_some() {
            text = std::borrow::Cow::Owned(text.replace('\\', "/"));
        }
        Text { text, from_script }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Stand {
    /// Anywhere (a file's whole path).
    Anywhere,
    /// As a whole file name ([`word_at`]).
    Word,
    /// As a whole file name, in a text read from a script only.
    ScriptWord,
    /// A folder written with its `/`, not as the start of a longer path.
    Folder,
    /// A folder written without its `/` ([`bare_folder_at`]).
    BareFolder,
}

/// The strings whose mention in a text mentions a bundled file: every
/// candidate's needles, each string once with the candidates it speaks
/// for, searched in one pass over a text (issue 49: one scan, not one per
/// file and needle).
struct Needles {
    /// The needles searched in the text as written.
    exact: Vec<String>,
    /// The same in one automaton, built once per skill when there are
    /// more than [`FEW`] (fewer are searched one by one, with memmem).
    exact_ac: Option<aho_corasick::AhoCorasick>,
    /// For each exact needle, `(candidate, how it must stand)`.
    exact_for: Vec<Vec<(usize, Stand)>>,
    /// Lowercased file names searched in the lowercased text (`FORMS.md`
    /// for `forms.md`), each standing as a [`Stand::Word`].
    lower: Vec<String>,
    lower_ac: Option<aho_corasick::AhoCorasick>,
    lower_for: Vec<Vec<usize>>,
}

/// Needles searched one by one (a vectorised search each) rather than by
/// an automaton built for them: most skills bundle a few files, and
/// building an automaton took longer than searching.
const FEW: usize = 16;

/// Every occurrence of each needle in `text`, overlapping ones included:
/// `(needle, start, end)`, by needle; `f` returns `true` to stop.
fn each_occurrence(
    needles: &[String],
    ac: Option<&aho_corasick::AhoCorasick>,
    text: &str,
    mut f: impl FnMut(usize, usize, usize) -> bool,
) {
    match ac {
        Some(ac) => {
            for m in ac.find_overlapping_iter(text) {
                if f(m.pattern().as_usize(), m.start(), m.end()) {
                    return;
                }
            }
        }
        None => {
            for (p, n) in needles.iter().enumerate() {
                for i in memchr::memmem::find_iter(text.as_bytes(), n.as_bytes()) {
                    if f(p, i, i + n.len()) {
                        return;
                    }
                }
            }
        }
    }
}

impl Needles {
    fn new(candidates: &[&str], packages: &[&str]) -> Needles {
        use std::collections::HashMap;
        let mut exact: HashMap<String, Vec<(usize, Stand)>> = HashMap::new();
        let mut lower: HashMap<String, Vec<usize>> = HashMap::new();
        for (c, f) in candidates.iter().enumerate() {
            let mut add = |needle: &str, stand: Stand| {
                if !needle.is_empty() {
                    let v = exact.entry(needle.to_string()).or_default();
                    if !v.contains(&(c, stand)) {
                        v.push((c, stand));
                    }
                }
            };
            let name = f.rsplit('/').next().unwrap_or(f);
            add(f, Stand::Anywhere);
            add(name, Stand::Word);
            for (i, _) in f.match_indices('/') {
                let folder = &f[..=i];
                for folder in [folder, last_folder(folder)] {
                    add(folder, Stand::Folder);
                    add(&folder[..folder.len() - 1], Stand::BareFolder);
                }
            }
            // `scripts/check_fields` for `scripts/check_fields.py`
            if let Some((path, _)) = f.rsplit_once('.')
                && path.contains('/')
            {
                add(path, Stand::Word);
            }
            if let Some(stem) = MODULES.iter().find_map(|e| f.strip_suffix(e)) {
                // `core.gif_builder` for `core/gif_builder.py`: a module
                // path of two parts or more, from any text
                let dotted = stem.replace('/', ".");
                let starts =
                    std::iter::once(0).chain(dotted.match_indices('.').map(|(i, _)| i + 1));
                for at in starts.filter(|&at| dotted[at..].contains('.')) {
                    add(&dotted[at..], Stand::Word);
                }
                // from a script: the module by its bare name, or the
                // package (a folder with `__init__.py`) that holds it
                let bare = stem.rsplit('/').next().unwrap_or(stem);
                if bare.len() >= 3 {
                    add(bare, Stand::ScriptWord);
                }
                for p in packages {
                    if f.starts_with(&format!("{p}/")) {
                        add(p.rsplit('/').next().unwrap_or(p), Stand::ScriptWord);
                    }
                }
            }
            // `FORMS.md` for `forms.md`: mentioned, whatever SG210 says of
            // the case
            if name.contains('.') && name.len() >= 6 {
                let v = lower.entry(name.to_ascii_lowercase()).or_default();
                if !v.contains(&c) {
                    v.push(c);
                }
            }
        }
        let mut exact: Vec<_> = exact.into_iter().collect();
        exact.sort();
        let mut lower: Vec<_> = lower.into_iter().collect();
        lower.sort();
        let (exact, exact_for): (Vec<String>, _) = exact.into_iter().unzip();
        let (lower, lower_for): (Vec<String>, _) = lower.into_iter().unzip();
        // a contiguous NFA: quick to build for the few texts a skill has
        let build = |needles: &[String]| {
            if needles.len() <= FEW {
                return None;
            }
            aho_corasick::AhoCorasick::builder()
                .kind(Some(aho_corasick::AhoCorasickKind::ContiguousNFA))
                .build(needles)
                .ok()
        };
        Needles {
            exact_ac: build(&exact),
            lower_ac: build(&lower),
            exact,
            lower,
            exact_for,
            lower_for,
        }
    }

    /// Mark in `mentioned` every candidate `t` mentions; the newly
    /// mentioned are pushed to `found`.
    fn scan(&self, t: &Text, mentioned: &mut [bool], found: &mut Vec<usize>) {
        // the search stops once every candidate is mentioned
        let mut left = mentioned.iter().filter(|m| !**m).count();
        let mut mark = |mentioned: &mut [bool], c: usize| {
            if !mentioned[c] {
                mentioned[c] = true;
                found.push(c);
                left -= 1;
            }
            left == 0
        };
        // which needle stands where does not depend on the order the
        // occurrences are met in: each marks its candidates
        let mut done = false;
        each_occurrence(&self.exact, self.exact_ac.as_ref(), &t.text, |p, i, end| {
            for &(c, stand) in &self.exact_for[p] {
                if mentioned[c] {
                    continue;
                }
                let ok = match stand {
                    Stand::Anywhere => true,
                    Stand::Word => word_at(&t.text, i, end),
                    Stand::ScriptWord => t.from_script && word_at(&t.text, i, end),
                    Stand::Folder => folder_at(&t.text, i, end),
                    Stand::BareFolder => bare_folder_at(&t.text, i, end),
                };
                if ok && mark(mentioned, c) {
                    done = true;
                    return true;
                }
            }
            false
        });
        if done || self.lower.is_empty() {
            return;
        }
        let lower = t.text.to_ascii_lowercase();
        each_occurrence(&self.lower, self.lower_ac.as_ref(), &lower, |p, i, end| {
            word_at(&lower, i, end) && self.lower_for[p].iter().any(|&c| mark(mentioned, c))
        });
    }
}

/// Whether `text` mentions the bundled file `f`: its path, its file name
/// (whole), or a folder holding it written with its `/`; from a script,
/// a script's module name too.
#[cfg(test)]
fn mentions(t: &Text, f: &str, packages: &[&str]) -> bool {
    let mut mentioned = [false];
    Needles::new(&[f], packages).scan(t, &mut mentioned, &mut Vec::new());
    mentioned[0]
}

/// `references/forms/` gives `forms/`.
fn last_folder(folder: &str) -> &str {
    let inner = &folder[..folder.len() - 1];
    match inner.rfind('/') {
        Some(i) => &folder[i + 1..],
        None => folder,
    }
}

/// A character of a path: a folder is mentioned only where none is next
/// to it.
fn in_path(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '/')
}

/// The folder `text[i..end]` (ending in `/`) stands by itself, not as the
/// start of a path to one of its files (`scripts/` but not
/// `scripts/run.sh`).
fn folder_at(text: &str, i: usize, end: usize) -> bool {
    !text[..i].chars().next_back().is_some_and(in_path)
        && !text[end..].chars().next().is_some_and(in_path)
}

/// The folder `text[i..end]`, written without its `/`, counts as
/// `./canvas-fonts`, as `` `canvas-fonts` `` or before the word
/// "directory" or "folder".
fn bare_folder_at(text: &str, i: usize, end: usize) -> bool {
    let (before, after) = (&text[..i], &text[end..]);
    if after.chars().next().is_some_and(in_path) {
        return false;
    }
    before.ends_with("./")
        || (before.ends_with('`') && after.starts_with('`'))
        || (!before.chars().next_back().is_some_and(in_path)
            && [" directory", " folder", " dir"]
                .iter()
                .any(|w| after.starts_with(w)))
}

#[cfg(test)]
fn mentions_folder(text: &str, folder: &str) -> bool {
    (text.match_indices(folder)).any(|(i, _)| folder_at(text, i, i + folder.len()))
        || (text.match_indices(&folder[..folder.len() - 1]))
            .any(|(i, _)| bare_folder_at(text, i, i + folder.len() - 1))
}

pub fn check(s: &SkillCtx, out: &mut Vec<Diagnostic>) {
    let dir = &s.skill.rel_dir;
    let candidates: Vec<&str> = s
        .skill
        .files
        .iter()
        .map(String::as_str)
        .filter(|f| !ignored(f))
        .collect();
    if candidates.is_empty() {
        return;
    }
    // SKILL.md, then every bundled file a text read so far mentions (the
    // guide SKILL.md links to may name the rest, a script the files it
    // uses); Windows separators read as `/` (a wrong separator is SG210's)
    // folders that are Python packages: a script importing one uses its
    // modules
    let packages: Vec<&str> = s
        .skill
        .files
        .iter()
        .filter_map(|f| f.strip_suffix("/__init__.py"))
        .collect();
    let needles = Needles::new(&candidates, &packages);
    let mut texts = vec![Text::new(s.src.text.as_str(), false)];
    let mut mentioned = vec![false; candidates.len()];
    let mut found = Vec::new();
    let mut read = 0;
    let mut next = 0;
    while next < texts.len() && mentioned.contains(&false) {
        let text = std::mem::replace(&mut texts[next], Text::new("", false));
        next += 1;
        found.clear();
        needles.scan(&text, &mut mentioned, &mut found);
        // in the candidates' order, as read before
        found.sort_unstable();
        for &i in &found {
            if read >= MAX_READ {
                continue;
            }
            let from_script = !candidates[i].ends_with(".md");
            // the text the other rules read, when the file was read for
            // them; else read here (a large or not UTF-8 file)
            if let Some(o) = s.others.iter().find(|o| o.rel == candidates[i]) {
                let text = o.src.text.as_str();
                let cut = crate::diag::floor_char_boundary(text, MAX_READ_BYTES as usize);
                read += 1;
                texts.push(Text::new(&text[..cut], from_script));
            } else if let Some(t) = super::text::head(s.skill, candidates[i], MAX_READ_BYTES) {
                read += 1;
                texts.push(Text::new(t, from_script));
            }
        }
    }
    let unmentioned: Vec<&str> = candidates
        .iter()
        .zip(&mentioned)
        .filter(|(_, m)| !**m)
        .map(|(f, _)| *f)
        .collect();
    // a developer's test files are not the agent's to read: none; a
    // vendored tree (a package, a folder with its own manifest, `vendor/`)
    // is one finding for the whole tree
    let trees = vendored_roots(&s.skill.files);
    let mut per_tree: std::collections::BTreeMap<&str, Vec<&str>> = Default::default();
    let mut single: Vec<&str> = Vec::new();
    for f in unmentioned.into_iter().filter(|f| !for_tests(f)) {
        match trees.iter().find(|t| f.starts_with(&format!("{t}/"))) {
            Some(t) => per_tree.entry(t.as_str()).or_default().push(f),
            None => single.push(f),
        }
    }
    for (tree, files) in per_tree {
        out.push(
            UNMENTIONED
                .diag(
                    crate::catalog::discover::join_rel(dir, files[0]),
                    format!(
                        "`{tree}/` is bundled with the skill ({} of its files, a package or vendored tree), but SKILL.md never mentions it: the agent never learns it exists",
                        files.len()
                    ),
                )
                .with_help(format!(
                    "say in SKILL.md what `{tree}/` is for (the scripts that use it, or when to read it), or delete it"
                )),
        );
    }
    // every one: [`finish`] leaves out the skill's case files and counts
    // what is past [`MAX_PER_SKILL`]
    for f in single {
        out.push(
            UNMENTIONED
                .diag(
                    crate::catalog::discover::join_rel(dir, f),
                    format!("`{f}` is bundled with the skill, but SKILL.md never mentions it: the agent never learns it exists"),
                )
                .with_help(format!(
                    "say in SKILL.md when to read or run `{f}`, or delete it"
                )),
        );
    }
}

/// Once the catalog's case files are known: drop the findings on the
/// skill's case files (trigger tests and evals are skillsift's to read,
/// not the agent's), keep the first [`MAX_PER_SKILL`] and count the rest
/// in one more finding, on the first file left out (so that it follows the
/// ones shown).
pub fn finish(
    catalog: &crate::catalog::Catalog,
    skill: &crate::catalog::Skill,
    out: &mut Vec<Diagnostic>,
) {
    // every case source, whichever skill its prompts are for (a
    // `skill-tests.yaml` in one skill's folder tests its siblings)
    let cases: std::collections::HashSet<&str> = catalog
        .case_sources
        .iter()
        .map(|c| c.file.as_str())
        .chain(catalog.cases.iter().map(|c| c.file.as_str()))
        // trigger tests the readers found and could not route (SG437,
        // SG438): still the tester's file, not the agent's
        .chain(
            catalog
                .diagnostics
                .iter()
                .filter(|d| matches!(d.rule, "SG437" | "SG438"))
                .map(|d| d.file.as_str()),
        )
        .collect();
    out.retain(|d| d.rule != UNMENTIONED.id || !cases.contains(d.file.as_str()));
    let total = out.iter().filter(|d| d.rule == UNMENTIONED.id).count();
    if total <= MAX_PER_SKILL + 1 {
        return;
    }
    let mut kept = 0;
    let mut first_left: Option<String> = None;
    out.retain(|d| {
        if d.rule != UNMENTIONED.id {
            return true;
        }
        kept += 1;
        if kept == MAX_PER_SKILL + 1 {
            first_left = Some(d.file.clone());
        }
        kept <= MAX_PER_SKILL
    });
    if let Some(first) = first_left {
        // on the first file left out, so that it follows the ones shown
        let shown = first
            .strip_prefix(&format!("{}/", skill.rel_dir))
            .unwrap_or(&first)
            .to_string();
        out.push(
            UNMENTIONED
                .diag(
                    first.as_str(),
                    format!(
                        "`{shown}` and {} more bundled files are never mentioned in SKILL.md",
                        total - MAX_PER_SKILL - 1
                    ),
                )
                .with_help("mention the folder that holds them, or delete them"),
        );
    }
}

/// `text[i..end]` is a whole file name, not part of a longer one (a
/// sentence's full stop may follow it, a `.` or `/` precede it).
fn word_at(text: &str, i: usize, end: usize) -> bool {
    let is_name = |c: char| c.is_alphanumeric() || matches!(c, '_' | '-' | '.');
    let before_ok = !text[..i]
        .chars()
        .next_back()
        .is_some_and(|c| is_name(c) && c != '.');
    let mut after = text[end..].chars();
    let after_ok = match after.next() {
        None => true,
        Some('.') => !after.next().is_some_and(is_name),
        Some(c) => !is_name(c),
    };
    before_ok && after_ok
}

#[cfg(test)]
fn mentions_word(text: &str, name: &str) -> bool {
    (text.match_indices(name)).any(|(i, _)| word_at(text, i, i + name.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The automaton (more than [`FEW`] needles) and the searches one by
    /// one find the same mentions.
    #[test]
    fn many_needles_and_few_find_the_same() {
        let files: Vec<String> = (0..12)
            .map(|i| format!("scripts/tool_{i}.py"))
            .chain(["references/FORMS.md".into(), "assets/logo.png".into()])
            .collect();
        let candidates: Vec<&str> = files.iter().map(String::as_str).collect();
        let text = Text::new(
            "Run scripts/tool_3.py, then `tool_7.py`; see forms.md and the assets/ folder. \
             tools.tool_9 and scripts\\tool_11.py",
            false,
        );
        let by_ac = Needles::new(&candidates, &[]);
        assert!(by_ac.exact_ac.is_some() && by_ac.lower_ac.is_none());
        let mut one_by_one = Needles::new(&candidates, &[]);
        one_by_one.exact_ac = None;
        let scan = |n: &Needles| {
            let mut mentioned = vec![false; candidates.len()];
            n.scan(&text, &mut mentioned, &mut Vec::new());
            mentioned
        };
        let found = scan(&by_ac);
        assert_eq!(found, scan(&one_by_one));
        let named: Vec<&str> = (candidates.iter().zip(&found))
            .filter(|(_, m)| **m)
            .map(|(c, _)| *c)
            .collect();
        assert_eq!(
            named,
            [
                "scripts/tool_3.py",
                "scripts/tool_7.py",
                "scripts/tool_11.py",
                "references/FORMS.md",
                "assets/logo.png"
            ]
        );
    }

    #[test]
    fn a_name_is_mentioned_only_whole() {
        assert!(mentions_word("run upload.py.", "upload.py"));
        assert!(mentions_word("`upload.py`", "upload.py"));
        assert!(!mentions_word("run upload.py2", "upload.py"));
        assert!(!mentions_word("run my_upload.py", "upload.py"));
        assert!(mentions_folder("templates live in `assets/`.", "assets/"));
        assert!(!mentions_folder("run `scripts/fill.py`", "scripts/"));
        assert!(!mentions_folder("see my-assets/", "assets/"));
        assert!(ignored("scripts/__pycache__/a.pyc"));
        assert!(ignored("scripts/.DS_Store"));
        assert!(!ignored("scripts/a.py"));
        assert!(ignored("LICENSE.txt") && ignored("scripts/package.json"));
        assert!(ignored("agents/openai.yaml") && !ignored("forms.md"));
        assert!(mentions(
            &Text::new("from helpers.merge_runs import merge", true),
            "scripts/office/helpers/merge_runs.py",
            &[]
        ));
        assert!(!mentions(
            &Text::new("then merge_runs tidies up", false),
            "scripts/office/helpers/merge_runs.py",
            &[]
        ));
        assert!(mentions(
            &Text::new("\"word\": \"ISO-IEC29500-4_2016/wml.xsd\"", true),
            "scripts/office/schemas/ISO-IEC29500-4_2016/wml.xsd",
            &[]
        ));
        assert!(mentions(
            &Text::new("everything under `schemas/` is loaded", false),
            "scripts/office/schemas/ISO-IEC29500-4_2016/wml.xsd",
            &[]
        ));
        assert!(mentions(
            &Text::new("from validators import Base", true),
            "scripts/office/validators/base.py",
            &["scripts/office/validators"]
        ));
        assert!(mentions(
            &Text::new("Search the `./canvas-fonts` directory.", false),
            "canvas-fonts/Geist-OFL.txt",
            &[]
        ));
        assert!(mentions(
            &Text::new("read FORMS.md first", false),
            "forms.md",
            &[]
        ));
    }
}
