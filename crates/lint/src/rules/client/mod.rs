//! Client fidelity (`SG600`–`SG629`): what a client does silently with a
//! SKILL.md that its own reading accepts. Each rule reads the client's
//! listing ([`crate::client`]), and each message says which readers reject
//! the file and which accept it. Claude Code's rules are SG600–SG608 and,
//! for the values of its own keys, SG610–SG616 (`values.rs`); the
//! other clients' SG609; which clients are checked is `[lint] clients`
//! (unset: Claude Code and `[route] client`). SG520/SG521 (listing budget,
//! entry cut) are Tier 2's.

pub mod agent_unused;
pub mod alias;
pub mod context;
pub mod dropped;
pub mod ends_early;
pub mod from_body;
pub mod hidden;
pub mod hook_event;
pub mod model;
pub mod never_invocable;
pub mod not_listed;
pub mod not_string;
pub mod retry;
pub mod surrogate;
pub mod too_deep;
pub mod unknown_agent;
pub mod unknown_tool;
pub mod unscoped_shell;
pub mod values;

use crate::catalog::Catalog;
use crate::client::{ChangeKind, ClientId, ClientIdExt, Hidden, Listing};
use crate::config::Config;
use crate::diag::Diagnostic;

/// Every client-fidelity finding over the catalog.
pub fn run(catalog: &Catalog, config: &Config, out: &mut Vec<Diagnostic>) {
    if catalog.skills.is_empty() {
        return;
    }
    let clients = config.lint.linted_clients(config.route.client);
    let mut readings = Readings::default();
    if clients.contains(&ClientId::ClaudeCode) {
        let (listing, _) = readings.of(catalog, config, ClientId::ClaudeCode);
        claude_code(catalog, listing, out);
        values::check(catalog, out);
    }
    for c in clients.into_iter().filter(|c| *c != ClientId::ClaudeCode) {
        not_listed_by(catalog, config, c, &mut readings, out);
    }
}

/// Each client's listing of the catalog, computed once, with which skills
/// it lists (by index into `catalog.skills`).
#[derive(Default)]
struct Readings(Vec<(ClientId, Listing, Vec<bool>)>);

impl Readings {
    fn of(&mut self, catalog: &Catalog, config: &Config, client: ClientId) -> (&Listing, &[bool]) {
        let at = match self.0.iter().position(|(c, _, _)| *c == client) {
            Some(i) => i,
            None => {
                let listing = client.model().listing(catalog, config, None);
                let mut listed = vec![false; catalog.skills.len()];
                for e in listing.entries.iter().filter(|e| e.listed) {
                    listed[e.skill] = true;
                }
                self.0.push((client, listing, listed));
                self.0.len() - 1
            }
        };
        let (_, listing, listed) = &self.0[at];
        (listing, listed)
    }
}

/// SG609: the skills `client` leaves out of its listing, but for the
/// reasons other rules report (a listing over budget) or an author means
/// (`disable-model-invocation`, `paths:`).
fn not_listed_by(
    catalog: &Catalog,
    config: &Config,
    client: ClientId,
    readings: &mut Readings,
    out: &mut Vec<Diagnostic>,
) {
    let dropped: Vec<(usize, String, String, Hidden)> = readings
        .of(catalog, config, client)
        .0
        .entries
        .iter()
        .filter(|e| !e.listed)
        .filter_map(|e| {
            let r = e.reason.clone()?;
            match r {
                Hidden::OverBudget
                | Hidden::DisableModelInvocation { .. }
                | Hidden::Conditional { .. } => None,
                // a file skillsift could not read is SG001/SG002 already
                Hidden::Unreadable => None,
                Hidden::TooLarge { .. } if catalog.skills[e.skill].source.is_none() => None,
                r => Some((e.skill, e.path.clone(), e.name.clone(), r)),
            }
        })
        .collect();
    if dropped.is_empty() {
        return;
    }
    let others: Vec<(ClientId, Vec<bool>)> = ClientId::CLIENTS
        .iter()
        .filter(|c| **c != client)
        .map(|&c| (c, readings.of(catalog, config, c).1.to_vec()))
        .collect();
    for (skill, path, name, reason) in dropped {
        let listing: Vec<&str> = others
            .iter()
            .filter(|(_, listed)| listed[skill])
            .map(|(c, _)| c.label())
            .collect();
        let readers = if listing.is_empty() {
            "no other modelled client lists it either".to_string()
        } else {
            format!(
                "{} list{} it",
                join_and(&listing),
                if listing.len() == 1 { "s" } else { "" }
            )
        };
        out.push(
            not_listed::NOT_LISTED
                .diag(
                    &path,
                    format!(
                        "`{name}` is not in {}'s listing: {}; {readers}",
                        client.label(),
                        reason.describe()
                    ),
                )
                .with_span_opt(not_listed_span(&catalog.skills[skill], &reason))
                .with_help(not_listed_help(client, &reason)),
        );
    }
}

