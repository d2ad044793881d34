//! One cause, one finding: where two rules say the same thing of the same
//! place, the second is dropped once the configured levels are applied
//! (so turning the first off brings the second back).

use crate::diag::Diagnostic;

/// `(kept, about, dropped)`: `dropped` goes when `kept`, whose message
/// starts with `about`, speaks in the same file on the same line (one
/// says the key, the other its value).
const SAME_CAUSE: &[(&str, &str, &str)] = &[
    // `disable-model-invocation: true`: SG110 says what the key does in
    // Claude Code and elsewhere; SG604 would repeat it (`paths:` keeps
    // both: SG604 says which files make the skill listed)
    ("SG110", "`disable-model-invocation`", "SG604"),
];

/// The rule that names a tab in the indentation exactly: beside it,
/// SG013's "found a tab" is the same tab said again (SG111 and SG113 say
/// the colons and quotes the parser did not reach: SG013 says the first).
const TAB_CAUSE: &str = "SG112";
/// Rules that say the frontmatter does not parse, the exact causes first.
const YAML_FAILURES: &[&str] = &["SG111", "SG112", "SG113", "SG013", "SG014"];

/// Routing findings about one positive prompt of a skill, whose message
/// starts with the skill's name in backticks.
const ROUTING_CONSEQUENCES: &[&str] = &["SG501", "SG502"];

/// The folder of a skill's `SKILL.md`: the name Claude Code lists a skill
/// by when its frontmatter does not parse (`None` for the catalog root's
/// own `SKILL.md`, whose folder name the path does not hold).
fn skill_folder(file: &str) -> Option<&str> {
    let folder = file.strip_suffix("/SKILL.md")?;
    Some(folder.rsplit('/').next().unwrap_or(folder))
}

/// A frontmatter that does not parse is reported at its causes only:
/// SG013 on a tab is dropped beside SG112, and Claude Code's consequences,
/// SG601 (it ignores the whole frontmatter, also after its retry) and
/// SG602 (it shows the body's first line), are said in the first cause's
/// help instead of as findings of their own, with the count of positive
/// trigger prompts that miss the skill for that reason (SG501, SG502).
fn fold_frontmatter(diags: &mut Vec<Diagnostic>) {
    use std::collections::{HashMap, HashSet};
    let mut failing: HashMap<&str, Vec<&'static str>> = HashMap::new();
    for d in diags.iter() {
        if YAML_FAILURES.contains(&d.rule) {
            failing.entry(d.file.as_str()).or_default().push(d.rule);
        }
    }
    if failing.is_empty() {
        return;
    }
    let exact: HashSet<String> = (failing.iter())
        .filter(|(_, r)| r.contains(&TAB_CAUSE))
        .map(|(f, _)| f.to_string())
        .collect();
    let files: HashSet<String> = failing.keys().map(|f| f.to_string()).collect();
    let dropped_601: HashSet<String> = (diags.iter())
        .filter(|d| {
            d.rule == "SG601" && files.contains(&d.file) && d.message.contains("fails to parse")
        })
        .map(|d| d.file.clone())
        .collect();
    diags.retain(|d| {
        !((d.rule == "SG013" && exact.contains(&d.file) && d.message.contains("tab"))
            || (d.rule == "SG601"
                && dropped_601.contains(&d.file)
                && d.message.contains("fails to parse"))
            || (d.rule == "SG602" && dropped_601.contains(&d.file)))
    });
    // a skill Claude Code lists by its body's first line fails its
    // positive trigger prompts for that reason alone: they are counted in
    // the cause's help, not reported one by one
    let mut failed_prompts: HashMap<String, usize> = HashMap::new();
    diags.retain(|d| {
        if !ROUTING_CONSEQUENCES.contains(&d.rule) {
            return true;
        }
        let Some(file) = (dropped_601.iter()).find(|f| {
            skill_folder(f).is_some_and(|name| d.message.starts_with(&format!("`{name}`:")))
        }) else {
            return true;
        };
        *failed_prompts.entry(file.clone()).or_default() += 1;
        false
    });
    // the first cause of each such file carries the consequences
    let mut told: HashSet<String> = HashSet::new();
    for d in diags.iter_mut() {
        if !YAML_FAILURES.contains(&d.rule)
            || !dropped_601.contains(&d.file)
            || !told.insert(d.file.clone())
        {
            continue;
        }
        let mut also = "until it parses, Claude Code ignores the whole frontmatter and lists the skill with the body's first line as its description (SG601, SG602)".to_string();
        match failed_prompts.get(&d.file) {
            Some(1) => also.push_str(", and 1 positive trigger prompt misses it (SG501, SG502)"),
            Some(n) => also.push_str(&format!(
                ", and {n} positive trigger prompts miss it (SG501, SG502)"
            )),
            None => {}
        }
        d.help = Some(match d.help.take() {
            Some(h) => format!("{h}; {also}"),
            None => also,
        });
    }
}

