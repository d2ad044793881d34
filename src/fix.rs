//! `skillsift check --fix`, `--diff`, `--unsafe-fixes`: apply the
//! [`Fix`]es that rules attach to their findings.
//!
//! The fixer works on the loaded catalog in memory, in bounded passes: lint,
//! take every applicable fix (safe ones; unsafe ones too with
//! `--unsafe-fixes`), apply the non-overlapping ones of each SKILL.md,
//! re-read the changed files, and lint again until no fix applies. Before a
//! pass is kept, every modelled client's listing (the specification, Claude
//! Code, Codex, Gemini CLI, opencode) is computed for the changed catalog
//! and compared with the listing before the first pass: an entry may only
//! change as the applied fixes' [`Repair`]s say (a description or name the
//! fix names, or a frontmatter that now parses). A file whose fixes change
//! anything else is put back and those fixes are refused (reported, never
//! written). Only at the end are the changed files written (`--fix`) or
//! shown as a unified diff (`--diff`); a file no fix touched is never
//! written. Edits never add or remove line breaks, so a file keeps its line
//! ends.

use crate::catalog::{Catalog, Skill};
use crate::client::{ClientId, ClientIdExt, Entry, EntryKind};
use crate::config::Config;
use crate::diag::{Applicability, Diagnostic, Fix, Repair};
use crate::exit::Fatal;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

/// Most passes over the catalog before the fixer stops.
pub const MAX_PASSES: usize = 8;

/// What the fixer may apply.
#[derive(Debug, Clone, Copy, Default)]
pub struct Opts {
    /// `--unsafe-fixes`.
    pub unsafe_fixes: bool,
}

/// One applied fix.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Applied {
    pub file: String,
    pub rule: &'static str,
    pub description: String,
}

/// One fix the listing check refused.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Refused {
    pub file: String,
    pub rule: &'static str,
    pub description: String,
    /// What it would have changed in a listing.
    pub why: String,
}

/// What a fixer run did, in memory.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Changed SKILL.md files (relative path → original text, fixed text).
    pub changed: BTreeMap<String, (String, String)>,
    /// Where each changed file is on disk.
    pub paths: BTreeMap<String, std::path::PathBuf>,
    pub applied: Vec<Applied>,
    pub refused: Vec<Refused>,
    /// Passes run.
    pub passes: usize,
    /// Entries of other skills that moved in a listing already over its
    /// budget (each entry a fix made readable takes room from another).
    pub notes: Vec<String>,
}

fn possessive(label: &str) -> String {
    format!("{label}'s")
}

impl Outcome {
    /// Applied fixes per rule id.
    pub fn by_rule(&self) -> BTreeMap<&'static str, usize> {
        let mut m = BTreeMap::new();
        for a in &self.applied {
            *m.entry(a.rule).or_insert(0) += 1;
        }
        m
    }
}

/// Whether `fix` may be applied under `opts`.
pub fn allowed(fix: &Fix, opts: Opts) -> bool {
    fix.applicability == Applicability::Safe || opts.unsafe_fixes
}

/// The findings a `check` would report for `catalog`, before routing:
/// loading and lint findings, with `[lint.rules]` levels applied.
pub fn findings(catalog: &Catalog, config: &Config) -> Result<Vec<Diagnostic>, Fatal> {
    let mut diags = catalog.diagnostics.clone();
    crate::lint::rules::portability::attach_load_fixes(catalog, &mut diags);
    diags.extend(crate::lint::run(catalog, config));
    crate::suppress::apply(&mut diags, catalog, config)?;
    crate::lint::apply_levels(&mut diags, config);
    Ok(diags)
}

/// What a listing entry shows, for comparison.
#[derive(Debug, Clone, PartialEq)]
struct Shown {
    listed: bool,
    name: String,
    text: String,
    name_only: bool,
    alias: Option<String>,
    description: Option<String>,
    reason: Option<String>,
}

fn shown(e: &Entry) -> Shown {
    Shown {
        listed: e.listed,
        name: e.name.clone(),
        text: e.text.clone(),
        name_only: e.name_only,
        alias: e.alias.clone(),
        description: e.description.clone(),
        reason: e.reason.as_ref().map(|r| r.describe()),
    }
}