/// `a`, `a and b`, `a, b and c`.
fn join_and(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// Where in the SKILL.md the reason lies: the key it names, else the
/// first line for the frontmatter.
fn not_listed_span(
    skill: &crate::catalog::skill::Skill,
    reason: &Hidden,
) -> Option<crate::diag::Span> {
    let key = |k: &str| {
        skill
            .frontmatter
            .as_ref()
            .and_then(|f| f.last(k))
            .map(|x| x.value_span)
    };
    let first_line = || skill.source.as_ref().map(|s| s.line_span(1));
    match reason {
        Hidden::NotAString { key: k } => key(k).or_else(first_line),
        Hidden::NameTooLong { .. } | Hidden::Shadowed { .. } | Hidden::NoName => {
            key("name").or_else(first_line)
        }
        Hidden::NoDescription => key("description").or_else(first_line),
        Hidden::NoFrontmatter { .. } | Hidden::BadFrontmatter { .. } => first_line(),
        _ => None,
    }
}

fn not_listed_help(client: ClientId, reason: &Hidden) -> String {
    match reason {
        Hidden::NoFrontmatter { .. } => "start the file with `---` on its first line (no byte order mark, no blank line) and close the frontmatter with a line `---`".into(),
        Hidden::BadFrontmatter { .. } => "make the frontmatter strict YAML: each key once, values holding `: ` quoted".into(),
        Hidden::NotAString { key } => format!("write `{key}` as a quoted string: `{key}: \"…\"`"),
        Hidden::NameTooLong { limit, .. } => format!("shorten the name to {limit} characters at most"),
        Hidden::Shadowed { .. } => "give each skill its own name".into(),
        Hidden::NoName => "add a `name:` equal to the folder's name".into(),
        Hidden::NoDescription => "add a `description:` that says what the skill does and when to use it".into(),
        Hidden::InsideSkill { .. } => "nothing to do for a document the outer skill reads; to make it a skill of its own, move its folder out of the outer skill".into(),
        // the reasons `catalog::units` gives for a marketplace entry
        Hidden::InPlugin { why } if why.contains("loads nothing") || why.contains("refuses to install") => "fix the marketplace entry (SG024) so that Claude Code loads the plugin".into(),
        Hidden::InPlugin { why } if why.starts_with("the marketplace entry") => "name the folder in the entry's `skills` list in .claude-plugin/marketplace.json, or move it into a folder the entry lists".into(),
        Hidden::InPlugin { .. } => "move the folder to the plugin's `skills/<name>/`, or name it in the manifest's `skills` key".into(),
        Hidden::TooDeep { .. } | Hidden::DotFolder { .. } => format!(
            "install the skill where {} looks: `<skills root>/<name>/SKILL.md`, in a folder not starting with a dot",
            client.label()
        ),
        Hidden::TooLarge { .. } => "move long reference material into files beside SKILL.md".into(),
        _ => format!("see `skillsift listing --client {client}`"),
    }
}

/// SG600–SG608: Claude Code's reading.
fn claude_code(catalog: &Catalog, listing: &Listing, out: &mut Vec<Diagnostic>) {
    for e in &listing.entries {
        for c in &e.changes {
            let (rule, readers) = match c.kind {
                ChangeKind::EndsEarly => (
                    &ends_early::ENDS_EARLY,
                    "skillsift's YAML parser and other YAML readers read the whole value",
                ),
                ChangeKind::FrontmatterDropped => (
                    &dropped::DROPPED,
                    "Claude Code still lists the skill, with the body's first line as its description",
                ),
                ChangeKind::FromBody => (
                    &from_body::FROM_BODY,
                    "the specification rejects the skill (SG104); Claude Code accepts it with this text",
                ),
                ChangeKind::SurrogateSplit => (
                    &surrogate::SURROGATE_SPLIT,
                    "skillsift and clients that count characters keep the character whole",
                ),
                ChangeKind::RetryChanged => (
                    &retry::RETRY_CHANGED,
                    "strict YAML parsers reject the frontmatter (SG013); Claude Code accepts it changed",
                ),
                ChangeKind::NotAString => (
                    &not_string::NOT_A_STRING,
                    "the specification rejects a value that is not a string; Claude Code accepts it as printed",
                ),
                _ => continue,
            };
            out.push(
                rule.diag(&e.path, format!("`{}`: {}; {readers}", e.name, c.detail))
                    .with_span_opt(c.span)
                    .with_help(help(c.kind)),
            );
        }
        match &e.reason {
            Some(Hidden::TooDeep { .. }) => out.push(
                too_deep::TOO_DEEP
                    .diag(
                        &e.path,
                        format!(
                            "`{}`: Claude Code never finds this skill: {}; skillsift, Codex and opencode search nested folders",
                            e.name,
                            e.reason.as_ref().map(|r| r.describe()).unwrap_or_default()
                        ),
                    )
                    .with_help("move the folder up to `<skills root>/<name>/`, or install it there"),
            ),
            // said, not failed: a SKILL.md nested in a skill is usually a
            // document it reads, and a plugin's unlisted folder a choice
            Some(r @ (Hidden::InsideSkill { .. } | Hidden::InPlugin { .. })) => out.push(
                too_deep::TOO_DEEP
                    .diag(
                        &e.path,
                        format!("`{}`: Claude Code never lists this skill: {}", e.name, r.describe()),
                    )
                    .with_severity(crate::diag::Severity::Notice)
                    .with_help(not_listed_help(ClientId::ClaudeCode, r)),
            ),
            // a file skillsift could not read is SG001/SG002 already
            Some(Hidden::TooLarge { .. }) if catalog.skills[e.skill].source.is_none() => {}
            Some(r @ (Hidden::DisableModelInvocation { .. } | Hidden::Conditional { .. } | Hidden::TooLarge { .. })) => out.push(
                hidden::HIDDEN
                    .diag(
                        &e.path,
                        format!("`{}` is not in Claude Code's listing: {}; the model cannot pick it by itself", e.name, r.describe()),
                    )
                    .with_span_opt(r.span())
                    .with_help("intended for a slash-command-only skill; otherwise remove the key (or shrink the file)"),
            ),
            _ => {}
        }
    }
    // the project commands Claude Code lists beside the skills are read
    // the same way: the same silent changes, said of the command (a command
    // without a description showing its first line is how commands are
    // written, so SG602 is not said of them)
    for e in &listing.commands {
        for c in &e.changes {
            let rule = match c.kind {
                ChangeKind::EndsEarly => &ends_early::ENDS_EARLY,
                ChangeKind::FrontmatterDropped => &dropped::DROPPED,
                ChangeKind::SurrogateSplit => &surrogate::SURROGATE_SPLIT,
                ChangeKind::RetryChanged => &retry::RETRY_CHANGED,
                ChangeKind::NotAString => &not_string::NOT_A_STRING,
                _ => continue,
            };
            out.push(
                rule.diag(
                    &e.path,
                    format!(
                        "the command `{}`, which Claude Code lists beside the skills: {}",
                        e.name, c.detail
                    ),
                )
                .with_span_opt(c.span)
                .with_help(help(c.kind)),
            );
        }
    }
    // `Skill("<name>")` loads the first skill in listing order whose folder
    // or frontmatter name is <name>
    let listed: Vec<_> = listing.entries.iter().filter(|e| e.listed).collect();
    for (k, e) in listed.iter().enumerate() {
        let Some(alias) = &e.alias else { continue };
        let Some(winner) = listed
            .iter()
            .position(|o| o.name == *alias || o.alias.as_deref() == Some(alias.as_str()))
        else {
            continue;
        };
        if winner == k {
            continue;
        }
        let w = listed[winner];
        let span = catalog.skills[e.skill]
            .frontmatter
            .as_ref()
            .and_then(|f| f.last("name"))
            .map(|x| x.value_span);
        out.push(
            alias::ALIAS_COLLISION
                .diag(
                    &e.path,
                    format!(
                        "`name: {alias}` is also the name of `{}` ({}): Claude Code lists both, but `Skill(\"{alias}\")` loads `{}`, the first in its listing",
                        w.name, w.path, w.name
                    ),
                )
                .with_span_opt(span)
                .with_help("give each skill its own name, equal to its folder's"),
        );
    }
}

fn help(kind: ChangeKind) -> &'static str {
    match kind {
        ChangeKind::EndsEarly => {
            "write the dashes another way (`—`, `to`), or quote nothing: Claude Code splits at the first `---` whatever YAML says"
        }
        ChangeKind::FrontmatterDropped => {
            "start the file with `---` at byte 0 (no BOM, no blank line), close it with `---`, and make the YAML parse (quote values with `: `)"
        }
        ChangeKind::FromBody => {
            "write a `description:` string that says what the skill does and when to use it"
        }
        ChangeKind::SurrogateSplit => "shorten the entry below 1,536 UTF-16 units",
        ChangeKind::RetryChanged => {
            "quote the value yourself (`key: \"…\"`) so the YAML parses the first time"
        }
        _ => "quote the value: `description: \"…\"`",
    }
}