/// Drop every finding another one already says (see [`SAME_CAUSE`] and
/// [`fold_frontmatter`]).
pub fn dedupe(diags: &mut Vec<Diagnostic>) {
    fold_frontmatter(diags);
    let spoken: std::collections::HashSet<(&str, &str, u32)> = diags
        .iter()
        .filter(|d| {
            SAME_CAUSE
                .iter()
                .any(|(kept, about, _)| *kept == d.rule && d.message.starts_with(about))
        })
        .filter_map(|d| Some((d.rule, d.file.as_str(), d.span?.line)))
        .collect();
    if spoken.is_empty() {
        return;
    }
    let drop: Vec<bool> = diags
        .iter()
        .map(|d| {
            let Some(span) = d.span else { return false };
            SAME_CAUSE.iter().any(|(kept, _, dropped)| {
                *dropped == d.rule && spoken.contains(&(*kept, d.file.as_str(), span.line))
            })
        })
        .collect();
    let mut i = 0;
    diags.retain(|_| {
        i += 1;
        !drop[i - 1]
    });
}

/// Fewest skills one cause is found in before its findings become one.
pub const REPEATED_KEY_SKILLS: usize = 3;

/// Writes the one finding of a key: from the key, how many files say it
/// and every key folded.
type Rewrite = dyn Fn(&mut Diagnostic, &str, usize, &[String]);

/// Findings of `rule` that say one thing (`key_of` gives it) in many files:
/// for each thing said in [`REPEATED_KEY_SKILLS`] files or more, one
/// finding at its first place (`make` writes it from the key, how many
/// files, and the keys folded), every other place kept as a related
/// location.
fn fold_across_files(
    diags: &mut Vec<Diagnostic>,
    key_of: &dyn Fn(&Diagnostic) -> Option<String>,
    make: &Rewrite,
) {
    use std::collections::{BTreeMap, BTreeSet};
    let mut by_key: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, d) in diags.iter().enumerate() {
        if let Some(k) = key_of(d) {
            by_key.entry(k).or_default().push(i);
        }
    }
    by_key.retain(|_, at| {
        at.iter()
            .map(|&i| diags[i].file.as_str())
            .collect::<BTreeSet<_>>()
            .len()
            >= REPEATED_KEY_SKILLS
    });
    if by_key.is_empty() {
        return;
    }
    let keys: Vec<String> = by_key.keys().cloned().collect();
    let mut drop: BTreeSet<usize> = BTreeSet::new();
    let mut folded: BTreeMap<usize, Diagnostic> = BTreeMap::new();
    for (key, mut at) in by_key {
        at.sort_by(|&a, &b| {
            let (a, b) = (&diags[a], &diags[b]);
            (a.file.as_str(), a.span.map(|s| s.start))
                .cmp(&(b.file.as_str(), b.span.map(|s| s.start)))
        });
        let files = at
            .iter()
            .map(|&i| diags[i].file.as_str())
            .collect::<BTreeSet<_>>()
            .len();
        let first = at[0];
        let mut d = diags[first].clone();
        make(&mut d, &key, files, &keys);
        d.related = at[1..]
            .iter()
            .map(|&i| crate::diag::Related {
                file: diags[i].file.clone(),
                span: diags[i].span,
            })
            .collect();
        drop.extend(at.iter().copied());
        folded.insert(first, d);
    }
    let mut kept: Vec<Diagnostic> = Vec::with_capacity(diags.len() - drop.len() + folded.len());
    for (i, d) in std::mem::take(diags).into_iter().enumerate() {
        if let Some(f) = folded.remove(&i) {
            kept.push(f);
        } else if !drop.contains(&i) {
            kept.push(d);
        }
    }
    *diags = kept;
}

