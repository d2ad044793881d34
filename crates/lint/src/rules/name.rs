//! The `name` field: present, well formed, equal to the folder name.

use super::context::{SkillCtx, value_or_key_span};
use crate::catalog::skill::Entry;
use crate::catalog::yaml::Node;
use crate::diag::Diagnostic;
use crate::rule;
use unicode_normalization::UnicodeNormalization;

/// Longest name the specification allows, in characters.
pub const MAX_NAME_CHARS: usize = 64;

rule! {
    /// ## What it does
    /// Requires a `name` in the frontmatter that is a non-empty string.
    /// A value YAML reads as another type (`name: true`, `name: 123`,
    /// `name: [a]`) is reported with the type YAML gives it.
    ///
    /// ## Why is this bad?
    /// The Agent Skills specification makes `name` required; clients list
    /// and invoke skills by it, and skip or reject a skill without one.
    ///
    /// ## Example
    /// ```yaml
    /// name: pdf-forms
    /// ```
    pub static NAME_REQUIRED = ("SG101", "name-required", Error, "`name` is missing, empty or not a string");
}

rule! {
    /// ## What it does
    /// Checks `name` against the specification: 1 to 64 characters (after
    /// NFKC normalisation), only lowercase letters, digits and hyphens
    /// (Unicode lowercase letters are allowed, as in the reference
    /// validator `skills-ref`), no hyphen at the start or end, no two
    /// hyphens in a row.
    ///
    /// ## Why is this bad?
    /// Clients use the name as an identifier (a slash command, a folder, a
    /// tool argument); names outside the specification are rejected or
    /// mangled differently by each client.
    ///
    /// ## Example
    /// `name: PDF_Forms` → `name: pdf-forms`.
    pub static NAME_FORMAT = ("SG102", "name-format", Error, "`name` breaks the specification's naming rules");
}

rule! {
    /// ## What it does
    /// Requires `name` to equal the skill's folder name, comparing both after
    /// NFKC normalisation.
    ///
    /// ## Why is this bad?
    /// The specification requires the match; clients that find skills by
    /// folder and clients that use `name` would otherwise disagree on what
    /// the skill is called.
    ///
    /// ## Example
    /// `skills/pdf-forms/SKILL.md` must say `name: pdf-forms`.
    ///
    /// ## Fix
    /// Unsafe fix (`--unsafe-fixes`), when the folder's name is a valid
    /// name and `name` is on one line: set `name` to the folder's name. It
    /// changes the name Codex, Gemini CLI and opencode list, and whatever
    /// refers to the old name; folders are never renamed.
    pub static NAME_FOLDER_MISMATCH = ("SG103", "name-folder-mismatch", Error, "`name` differs from the folder name");
}

/// Whether `c` may appear in a name (after NFKC): a letter or digit that
/// lowercasing leaves unchanged, or a hyphen.
fn allowed_char(c: char) -> bool {
    c == '-' || (c.is_alphanumeric() && !c.is_uppercase())
}

/// A human description of the YAML value's type, with a short excerpt.
pub fn describe_value(node: &Node) -> String {
    let ty = node.type_name();
    let article = if ty.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    match node.scalar_text() {
        Some(t) if !t.is_empty() => {
            let short: String = t.chars().take(40).collect();
            format!("{article} {ty} (`{short}`)")
        }
        _ => format!("{article} {ty}"),
    }
}

