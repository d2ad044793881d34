//! `workspace/executeCommand`: the two commands an author runs from the
//! editor, on the catalog as the editor holds it (unsaved buffers in
//! place of their files):
//!
//! - `skillsift.rank` `{"uri", "prompt" | "position", "show"?}` (the
//!   text, or the trigger prompt at a position of the file): every skill's score
//!   for the prompt, as `skillsift rank --explain` gives it (within the
//!   installation of the file's skill, as `check` ranks its prompts, when
//!   the catalog's plugins or packs are installed one at a time);
//! - `skillsift.listing` `{"uri", "show"?}`: what the catalog's client
//!   shows the model, as `skillsift listing` gives it (of the file's
//!   installation, the same way; `"installation"` names it).
//!
//! The result is `{"text", "json"}`: the command's human output and its
//! `--format json` value, both escaped as the commands escape them. With
//! `"show": true` the text is also sent as a message, for editors that
//! drop a command's result (a code action runs it so).

use super::{Server, send, shown};
use crate::exit::Fatal;
use lsp_server::{Connection, Message, Notification};
use lsp_types::notification::Notification as _;
use lsp_types::{ExecuteCommandParams, Url};
use serde::Deserialize;
use serde_json::{Value, json};
use std::path::PathBuf;

pub const RANK: &str = "skillsift.rank";
pub const LISTING: &str = "skillsift.listing";

/// Skills a ranking shows, as `rank`'s default `--limit`.
const LIMIT: usize = 10;

#[derive(Deserialize)]
struct Args {
    uri: Url,
    #[serde(default)]
    prompt: Option<String>,
    /// With no `prompt`: the trigger prompt at this place of the file.
    #[serde(default)]
    position: Option<lsp_types::Position>,
    #[serde(default)]
    show: bool,
}

impl Server {
    /// Run a command; `Err` is the message the editor shows.
    pub(super) fn execute(
        &self,
        conn: &Connection,
        p: ExecuteCommandParams,
    ) -> Result<Value, String> {
        let args: Args = (p.arguments.into_iter().next())
            .and_then(|a| serde_json::from_value(a).ok())
            .ok_or_else(|| {
                format!(
                    "{}: give one argument {{\"uri\": the file's URI{}}}",
                    shown(&p.command),
                    if p.command == RANK {
                        ", \"prompt\": the text to rank"
                    } else {
                        ""
                    }
                )
            })?;
        let path: PathBuf = match self.docs.get(&args.uri).and_then(|d| d.path.clone()) {
            Some(p) => p,
            None => (args.uri.to_file_path().ok())
                .and_then(|p| p.canonicalize().ok())
                .ok_or_else(|| format!("{}: not a file", shown(args.uri.as_str())))?,
        };
        let c = (self.checked.iter())
            .filter(|(root, _)| path.starts_with(root))
            .max_by_key(|(root, _)| root.as_os_str().len())
            .map(|(_, c)| c)
            .ok_or_else(|| {
                format!(
                    "{}: in no catalog skillsift has checked; open a SKILL.md or a case file of the catalog first",
                    shown(&path.display().to_string())
                )
            })?;
        let Some((catalog, config)) = c.loaded.as_ref() else {
            return Err(c
                .failed
                .clone()
                .map(|f| shown(&f))
                .unwrap_or_else(|| "the catalog could not be checked".to_string()));
        };
        let (text, value) = match p.command.as_str() {
            RANK => {
                let prompt = match (args.prompt, args.position) {
                    (Some(p), _) => p,
                    (None, Some(at)) => self.prompt_under(c, &args.uri, &path, at).ok_or(
                        "no trigger prompt here: put the cursor on one, or select the text to rank",
                    )?,
                    (None, None) => String::new(),
                };
                let skill = self.skill_of(c, &path, &prompt);
                rank(catalog, config, skill, &prompt)
            }
            LISTING => listing(catalog, config, self.skill_of(c, &path, "")),
            other => {
                return Err(format!(
                    "skillsift lsp has no command {}: it has {RANK} and {LISTING}",
                    shown(other)
                ));
            }
        }
        .map_err(|e| shown(&super::fatal_text(&e)))?;
        if args.show {
            let params = lsp_types::ShowMessageParams {
                typ: lsp_types::MessageType::INFO,
                message: text.clone(),
            };
            let n = Notification::new(
                lsp_types::notification::ShowMessage::METHOD.to_string(),
                params,
            );
            send(conn, Message::Notification(n)).map_err(|e| e.message)?;
        }
        Ok(json!({"text": text, "json": value}))
    }
}

impl Server {
    /// The trigger prompt at `at` in the open buffer `uri`.
    fn prompt_under(
        &self,
        c: &super::Checked,
        uri: &Url,
        path: &std::path::Path,
        at: lsp_types::Position,
    ) -> Option<String> {
        let doc = self.docs.get(uri)?;
        let rel = path
            .strip_prefix(&c.root)
            .ok()?
            .to_string_lossy()
            .replace('\\', "/");
        let lines = super::Lines::new(&doc.text);
        let r = super::actions::prompt_at(c, &rel, &lines, lsp_types::Range::new(at, at))?;
        Some(r.result.prompt.clone())
    }