/// One cause, one finding, across files, as `check` and the HTML report
/// show a whole catalog (the editor shows each file its own findings):
///
/// - a custom frontmatter key written in [`REPEATED_KEY_SKILLS`] skills or
///   more (`triggers`, `tags` in 978 SKILL.md files) is one SG109 at its
///   first place, naming how many skills write it and the one `[lint]
///   allowed-keys` line that accepts every such key;
/// - a bundled file that as many skills hold at the same place and none
///   of their SKILL.md files mentions (`references/gotchas.md`, from a
///   skill template) is one SG211.
///
/// Every other place is kept as a related location (JSON `related`, SARIF
/// `relatedLocations`).
pub fn fold_repeated_keys(diags: &mut Vec<Diagnostic>) {
    const KEY: &str = "` is not an Agent Skills frontmatter key";
    fold_across_files(
        diags,
        &|d| {
            (d.rule == "SG109")
                .then(|| d.message.strip_prefix('`')?.strip_suffix(KEY))
                .flatten()
                .map(str::to_string)
        },
        &|d, key, skills, keys| {
            let quoted: Vec<String> = keys
                .iter()
                .map(|k| format!("\"{}\"", k.replace('\\', "\\\\").replace('"', "\\\"")))
                .collect();
            let line = format!("[lint] allowed-keys = [{}]", quoted.join(", "));
            d.message = format!(
                "`{key}` is not an Agent Skills frontmatter key, and {skills} skills write it"
            );
            d.label = Some(format!("here and in {} more skills", skills - 1));
            d.help = Some(format!(
                "accept the catalog's own keys once, in skillsift.toml: {line} (every key written in {REPEATED_KEY_SKILLS} skills or more); or move `{key}` under `metadata` in each SKILL.md. --format json and SARIF list every place"
            ));
        },
    );
    const FILE: &str = "` is bundled with the skill, but SKILL.md never mentions it: the agent never learns it exists";
    fold_across_files(
        diags,
        &|d| {
            let f = (d.rule == "SG211")
                .then(|| d.message.strip_prefix('`')?.strip_suffix(FILE))
                .flatten()?;
            // a file named for its skill (`templates/<skill>-template.md`,
            // `scripts/check_<skill>.py`) is the same file in each
            let folder = d.file.strip_suffix(f)?.trim_end_matches('/');
            let folder = folder.rsplit('/').next().unwrap_or(folder);
            if folder.len() < 3 {
                return Some(f.to_string());
            }
            Some(
                f.replace(folder, "<skill>")
                    .replace(&folder.replace('-', "_"), "<skill>"),
            )
        },
        &|d, file, skills, _| {
            d.message = format!(
                "`{file}` is bundled with {skills} skills, and none of their SKILL.md files mentions it: the agent never learns it exists"
            );
            d.label = Some(format!("here and in {} more skills", skills - 1));
            d.help = Some(format!(
                "say in each SKILL.md when to read or run `{file}` (a line in the template the skills were made from says it for all), or delete it; --format json and SARIF list every place"
            ));
        },
    );
}