/// Every modelled client's listing, by client and SKILL.md path, and
/// whether it is over the client's budget.
type Listings = Vec<(ClientId, bool, HashMap<String, Shown>)>;

const MODELLED: [ClientId; 5] = [
    ClientId::Spec,
    ClientId::ClaudeCode,
    ClientId::Codex,
    ClientId::GeminiCli,
    ClientId::Opencode,
];

fn listings(catalog: &Catalog, config: &Config) -> Listings {
    MODELLED
        .iter()
        .map(|&c| {
            let l = c.model().listing(catalog, config, None);
            let m = l
                .entries
                .iter()
                .filter(|e| e.kind == EntryKind::Skill)
                .map(|e| (e.path.clone(), shown(e)))
                .collect();
            let over = l.budget.as_ref().is_some_and(|b| b.used > b.limit);
            (c, over, m)
        })
        .collect()
}

/// Whether a listed `text` is `description` as a client shows it: whole,
/// with whitespace collapsed, cut to the client's limit (an ellipsis may
/// end it), extended (Claude Code appends `when_to_use`), or left out (a
/// name-only entry, over the listing budget).
fn derived(text: &str, description: Option<&str>) -> bool {
    let collapse = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let t = collapse(text.trim_end_matches(['…', '.']).trim_end_matches("..."));
    let Some(d) = description else {
        return t.is_empty();
    };
    let d = collapse(d);
    t.is_empty() || d.starts_with(&t) || t.starts_with(d.trim_end_matches('.'))
}

/// Two readings of one entry that differ only as the listing budget makes
/// them differ: same listing, name and description, the text of each
/// derived from that description.
fn budget_only(before: &Shown, after: &Shown) -> bool {
    before.listed == after.listed
        && before.name == after.name
        && before.alias == after.alias
        && before.description == after.description
        && derived(&before.text, before.description.as_deref())
        && derived(&after.text, after.description.as_deref())
}

/// Why the change of one entry from `before` to `after` is not the repair
/// `repair` names (`parses`: a fix made the frontmatter readable), if it
/// is not.
fn unexplained(before: &Shown, after: &Shown, repair: &Repair, parses: bool) -> Option<String> {
    if before == after || budget_only(before, after) {
        return None;
    }
    if !before.listed && !after.listed {
        // still not listed: the fix took nothing the model saw
        return None;
    }
    if before.listed && !after.listed {
        return Some(format!(
            "it would no longer be listed ({})",
            after.reason.clone().unwrap_or_default()
        ));
    }
    // the description the clients must read now
    let intended = match (&repair.description, parses) {
        (Some(d), _) => Some(d.as_str()),
        // the frontmatter is read now: what skillsift read before, or
        // (when skillsift did not read it either) whatever it says
        (None, true) => before
            .description
            .as_deref()
            .or(after.description.as_deref()),
        (None, false) => before.description.as_deref(),
    };
    let text_ok = after.description.as_deref() == intended
        && (derived(&after.text, intended) || after.text == before.text);
    if !text_ok {
        return Some(format!(
            "its listed text would change from {:?} to {:?}",
            before.text, after.text
        ));
    }
    let name_ok = match &repair.name {
        // a plugin's skill is listed as `<plugin>:<name>`; a listed name
        // the fix left as it was is no change to explain
        Some(n) => {
            let listed = after.alias.as_deref().unwrap_or(&after.name);
            listed == n
                || after.name == *n
                || listed.rsplit_once(':').is_some_and(|(_, s)| s == n)
                || (after.name == before.name && after.alias == before.alias)
        }
        None => {
            (after.name == before.name && after.alias == before.alias) || !before.listed || parses
        }
    };
    if !name_ok {
        return Some(format!(
            "its listed name would change from `{}` to `{}`",
            before.name, after.name
        ));
    }
    None
}