    /// The skill a command's file belongs to: the skill whose folder holds
    /// it, else (a case file at the root) the skill of its trigger prompt
    /// `prompt`.
    fn skill_of(&self, c: &super::Checked, path: &std::path::Path, prompt: &str) -> Option<usize> {
        let (catalog, _) = c.loaded.as_ref()?;
        let rel = path
            .strip_prefix(&c.root)
            .ok()?
            .to_string_lossy()
            .replace('\\', "/");
        if let Some(i) = crate::suppress::holder(catalog, &rel) {
            return Some(i);
        }
        let r = (c.prompts.get(&rel)?.iter()).find(|r| r.result.prompt == prompt.trim())?;
        catalog.require_skill(&r.result.skill).ok()
    }
}

/// `rank --explain` on the loaded catalog as `check` ranks the prompts of
/// `skill`: within its installation when the catalog's plugins or packs
/// are installed one at a time (`rank --unit`), else as one listing.
fn rank(
    catalog: &crate::catalog::Catalog,
    config: &crate::config::Config,
    skill: Option<usize>,
    prompt: &str,
) -> Result<(String, Value), Fatal> {
    crate::commands::rank::accepted(prompt)?;
    let mut config = config.clone();
    config.route.client = crate::client::chosen(&config, None);
    let analyzer = crate::route::analyzer(&config.route)?;
    let (builtins, mut note) = crate::route::builtins_for(&config, None);
    let builtins = builtins.map(|b| b.builtins);
    let within = installation(catalog, &config, skill)?;
    let sub;
    let catalog = match &within {
        Some(inst) => {
            sub = catalog.subset(&inst.skills, inst.commands);
            let said = format!(
                "ranked within {}, installed on its own, as `check` ranks this file's prompts",
                inst.label
            );
            note = Some(match note {
                Some(n) => format!("{n}; {said}"),
                None => said,
            });
            &sub
        }
        None => catalog,
    };
    let ranking = crate::route::cache::analyze(catalog, &config, &analyzer, builtins.as_deref());
    let mut r = crate::route::cmd::report(
        &ranking,
        config.route.client,
        &analyzer,
        prompt,
        LIMIT,
        true,
    );
    r.note = note;
    rendered(
        |out| crate::report::rank::human(&r, out),
        |out| crate::report::rank::json(&r, out),
    )
}

/// `listing` on the loaded catalog, for the catalog's client: of the
/// installation of `skill` when the catalog's plugins or packs are
/// installed one at a time (what the model is shown with it installed).
fn listing(
    catalog: &crate::catalog::Catalog,
    config: &crate::config::Config,
    skill: Option<usize>,
) -> Result<(String, Value), Fatal> {
    let client = crate::client::chosen(config, None);
    let sub;
    let (catalog, within) = match installation(catalog, config, skill)? {
        Some(inst) => {
            sub = catalog.subset(&inst.skills, inst.commands);
            (&sub, Some(inst.label))
        }
        None => (catalog, None),
    };
    let folder = crate::route::cache::folder(None);
    let builtins = crate::client::capture::load(folder.as_deref(), client).map(|(b, _)| b);
    let builtin_list = builtins.as_ref().map(|b| b.builtins.as_slice());
    let listing = crate::client::ClientIdExt::model(client).listing(catalog, config, builtin_list);
    let view = crate::report::listing::View {
        listing: &listing,
        catalog,
        builtins_version: builtins.as_ref().map(|b| b.version.as_str()),
        captured: None,
        verified: None,
        parts: None,
    };
    let (mut text, mut value) = rendered(
        |out| crate::report::listing::human(&view, out),
        |out| crate::report::listing::json(&view, out),
    )?;
    if let Some(label) = within {
        text = format!("with {label} installed on its own:\n{text}");
        value["installation"] = Value::String(label);
    }
    Ok((text, value))
}

/// The installation holding `skill` when the catalog's plugins or packs
/// are installed one at a time; `None` when it is one listing.
fn installation(
    catalog: &crate::catalog::Catalog,
    config: &crate::config::Config,
    skill: Option<usize>,
) -> Result<Option<crate::client::install::Install>, Fatal> {
    let Some(i) = skill else { return Ok(None) };
    Ok(crate::client::install::installs(catalog, config)?
        .and_then(|list| list.into_iter().find(|inst| inst.skills.contains(&i))))
}

/// A command's human output and its JSON value.
fn rendered(
    human: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
    json: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
) -> Result<(String, Value), Fatal> {
    let mut text = Vec::new();
    human(&mut text).map_err(crate::report::write_error)?;
    let mut bytes = Vec::new();
    json(&mut bytes).map_err(crate::report::write_error)?;
    let value = serde_json::from_slice(&bytes)
        .map_err(|e| Fatal::new(crate::exit::Exit::Usage, format!("language server: {e}")))?;
    Ok((String::from_utf8_lossy(&text).into_owned(), value))
}