pub fn check(s: &SkillCtx, out: &mut Vec<Diagnostic>) {
    let Some(fm) = s.fm else { return };
    let file = s.file();
    let Some(entry) = fm.get("name") else {
        out.push(
            NAME_REQUIRED
                .diag(file, "frontmatter has no `name`")
                .with_span_opt(s.frontmatter_open_span())
                .with_help(format!(
                    "add `name: {}` (lowercase letters, digits and hyphens, matching the folder)",
                    suggest_name(&s.skill.folder)
                )),
        );
        return;
    };
    let empty = |out: &mut Vec<Diagnostic>| {
        out.push(
            NAME_REQUIRED
                .diag(file, "`name` is empty")
                .with_span(entry.value_span)
                .with_help(format!(
                    "write the skill's name, e.g. `name: {}`",
                    suggest_name(&s.skill.folder)
                )),
        );
    };
    if entry.value.is_null() {
        return empty(out);
    }
    let Some(name) = entry.value.as_str() else {
        let quoted = entry
            .value
            .scalar_text()
            .map(|t| format!("quote it (`name: \"{t}\"`) or "))
            .unwrap_or_default();
        out.push(
            NAME_REQUIRED
                .diag(
                    file,
                    format!("`name` is {}, not a string", describe_value(&entry.value)),
                )
                .with_span(value_or_key_span(entry))
                .with_label(format!("YAML reads this as a {}", entry.value.type_name()))
                .with_help(format!(
                    "{quoted}use a lowercase, hyphenated name such as `name: {}`",
                    suggest_name(&s.skill.folder)
                )),
        );
        return;
    };
    if name.trim().is_empty() {
        return empty(out);
    }
    // a name that breaks the rules has one finding, whose help also mends
    // the folder mismatch
    if !format_checks(s, entry, name, out) {
        folder_check(s, entry, name, out);
    }
}