/// Check the listings of `catalog`, as the fixes `files` (skill index and
/// the fixes applied to it this pass) left it, against `original`: each
/// fixed file's entries may change only as its fixes' repairs (with those
/// of earlier passes, `repairs`) say; every other entry must stay as it was,
/// except in a listing over its budget before any fix. On success the
/// files' repairs are recorded in `repairs`.
fn verify(
    catalog: &Catalog,
    config: &Config,
    original: &Listings,
    repairs: &mut HashMap<String, (Repair, bool)>,
    changed: &BTreeMap<String, (String, String)>,
    files: &[(usize, &[(&'static str, Fix)])],
) -> Result<(), String> {
    let now = listings(catalog, config);
    let mut allowed: HashMap<String, (Repair, bool)> = HashMap::new();
    for (i, taken) in files {
        let file = &catalog.skills[*i].file;
        let (mut repair, mut parses) = repairs.get(file).cloned().unwrap_or_default();
        for (rule, f) in *taken {
            repair.name = f.repair.name.clone().or(repair.name);
            repair.description = f.repair.description.clone().or(repair.description);
            parses |= parse_repairing(rule);
        }
        allowed.insert(file.clone(), (repair, parses));
    }
    for ((client, over, before), (_, _, after)) in original.iter().zip(&now) {
        for (path, b) in before {
            let Some(a) = after.get(path) else { continue };
            // a file fixed now or in an earlier pass: its own repairs
            let own = allowed.get(path).or_else(|| {
                changed
                    .contains_key(path)
                    .then(|| repairs.get(path))
                    .flatten()
            });
            if let Some((repair, parses)) = own {
                if let Some(why) = unexplained(b, a, repair, *parses) {
                    return Err(format!("in {}'s listing, {why}", client.label()));
                }
            } else if !*over && a != b && !budget_only(b, a) {
                return Err(format!(
                    "in {}'s listing, the entry of {path} would change",
                    client.label()
                ));
            }
        }
    }
    repairs.extend(allowed);
    Ok(())
}

/// A skill re-read from `text`, and its loading findings.
fn reread(old: &Skill, text: &str) -> (Skill, Vec<Diagnostic>) {
    let (s, mut diags) = old.reread(text);
    crate::lint::rules::portability::attach_load_fix(&s, &mut diags);
    (s, diags)
}

/// Replace skill `i` of `catalog` with `skill` and its loading findings.
fn install(catalog: &mut Catalog, i: usize, skill: Skill, load: Vec<Diagnostic>) {
    let file = skill.file.clone();
    catalog.diagnostics.retain(|d| d.file != file);
    catalog.diagnostics.extend(load);
    if let Some(src) = &skill.source {
        catalog.sources.insert(file, src.clone());
    }
    catalog.skills[i] = skill;
}

/// The rule ids whose fixes made a frontmatter readable.
fn parse_repairing(rule: &str) -> bool {
    matches!(rule, "SG005" | "SG013" | "SG111" | "SG112" | "SG113")
}

/// Run the fixer over `catalog` (loaded in full, as [`Catalog::load`]
/// does), changing it in memory.
pub fn run(catalog: &mut Catalog, config: &Config, opts: Opts) -> Result<Outcome, Fatal> {
    let mut outcome = Outcome::default();
    let original = listings(catalog, config);
    let index: HashMap<String, usize> = catalog
        .skills
        .iter()
        .enumerate()
        .map(|(i, s)| (s.file.clone(), i))
        .collect();
    // what the fixes applied to each file so far allow
    let mut repairs: HashMap<String, (Repair, bool)> = HashMap::new();
    let mut refused: BTreeSet<(String, &'static str, String)> = BTreeSet::new();
    for _ in 0..MAX_PASSES {
        outcome.passes += 1;
        let diags = findings(catalog, config)?;
        let mut by_file: BTreeMap<&str, Vec<(&'static str, &Fix)>> = BTreeMap::new();
        for d in &diags {
            let Some(fix) = &d.fix else { continue };
            if !allowed(fix, opts)
                || !index.contains_key(&d.file)
                || refused.contains(&(d.file.clone(), d.rule, fix.description.clone()))
            {
                continue;
            }
            by_file.entry(&d.file).or_default().push((d.rule, fix));
        }
        // apply each file's fixes
        type Pass = (
            usize,
            Skill,
            Vec<Diagnostic>,
            Skill,
            Vec<Diagnostic>,
            Vec<(&'static str, Fix)>,
        );
        let mut pass: Vec<Pass> = Vec::new();
        for (file, fixes) in &by_file {
            let i = index[*file];
            let old = &catalog.skills[i];
            let Some(src) = old.source.clone() else {
                continue;
            };
            // a file that is not valid UTF-8 is never rewritten
            if diags.iter().any(|d| d.file == *file && d.rule == "SG003") {
                continue;
            }
            // nor one holding a secret: skillsift holds its text masked
            if !src.secrets.is_empty() {
                let note = secret_note(file);
                if !outcome.notes.contains(&note) {
                    outcome.notes.push(note);
                }
                continue;
            }
            let list: Vec<&Fix> = fixes.iter().map(|(_, f)| *f).collect();
            let (text, taken) = crate::lint::rules::fixes::apply_edits(&src.text, &list);
            if taken.is_empty() || text == src.text {
                continue;
            }
            let taken: Vec<(&'static str, Fix)> = fixes
                .iter()
                .filter(|(_, f)| taken.iter().any(|t| std::ptr::eq(*t, *f)))
                .map(|(r, f)| (*r, (*f).clone()))
                .collect();
            let (new, load) = reread(old, &text);
            outcome
                .changed
                .entry(file.to_string())
                .or_insert_with(|| (src.text.clone(), String::new()));
            let name = Path::new(file).file_name().unwrap_or_default();
            outcome.paths.insert(file.to_string(), old.dir.join(name));
            let load_old: Vec<Diagnostic> = catalog
                .diagnostics
                .iter()
                .filter(|d| d.file == *file)
                .cloned()
                .collect();
            pass.push((i, old.clone(), load_old, new.clone(), load.clone(), taken));
            install(catalog, i, new, load);
        }
        if pass.is_empty() {
            break;
        }
        let all: Vec<(usize, &[(&'static str, Fix)])> =
            pass.iter().map(|p| (p.0, p.5.as_slice())).collect();
        let verdicts: Vec<Result<(), String>> = match verify(
            catalog,
            config,
            &original,
            &mut repairs,
            &outcome.changed,
            &all,
        ) {
            Ok(()) => pass.iter().map(|_| Ok(())).collect(),
            Err(why) if pass.len() == 1 => vec![Err(why)],
            Err(_) => {
                // find which: put every file back, then try them one by one
                for (i, old, load, ..) in &pass {
                    install(catalog, *i, old.clone(), load.clone());
                }
                let mut v = Vec::new();
                for (i, old, load, new, new_load, taken) in &pass {
                    install(catalog, *i, new.clone(), new_load.clone());
                    let one = [(*i, taken.as_slice())];
                    let r = verify(
                        catalog,
                        config,
                        &original,
                        &mut repairs,
                        &outcome.changed,
                        &one,
                    );
                    if r.is_err() {
                        install(catalog, *i, old.clone(), load.clone());
                    }
                    v.push(r);
                }
                v
            }
        };
        for ((i, old, load, _, _, taken), verdict) in pass.into_iter().zip(verdicts) {
            let file = old.file.clone();
            match verdict {
                Err(why) => {
                    install(catalog, i, old, load);
                    for (rule, f) in taken {
                        refused.insert((file.clone(), rule, f.description.clone()));
                        outcome.refused.push(Refused {
                            file: file.clone(),
                            rule,
                            description: f.description,
                            why: why.clone(),
                        });
                    }
                }
                Ok(()) => {
                    for (rule, f) in taken {
                        outcome.applied.push(Applied {
                            file: file.clone(),
                            rule,
                            description: f.description,
                        });
                    }
                }
            }
        }
    }
    // the final text of every changed file; drop the ones put back whole
    let texts: HashMap<String, String> = catalog
        .skills
        .iter()
        .filter(|s| outcome.changed.contains_key(&s.file))
        .filter_map(|s| Some((s.file.clone(), s.source.as_ref()?.text.clone())))
        .collect();
    outcome.changed.retain(|file, (orig, fixed)| {
        *fixed = texts.get(file).cloned().unwrap_or_default();
        fixed != orig
    });
    // what the fixes moved in listings already over their budget
    let now = listings(catalog, config);
    for ((client, over, before), (_, _, after)) in original.iter().zip(&now) {
        if !*over {
            continue;
        }
        for (path, b) in before {
            if outcome.changed.contains_key(path) {
                continue;
            }
            if let Some(a) = after.get(path)
                && a != b
                && !budget_only(b, a)
            {
                let what = if b.listed && !a.listed {
                    "is no longer listed".to_string()
                } else if !b.listed && a.listed {
                    "is listed now".to_string()
                } else {
                    format!("is listed as {:?} (was {:?})", a.text, b.text)
                };
                outcome.notes.push(format!(
                    "{} listing was over its budget before these fixes: {path} {what}",
                    possessive(client.label())
                ));
            }
        }
    }
    outcome.notes.sort();
    outcome.applied.sort();
    outcome.refused.sort();
    outcome.refused.dedup();
    Ok(outcome)
}

/// A unified diff of every changed file, paths as `prefix/file`; escaped
/// for a terminal with `escape`, else a patch of the files' exact bytes.
pub fn diff(outcome: &Outcome, prefix: &str, escape: bool) -> String {
    let mut out = String::new();
    for (file, (old, new)) in &outcome.changed {
        let shown = crate::report::display_path(prefix, file);
        out.push_str(&crate::report::diff::unified(&shown, old, new, escape));
    }
    out
}

/// Write every changed file, refusing one that changed on disk since it
/// was read.
pub fn write(outcome: &Outcome) -> Result<(), Fatal> {
    for (file, (old, new)) in &outcome.changed {
        let Some(path) = outcome.paths.get(file) else {
            continue;
        };
        write_file(path, old, new, "skillsift check --fix")?;
    }
    Ok(())
}

/// Replace `old` with `new` at `path`, refusing when the file no longer
/// holds `old` (it changed on disk since it was read); `again` is the
/// command the refusal says to run again.
pub fn write_file(path: &Path, old: &str, new: &str, again: &str) -> Result<(), Fatal> {
    let now = std::fs::read(path)
        .map_err(|e| Fatal::usage(format!("{}: cannot read: {e}", path.display())))?;
    if now != old.as_bytes() {
        if std::str::from_utf8(&now)
            .ok()
            .and_then(crate::catalog::secrets::mask)
            .is_some_and(|masked| masked == old)
        {
            return Err(Fatal::usage(secret_note(&path.display().to_string())));
        }
        return Err(Fatal::usage(format!(
            "{}: changed on disk while skillsift was working on it; nothing more was written",
            path.display()
        ))
        .with_help(format!("run `{again}` again")));
    }
    std::fs::write(path, new.as_bytes())
        .map_err(|e| Fatal::usage(format!("{}: cannot write: {e}", path.display())))
}

/// Why a file holding a secret is not rewritten (skillsift holds its text
/// with the secret masked, and writing that back would lose it).
fn secret_note(file: &str) -> String {
    format!(
        "{file} holds a secret (SG704) and is not rewritten: remove the secret (and revoke it), then run again"
    )
}

/// Findings of each rule in `before` that are gone from `after`.
pub fn removed_by_rule(
    before: &[Diagnostic],
    after: &[Diagnostic],
) -> BTreeMap<&'static str, usize> {
    let count = |v: &[Diagnostic]| {
        let mut m: BTreeMap<&'static str, usize> = BTreeMap::new();
        for d in v {
            *m.entry(d.rule).or_insert(0) += 1;
        }
        m
    };
    let (b, a) = (count(before), count(after));
    b.into_iter()
        .filter_map(|(r, n)| {
            let left = a.get(r).copied().unwrap_or(0);
            (n > left).then(|| (r, n - left))
        })
        .collect()
}

fn counts(m: &BTreeMap<&'static str, usize>) -> String {
    m.iter()
        .map(|(r, n)| format!("{r} {n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What `check --fix` leaves the check to do.
pub enum Done {
    /// `--diff`: nothing more, exit so.
    Exit(crate::exit::Exit),
    /// The files are fixed: check them, and count none of `refused` as
    /// fixable ([`unfixable`]).
    Check { refused: Vec<Refused> },
}

/// Take the fix off each finding whose fix `--fix` refused (it would
/// change a listing): it is not fixable now. A summary line says how many
/// and why, when any.
pub fn unfixable(diagnostics: &mut [Diagnostic], refused: &[Refused]) -> Option<String> {
    let mut n = 0;
    for d in diagnostics.iter_mut() {
        let Some(fix) = &d.fix else { continue };
        if refused
            .iter()
            .any(|r| r.file == d.file && r.rule == d.rule && r.description == fix.description)
        {
            d.fix = None;
            n += 1;
        }
    }
    (n > 0).then(|| {
        format!(
            "{n} {} not fixable now: {} would change what a client lists (each `not fixed:` line above says how)",
            crate::report::human::plural(n, "finding"),
            if n == 1 { "its fix" } else { "their fixes" }
        )
    })
}

/// `check --fix` and `check --diff`: run the fixer over the catalog at
/// `root`. With `diff_only`, print the unified diff and a summary, write
/// nothing, and return the exit code (1 when there is something to fix).
/// Otherwise write the fixed files, print (in human output) what was fixed
/// and refused, and leave the check to run on the fixed files and report
/// what remains.
pub fn command(
    root: &Path,
    config: &Config,
    opts: Opts,
    diff_only: bool,
    human: bool,
    out: &mut dyn std::io::Write,
) -> Result<Done, Fatal> {
    use crate::exit::Exit;
    use crate::report::human::plural;
    let mut catalog = Catalog::load(root, config)?;
    let before = findings(&catalog, config)?;
    let outcome = run(&mut catalog, config, opts)?;
    let after = findings(&catalog, config)?;
    let removed = removed_by_rule(&before, &after);
    let prefix = crate::commands::path_prefix(&catalog, root);
    let mut lines = Vec::new();
    let files = outcome.changed.len();
    let n = outcome.applied.len();
    let verb = if diff_only { "would fix" } else { "fixed" };
    if n > 0 {
        lines.push(format!(
            "{verb} {n} {} in {files} {} ({}); findings removed by rule: {}",
            plural(n, "finding"),
            plural(files, "file"),
            counts(&outcome.by_rule()),
            counts(&removed)
        ));
    } else {
        lines.push(format!("{verb} nothing: no finding has a fix that applies"));
    }
    for r in &outcome.refused {
        lines.push(format!(
            "not fixed: {} {} ({}): {}",
            crate::report::display_path(&prefix, &r.file),
            r.rule,
            r.description,
            r.why
        ));
    }
    for n in &outcome.notes {
        lines.push(format!("note: {n}"));
    }
    let w = |out: &mut dyn std::io::Write, text: &str| -> Result<(), Fatal> {
        out.write_all(text.as_bytes())
            .map_err(crate::report::write_error)
    };
    if diff_only {
        // `--diff > fix.patch` is a patch; a terminal is shown it escaped
        use std::io::IsTerminal;
        let escape = std::io::stdout().is_terminal();
        w(out, &diff(&outcome, &prefix, escape))?;
        for l in &lines {
            // they quote paths and descriptions from the catalog
            w(out, &format!("{}\n", crate::escape::line(l)))?;
        }
        return Ok(Done::Exit(if outcome.changed.is_empty() {
            Exit::Ok
        } else {
            Exit::Failed
        }));
    }
    write(&outcome)?;
    if human {
        for l in &lines {
            // they quote paths and descriptions from the catalog
            w(out, &format!("{}\n", crate::escape::line(l)))?;
        }
    }
    Ok(Done::Check {
        refused: outcome.refused,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_holding_a_secret_is_never_overwritten_with_its_masked_text() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("SKILL.md");
        let on_disk = format!("token ghp_{}\n", "R8mK2vQ9xT4nL7pW3sZ6yB1cF5hJ0dG8aE2u");
        std::fs::write(&path, &on_disk).unwrap();
        // what skillsift read: the masked text
        let read = crate::catalog::secrets::mask(&on_disk).unwrap();
        let e = write_file(&path, &read, "token ghp_new\n", "skillsift tune --write").unwrap_err();
        assert!(
            e.message
                .contains("holds a secret (SG704) and is not rewritten"),
            "{}",
            e.message
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), on_disk);
    }
}