/// A name built from a folder name, for help texts.
fn suggest_name(folder: &str) -> String {
    let mut out = String::new();
    for c in folder.nfkc().flat_map(char::to_lowercase) {
        if allowed_char(c) {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    let out = out.trim_matches('-').to_string();
    if out.is_empty() {
        "my-skill".into()
    } else {
        out.chars().take(MAX_NAME_CHARS).collect()
    }
}

/// Every way `name` breaks the naming rules, as one finding: one cause,
/// one finding, however many characters are wrong. When the name breaks
/// them and also differs from the folder, the help names the one value
/// that mends both (the folder's name, when it is valid), and no SG103
/// follows. Returns whether a finding was made.
fn format_checks(s: &SkillCtx, entry: &Entry, name: &str, out: &mut Vec<Diagnostic>) -> bool {
    let file = s.file();
    let norm: String = name.nfkc().collect();
    let at = s.verbatim_start(&entry.value);
    // Span of the first char of the raw value matching `pred`, else the value.
    let point = |pred: &dyn Fn(usize, char) -> bool| {
        if let Some(base) = at
            && let Some((i, c)) = name.char_indices().find(|&(i, c)| pred(i, c))
        {
            return s.span(base + i, base + i + c.len_utf8());
        }
        entry.value_span
    };
    // (what is wrong, where, its label)
    let mut problems: Vec<(String, crate::diag::Span, &str)> = Vec::new();
    let len = norm.chars().count();
    if len > MAX_NAME_CHARS {
        problems.push((
            format!("it is {len} characters, more than the {MAX_NAME_CHARS} allowed"),
            entry.value_span,
            "too long",
        ));
    }
    if norm.chars().any(|c| c.is_uppercase()) {
        problems.push((
            "it must be lowercase".to_string(),
            point(&|_, c| c.is_uppercase()),
            "uppercase",
        ));
    }
    let mut bad: Vec<char> = norm
        .chars()
        .filter(|&c| !allowed_char(c) && !c.is_uppercase())
        .collect();
    bad.sort_unstable();
    bad.dedup();
    if !bad.is_empty() {
        let list = bad
            .iter()
            .take(5)
            .map(|c| match c {
                ' ' => "space".to_string(),
                '\t' => "tab".to_string(),
                c => format!("`{c}`"),
            })
            .collect::<Vec<_>>()
            .join(", ");
        problems.push((
            format!("it contains {list}: only lowercase letters, digits and hyphens are allowed"),
            point(&|_, c| {
                let n: String = c.to_string().nfkc().collect();
                n.chars().any(|c| !allowed_char(c) && !c.is_uppercase())
            }),
            "not allowed",
        ));
    }
    if norm.starts_with('-') || norm.ends_with('-') {
        let end = name.len().saturating_sub(1);
        problems.push((
            "it starts or ends with a hyphen".to_string(),
            point(&|i, c| c == '-' && (i == 0 || i == end)),
            "hyphen at the edge",
        ));
    }
    if norm.contains("--") {
        problems.push((
            "it has two hyphens in a row".to_string(),
            point(&|i, c| c == '-' && name[i + 1..].starts_with('-')),
            "two hyphens",
        ));
    }
    let Some((_, first_span, first_label)) = problems.first().cloned() else {
        return false;
    };
    let folder = &s.skill.folder;
    let folder_norm: String = folder.nfkc().collect();
    let help = if !folder.is_empty() && is_valid(&folder_norm) {
        format!("write `name: {folder_norm}`, the folder's name")
    } else if folder.is_empty() {
        format!("write `name: {}`", suggest_name(name))
    } else {
        format!(
            "write `name: {}` and rename the folder to match",
            suggest_name(name)
        )
    };
    let what: Vec<String> = problems.iter().map(|p| p.0.clone()).collect();
    let (span, label) = if problems.len() == 1 {
        (first_span, first_label.to_string())
    } else {
        (
            entry.value_span,
            format!("{first_label}, and {} more", problems.len() - 1),
        )
    };
    out.push(
        NAME_FORMAT
            .diag(
                file,
                format!(
                    "`name` `{name}` breaks the naming rules: {}",
                    what.join("; ")
                ),
            )
            .with_span(span)
            .with_label(label)
            .with_help(help),
    );
    true
}

fn folder_check(s: &SkillCtx, entry: &Entry, name: &str, out: &mut Vec<Diagnostic>) {
    let folder = &s.skill.folder;
    if folder.is_empty() {
        return;
    }
    let a: String = name.trim().nfkc().collect();
    let b: String = folder.nfkc().collect();
    if a == b {
        return;
    }
    let help = match (is_valid(&a), is_valid(&b)) {
        (true, true) => format!("rename the folder to `{a}`, or set `name: {b}`"),
        (true, false) => format!("rename the folder to `{a}`"),
        (false, true) => format!("set `name: {b}`"),
        (false, false) => format!(
            "set `name: {}` and rename the folder to match",
            suggest_name(folder)
        ),
    };
    let mut d = NAME_FOLDER_MISMATCH
        .diag(
            s.file(),
            match super::mixed_script::lookalike_difference(name, folder) {
                // the two print the same: say where they differ
                Some(diff) => format!(
                    "`name` is `{name}` but the folder is `{folder}`, which looks the same and is not: {diff}"
                ),
                None => format!("`name` is `{name}` but the folder is `{folder}`"),
            },
        )
        .with_span(entry.value_span)
        .with_label(format!("folder is `{folder}`"))
        .with_help(help);
    let span = entry.value_span;
    // the value exactly as written, plain or quoted, nothing after it
    let written = s
        .src
        .text
        .get(span.start..span.end)
        .map(|t| t.trim_end_matches([' ', '\t', '\r']))
        .filter(|t| *t == name || *t == format!("\"{name}\"") || *t == format!("'{name}'"));
    if let Some(written) = written.filter(|_| is_valid(&b) && b == *folder) {
        d = d.with_fix(
            crate::diag::Fix::new(
                crate::diag::Applicability::Unsafe,
                format!("set `name: {b}`, the folder's name"),
                span.start,
                span.start + written.len(),
                b.clone(),
            )
            .repairing_name(b.clone()),
        );
    }
    out.push(d);
}

/// Whether an (NFKC-normalised) name meets every format rule.
fn is_valid(n: &str) -> bool {
    !n.is_empty()
        && n.chars().count() <= MAX_NAME_CHARS
        && n.chars().all(allowed_char)
        && !n.starts_with('-')
        && !n.ends_with('-')
        && !n.contains("--")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unicode_lowercase_letters_are_allowed() {
        assert!("données-2".chars().all(allowed_char));
        assert!("技能".chars().all(allowed_char));
        assert!(!"Données".chars().all(allowed_char));
        assert!(!"a_b".chars().all(allowed_char));
    }

    #[test]
    fn suggested_names_are_valid() {
        assert_eq!(suggest_name("PDF_Forms  v2"), "pdf-forms-v2");
        assert_eq!(suggest_name("__"), "my-skill");
    }
}
