//! `skillsift lsp`: the Language Server Protocol over stdio, for authors
//! writing a description and its trigger prompts in an editor.
//!
//! - **Diagnostics**: `check`'s Tier 1 and Tier 2 findings of the catalog
//!   that holds each open file (found as `check <skill folder>` finds it,
//!   else the editor's workspace folder), with the catalog's suppressions,
//!   levels and per-skill ignores, and `--baseline`'s known findings
//!   dropped. The catalog is read from disk with every open buffer's
//!   unsaved text in place of its file ([`catalog::overlay`]): nothing is
//!   saved or written.
//! - **Inlay hints** after each trigger prompt of a case file: `#1` when
//!   the skill ranks strictly first, `#3 → code-cleanup` when another
//!   skill does, `tie → other` for a tie for first; for a should-not
//!   prompt, `#4 ✓ should not` when it passes, `#1 ✗ should not` when
//!   the skill takes it (or its owner does not outrank the skill).
//! - **Hover** on a prompt: the three skills ranked first, with scores
//!   and `rank --explain`'s shared terms for each.
//!
//! Changes are debounced: the server waits until no message has come for
//! [`QUIET`], so a burst of keystrokes is one update, and a request for
//! hints is answered from the update that follows the changes before it.
//! A change to SKILL.md buffers only is ranked at once on the catalog the
//! last check loaded, the changed skills read again from their buffers
//! (Tier 2's ranking without its findings: a fraction of a check); the
//! whole check, and with it the diagnostics, follows once the editor has
//! been quiet for [`SETTLED`], on a thread of its own: a change made while
//! it runs is ranked at once, and the check it overtook is dropped
//! unpublished (a newer one follows).

mod actions;
mod commands;

use crate::catalog;
use crate::diag::{Diagnostic, Severity};
use crate::exit::{Exit, Fatal};
use lsp_server::{Connection, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, DidSaveTextDocument,
    Notification as _, PublishDiagnostics,
};
use lsp_types::request::{
    CodeActionRequest, ExecuteCommand, HoverRequest, InlayHintRequest, Request as _,
};
use lsp_types::{
    Hover, HoverContents, HoverProviderCapability, InitializeParams, InlayHint, InlayHintLabel,
    InlayHintTooltip, MarkupContent, MarkupKind, NumberOrString, OneOf, Position,
    PublishDiagnosticsParams, Range, ServerCapabilities, TextDocumentSyncCapability,
    TextDocumentSyncKind, Url,
};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// How long the editor must be quiet before a change is ranked.
const QUIET: Duration = Duration::from_millis(150);

/// How long it must be quiet after a ranking before the whole check.
const SETTLED: Duration = Duration::from_millis(1000);

/// Largest file the server reads to place a finding.
const MAX_TEXT: u64 = 16 << 20;

/// Serve until the editor says `exit`.
pub fn serve(baseline: Option<PathBuf>) -> Result<Exit, Fatal> {
    let (connection, io) = Connection::stdio();
    let caps = ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        inlay_hint_provider: Some(OneOf::Left(true)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        code_action_provider: Some(lsp_types::CodeActionProviderCapability::Options(
            lsp_types::CodeActionOptions {
                code_action_kinds: Some(vec![
                    lsp_types::CodeActionKind::QUICKFIX,
                    lsp_types::CodeActionKind::REFACTOR_REWRITE,
                    lsp_types::CodeActionKind::SOURCE,
                    lsp_types::CodeActionKind::SOURCE_FIX_ALL,
                ]),
                ..lsp_types::CodeActionOptions::default()
            },
        )),
        execute_command_provider: Some(lsp_types::ExecuteCommandOptions {
            commands: vec![commands::RANK.to_string(), commands::LISTING.to_string()],
            ..lsp_types::ExecuteCommandOptions::default()
        }),
        ..ServerCapabilities::default()
    };
    let caps = serde_json::to_value(caps).map_err(protocol)?;
    let init = connection.initialize(caps).map_err(protocol)?;
    let init: InitializeParams = serde_json::from_value(init).map_err(protocol)?;
    #[allow(deprecated)]
    let mut workspace: Vec<PathBuf> = (init.workspace_folders.unwrap_or_default().into_iter())
        .filter_map(|f| f.uri.to_file_path().ok())
        .chain(init.root_uri.and_then(|u| u.to_file_path().ok()))
        .filter_map(|p| p.canonicalize().ok())
        .collect();
    workspace.dedup();
    let mut server = Server {
        baseline,
        workspace,
        docs: HashMap::new(),
        checked: BTreeMap::new(),
        found: BTreeMap::new(),
        dirty: false,
        changed: BTreeSet::new(),
        due: false,
        saved: false,
        generation: 0,
        running: None,
        fresh: true,
        urgent: false,
        tuned: std::cell::RefCell::new(HashMap::new()),
        ranking: rayon::ThreadPoolBuilder::new()
            .num_threads(rayon::current_num_threads())
            .thread_name(|i| format!("ranking-{i}"))
            .build()
            .ok(),
    };
    server.run(&connection)?;
    // the editor has said `exit`: the writer thread ends with the channel
    drop(connection);
    io.join().map_err(protocol)?;
    catalog::overlay::set(catalog::overlay::Texts::new());
    Ok(Exit::Ok)
}

fn protocol(e: impl std::fmt::Display) -> Fatal {
    Fatal::new(Exit::Usage, format!("language server: {e}"))
}

/// An open buffer.
struct Doc {
    /// Absolute, symlinks resolved; `None` when no file is behind it.
    path: Option<PathBuf>,
    text: Arc<str>,
    version: i32,
}

/// What one check of a catalog found.
struct Checked {
    /// The catalog's root.
    root: PathBuf,
    /// The open buffers' texts the check read in place of their files.
    read: catalog::overlay::Texts,
    /// Findings by file, relative to the root.
    findings: BTreeMap<String, Vec<Diagnostic>>,
    /// Trigger prompts by case file.
    prompts: BTreeMap<String, Vec<super::commands::Ranked>>,
    /// Every file the check read as part of the catalog.
    files: BTreeSet<String>,
    /// Files diagnostics were published for (cleared when they have none).
    published: BTreeSet<String>,
    /// Why the catalog could not be checked.
    failed: Option<String>,
    /// The catalog as checked and its configuration, for ranking a
    /// changed description without reading the catalog again.
    loaded: Option<(crate::catalog::Catalog, crate::config::Config)>,
}

struct Server {
    baseline: Option<PathBuf>,
    workspace: Vec<PathBuf>,
    docs: HashMap<Url, Doc>,
    /// The last check of each catalog root an open file belongs to.
    checked: BTreeMap<PathBuf, Checked>,
    /// Catalogs `root_of` checked just now (with the buffers of the
    /// check `start` begins) to find which reads a file.
    found: BTreeMap<PathBuf, Checked>,
    /// A buffer changed since the last ranking.
    dirty: bool,
    /// Buffers changed since the last whole check.
    changed: BTreeSet<Url>,
    /// The hints are newer than the diagnostics: a whole check is due.
    due: bool,
    /// A file was saved since the last whole check.
    saved: bool,
    /// Bumped by every change of a buffer.
    generation: u64,
    /// The generation of the whole check running, when one is.
    running: Option<u64>,
    /// The hints reflect every change.
    fresh: bool,
    /// A whole check is to start as soon as none runs.
    urgent: bool,
    /// The threads a ranking runs on, apart from the whole check's.
    ranking: Option<rayon::ThreadPool>,
    /// What `tune` recommends for a SKILL.md, at the generation it was
    /// asked at (a code action asks at every move of the cursor).
    tuned: std::cell::RefCell<HashMap<PathBuf, (u64, Option<crate::authoring::tune::Recommended>)>>,
}

/// A whole check done: for the generation it started at.
struct Job {
    generation: u64,
    checked: Vec<(PathBuf, Checked)>,
}

enum Flow {
    Go,
    Exit,
}

impl Server {
    fn run(&mut self, conn: &Connection) -> Result<(), Fatal> {
        let (done_tx, done) = crossbeam_channel::unbounded::<Job>();
        let mut waiting: Vec<Request> = Vec::new();
        loop {
            // a burst of changes is one update: wait until the editor is
            // quiet, answering what needs no update meanwhile
            let quiet = if self.dirty {
                Some(QUIET)
            } else if self.due && self.running.is_none() {
                Some(SETTLED)
            } else {
                None
            };
            let timer = quiet.map_or_else(crossbeam_channel::never, crossbeam_channel::after);
            crossbeam_channel::select! {
                recv(conn.receiver) -> msg => match msg {
                    Err(_) => return Ok(()),
                    Ok(Message::Request(req)) => {
                        if conn.handle_shutdown(&req).map_err(protocol)? {
                            return Ok(());
                        }
                        if self.fresh {
                            self.answer(conn, req)?;
                        } else {
                            waiting.push(req);
                        }
                    }
                    Ok(Message::Notification(n)) => {
                        if let Flow::Exit = self.notified(n) {
                            return Ok(());
                        }
                    }
                    Ok(Message::Response(_)) => {}
                },
                recv(done) -> job => {
                    self.running = None;
                    let Ok(job) = job else { continue };
                    if job.generation == self.generation {
                        self.apply(conn, job.checked)?;
                        for req in waiting.drain(..) {
                            self.answer(conn, req)?;
                        }
                    } else {
                        // changed while it ran: its findings are stale,
                        // and another check follows
                        self.due = true;
                        self.urgent |= !self.fresh;
                    }
                },
                recv(timer) -> _ => {
                    if self.dirty {
                        self.dirty = false;
                        if self.rerank() {
                            self.fresh = true;
                            for req in waiting.drain(..) {
                                self.answer(conn, req)?;
                            }
                        } else {
                            self.urgent = true;
                        }
                        self.due = true;
                    } else if self.due {
                        self.urgent = true;
                    }
                },
            }
            if self.urgent && !self.dirty && self.running.is_none() {
                self.urgent = false;
                self.start(conn, &done_tx)?;
            }
        }
    }

    fn notified(&mut self, n: Notification) -> Flow {
        if matches!(
            n.method.as_str(),
            DidOpenTextDocument::METHOD
                | DidChangeTextDocument::METHOD
                | DidSaveTextDocument::METHOD
                | DidCloseTextDocument::METHOD
        ) {
            self.generation += 1;
            self.fresh = false;
        }
        match n.method.as_str() {
            DidOpenTextDocument::METHOD => {
                if let Ok(p) =
                    serde_json::from_value::<lsp_types::DidOpenTextDocumentParams>(n.params)
                {
                    let d = p.text_document;
                    let path = d
                        .uri
                        .to_file_path()
                        .ok()
                        .and_then(|p| p.canonicalize().ok());
                    self.changed.insert(d.uri.clone());
                    self.docs.insert(
                        d.uri,
                        Doc {
                            path,
                            text: Arc::from(d.text),
                            version: d.version,
                        },
                    );
                    self.dirty = true;
                }
            }
            DidChangeTextDocument::METHOD => {
                if let Ok(p) =
                    serde_json::from_value::<lsp_types::DidChangeTextDocumentParams>(n.params)
                    && let Some(doc) = self.docs.get_mut(&p.text_document.uri)
                    // full sync: the last change is the whole text
                    && let Some(change) = p.content_changes.into_iter().last()
                {
                    doc.text = Arc::from(change.text);
                    doc.version = p.text_document.version;
                    self.changed.insert(p.text_document.uri);
                    self.dirty = true;
                }
            }
            DidSaveTextDocument::METHOD => {
                // a saved file may be one no buffer stands in for
                self.saved = true;
                self.dirty = true;
            }
            DidCloseTextDocument::METHOD => {
                if let Ok(p) =
                    serde_json::from_value::<lsp_types::DidCloseTextDocumentParams>(n.params)
                {
                    self.docs.remove(&p.text_document.uri);
                    self.changed.insert(p.text_document.uri);
                    self.dirty = true;
                }
            }
            "exit" => return Flow::Exit,
            _ => {}
        }
        Flow::Go
    }

    fn answer(&self, conn: &Connection, req: Request) -> Result<(), Fatal> {
        let result = match req.method.as_str() {
            InlayHintRequest::METHOD => {
                serde_json::from_value::<lsp_types::InlayHintParams>(req.params)
                    .ok()
                    .map(|p| serde_json::to_value(self.hints(&p.text_document.uri, p.range)))
            }
            HoverRequest::METHOD => serde_json::from_value::<lsp_types::HoverParams>(req.params)
                .ok()
                .map(|p| {
                    let at = p.text_document_position_params;
                    serde_json::to_value(self.hover(&at.text_document.uri, at.position))
                }),
            CodeActionRequest::METHOD => {
                serde_json::from_value::<lsp_types::CodeActionParams>(req.params)
                    .ok()
                    .map(|p| serde_json::to_value(self.actions(&p)))
            }
            ExecuteCommand::METHOD => {
                let Ok(p) = serde_json::from_value::<lsp_types::ExecuteCommandParams>(req.params)
                else {
                    return send(conn, Message::Response(invalid(req.id)));
                };
                let r = match self.execute(conn, p) {
                    Ok(v) => Response::new_ok(req.id, v),
                    Err(why) => {
                        Response::new_err(req.id, lsp_server::ErrorCode::RequestFailed as i32, why)
                    }
                };
                return send(conn, Message::Response(r));
            }
            _ => {
                let r = Response::new_err(
                    req.id,
                    lsp_server::ErrorCode::MethodNotFound as i32,
                    format!("skillsift lsp does not serve {}", req.method),
                );
                return send(conn, Message::Response(r));
            }
        };
        let r = match result {
            Some(Ok(v)) => Response::new_ok(req.id, v),
            _ => invalid(req.id),
        };
        send(conn, Message::Response(r))
    }

    /// Start the whole check of every catalog an open buffer belongs to,
    /// with every buffer in place of its file, on a thread of its own:
    /// the editor's changes are ranked meanwhile, and a check overtaken by
    /// a change is not published ([`Server::run`]).
    fn start(
        &mut self,
        conn: &Connection,
        done: &crossbeam_channel::Sender<Job>,
    ) -> Result<(), Fatal> {
        let texts: catalog::overlay::Texts = (self.docs.values())
            .filter_map(|d| Some((d.path.clone()?, d.text.clone())))
            .collect();
        // no check runs now: the overlay is this one's until it ends
        catalog::overlay::set(texts.clone());
        let mut roots: BTreeSet<PathBuf> = BTreeSet::new();
        // catalogs `root_of` just checked, with these buffers, to find
        // which reads a file: that check is this one
        let mut fresh: BTreeSet<PathBuf> = BTreeSet::new();
        let paths: Vec<PathBuf> = self.docs.values().filter_map(|d| d.path.clone()).collect();
        for path in &paths {
            if let Some((root, now)) = self.root_of(path) {
                if now {
                    fresh.insert(root.clone());
                }
                roots.insert(root);
            }
        }
        // catalogs no open file belongs to any more: their findings go
        let gone: Vec<PathBuf> = (self.checked.keys())
            .filter(|r| !roots.contains(*r))
            .cloned()
            .collect();
        for root in gone {
            if let Some(old) = self.checked.remove(&root) {
                for file in &old.published {
                    publish(conn, &root, file, Vec::new(), None)?;
                }
            }
        }
        let generation = self.generation;
        let baseline = self.baseline.clone();
        let done = done.clone();
        self.running = Some(generation);
        let found = std::mem::take(&mut self.found);
        if !roots.is_empty() && roots.iter().all(|r| fresh.contains(r)) {
            // the first check of a catalog (opening its first file):
            // published now, not run twice
            let mut found = found;
            let checked = (roots.into_iter())
                .filter_map(|root| {
                    let mut c = found.remove(&root)?;
                    c.read = (texts.iter())
                        .filter(|(p, _)| p.starts_with(&root))
                        .map(|(p, t)| (p.clone(), t.clone()))
                        .collect();
                    Some((root, c))
                })
                .collect();
            let _ = done.send(Job {
                generation,
                checked,
            });
            return Ok(());
        }
        std::thread::Builder::new()
            .name("check".into())
            .spawn(move || {
                let checked = (roots.into_iter())
                    .map(|root| {
                        let mut c = check_root(&root, baseline.as_deref());
                        c.read = (texts.iter())
                            .filter(|(p, _)| p.starts_with(&root))
                            .map(|(p, t)| (p.clone(), t.clone()))
                            .collect();
                        (root, c)
                    })
                    .collect();
                let _ = done.send(Job {
                    generation,
                    checked,
                });
            })
            .map_err(protocol)?;
        Ok(())
    }

    /// Publish a whole check that no change overtook.
    fn apply(&mut self, conn: &Connection, checked: Vec<(PathBuf, Checked)>) -> Result<(), Fatal> {
        self.due = false;
        self.saved = false;
        self.changed.clear();
        self.fresh = true;
        for (root, mut new) in checked {
            let old = self.checked.remove(&root);
            // an open SKILL.md whole, as `tune` needs it (a check keeps
            // a body's start only)
            if let Some((catalog, _)) = new.loaded.as_mut() {
                for doc in self.docs.values() {
                    let Some(rel) = (doc.path.as_ref())
                        .and_then(|p| p.strip_prefix(&root).ok())
                        .map(|r| r.to_string_lossy().replace('\\', "/"))
                    else {
                        continue;
                    };
                    if let Some(s) = catalog.skills.iter_mut().find(|s| s.file == rel)
                        && s.cut != 0
                    {
                        *s = s.reread(&doc.text).0;
                    }
                }
            }
            if let Some(why) = &new.failed {
                show(conn, why)?;
            }
            let config = crate::config::CONFIG_FILE;
            // a skillsift.toml that stops the check: said where it says
            let config_failed = new
                .failed
                .clone()
                .filter(|_| new.loaded.is_none())
                .filter(|_| root.join(config).is_file());
            if let Some(why) = config_failed {
                let d = lsp_types::Diagnostic {
                    range: config_position(&why)
                        .map(|p| Range::new(p, p))
                        .unwrap_or_default(),
                    severity: Some(lsp_types::DiagnosticSeverity::ERROR),
                    source: Some("skillsift".to_string()),
                    message: shown(&why),
                    ..lsp_types::Diagnostic::default()
                };
                let version = self.version_of(&root.join(config));
                publish(conn, &root, config, vec![d], version)?;
                new.published.insert(config.to_string());
            }
            let mut files: BTreeSet<String> = new.findings.keys().cloned().collect();
            files.extend(old.iter().flat_map(|o| o.published.iter().cloned()));
            files.retain(|f| !(f == config && new.published.contains(config)));
            for file in files {
                let diags = new.findings.get(&file).map(Vec::as_slice).unwrap_or(&[]);
                let path = root.join(&file);
                let text = self.text_of(&path);
                let lines = text.as_deref().map(Lines::new);
                let converted: Vec<lsp_types::Diagnostic> =
                    diags.iter().map(|d| to_lsp(d, lines.as_ref())).collect();
                let version = self.version_of(&path);
                if !converted.is_empty() {
                    new.published.insert(file.clone());
                }
                publish(conn, &root, &file, converted, version)?;
            }
            self.checked.insert(root, new);
        }
        Ok(())
    }

    /// The catalog root `path` belongs to: the last check's when it read
    /// the file, else the first of the catalogs above it (as `check`
    /// finds them) and the workspace folders whose check reads it; with
    /// whether it was checked just now to find out.
    fn root_of(&mut self, path: &Path) -> Option<(PathBuf, bool)> {
        let rel = |root: &Path| {
            path.strip_prefix(root)
                .ok()
                .map(|r| r.to_string_lossy().replace('\\', "/"))
        };
        for (root, c) in &self.found {
            if rel(root).is_some_and(|r| c.files.contains(&r)) {
                return Some((root.clone(), true));
            }
        }
        for (root, c) in &self.checked {
            if rel(root).is_some_and(|r| c.files.contains(&r)) {
                return Some((root.clone(), false));
            }
        }
        let dir = path.parent()?;
        let mut candidates = catalog::enclosing_catalogs(dir);
        if path.file_name().is_some_and(|n| n == "SKILL.md") {
            candidates.push(dir.to_path_buf());
        }
        candidates.extend(self.workspace.iter().cloned());
        for root in candidates {
            let Some(r) = rel(&root) else { continue };
            let c = check_root(&root, self.baseline.as_deref());
            if c.files.contains(&r) {
                // kept aside: the check `start` publishes (the last one
                // stays in `checked`, to clear what it published)
                self.found.insert(root.clone(), c);
                return Some((root, true));
            }
            self.checked.entry(root.clone()).or_insert(c);
            // a catalog checked to look for the file holds findings no
            // open file asked for: forget them
            if !self.checked[&root].published.is_empty() {
                continue;
            }
            self.checked.remove(&root);
        }
        None
    }

    /// Rank the prompts again when only open SKILL.md buffers of checked
    /// catalogs changed since the last whole check: those skills read
    /// again from their buffers into the catalog that check loaded. False
    /// (nothing done) when anything else changed.
    fn rerank(&mut self) -> bool {
        if self.saved {
            return false;
        }
        let mut edits: BTreeMap<PathBuf, Vec<(usize, Arc<str>)>> = BTreeMap::new();
        for url in &self.changed {
            let Some(doc) = self.docs.get(url) else {
                return false;
            };
            let Some(path) = &doc.path else { return false };
            let found = self.checked.iter().find_map(|(root, c)| {
                let rel = path
                    .strip_prefix(root)
                    .ok()?
                    .to_string_lossy()
                    .replace('\\', "/");
                let (catalog, _) = c.loaded.as_ref()?;
                let i = catalog.skills.iter().position(|s| s.file == rel)?;
                Some((root.clone(), i))
            });
            let Some((root, i)) = found else { return false };
            edits.entry(root).or_default().push((i, doc.text.clone()));
        }
        for (root, skills) in edits {
            let Some(c) = self.checked.get_mut(&root) else {
                return false;
            };
            let Some((catalog, config)) = c.loaded.as_mut() else {
                return false;
            };
            for (i, text) in skills {
                let (skill, _) = catalog.skills[i].reread(&text);
                catalog.skills[i] = skill;
            }
            // on threads of its own: a whole check may hold the global pool
            let ranked = match &self.ranking {
                Some(pool) => pool.install(|| super::commands::rank_for_editor(catalog, config)),
                None => super::commands::rank_for_editor(catalog, config),
            };
            let Ok(ranked) = ranked else {
                return false;
            };
            c.prompts.clear();
            for r in ranked {
                c.prompts.entry(r.result.file.clone()).or_default().push(r);
            }
        }
        self.due = true;
        true
    }
}

/// The whole check of the catalog at `root`.
fn check_root(root: &Path, baseline: Option<&Path>) -> Checked {
    {
        let mut c = Checked {
            root: root.to_path_buf(),
            read: catalog::overlay::Texts::new(),
            findings: BTreeMap::new(),
            prompts: BTreeMap::new(),
            files: BTreeSet::new(),
            published: BTreeSet::new(),
            failed: None,
            loaded: None,
        };
        let config = match super::commands::load_config(root, None) {
            Ok(config) => config,
            Err(e) => {
                c.failed = Some(fatal_text(&e));
                c.files.insert(crate::config::CONFIG_FILE.to_string());
                return c;
            }
        };
        match super::commands::check_for_editor(root, &config, baseline) {
            Ok((catalog, diagnostics, ranked)) => {
                c.files
                    .extend(catalog.skills.iter().map(|s| s.file.clone()));
                c.files.extend(catalog.cases.iter().map(|f| f.file.clone()));
                // trigger sets, evals files, waza tests: every file a
                // skill's prompts come from
                c.files
                    .extend(catalog.suites.iter().flat_map(|s| s.files.iter().cloned()));
                c.files
                    .extend(catalog.commands.all().map(|f| f.file.clone()));
                c.files.insert(crate::config::CONFIG_FILE.to_string());
                for d in diagnostics {
                    c.findings.entry(d.file.clone()).or_default().push(d);
                }
                for r in ranked {
                    c.prompts.entry(r.result.file.clone()).or_default().push(r);
                }
                c.loaded = Some((catalog, config));
            }
            Err(e) => c.failed = Some(fatal_text(&e)),
        }
        c
    }
}

impl Checked {
    /// Whether the check read `text` for the buffer at `path`: a finding's
    /// offsets hold in it.
    fn read_as(&self, path: Option<&Path>, text: &Arc<str>) -> bool {
        path.and_then(|p| self.read.get(p))
            .is_some_and(|t| Arc::ptr_eq(t, text) || **t == **text)
    }
}

impl Server {
    /// The text of `path`: its buffer when open, else the file.
    fn text_of(&self, path: &Path) -> Option<Arc<str>> {
        if let Some(d) = self.docs.values().find(|d| d.path.as_deref() == Some(path)) {
            return Some(d.text.clone());
        }
        let bytes = catalog::read_file(path, MAX_TEXT, false).ok()??;
        String::from_utf8(bytes).ok().map(Arc::from)
    }

    fn version_of(&self, path: &Path) -> Option<i32> {
        (self.docs.values())
            .find(|d| d.path.as_deref() == Some(path))
            .map(|d| d.version)
    }

    /// The checked catalog and the root-relative name of an open buffer.
    fn located(&self, uri: &Url) -> Option<(&Checked, String)> {
        let path = self.docs.get(uri)?.path.as_ref()?;
        self.checked.iter().find_map(|(root, c)| {
            let rel = path
                .strip_prefix(root)
                .ok()?
                .to_string_lossy()
                .replace('\\', "/");
            c.files.contains(&rel).then_some((c, rel))
        })
    }

    fn hints(&self, uri: &Url, range: Range) -> Vec<InlayHint> {
        let Some((c, rel)) = self.located(uri) else {
            return Vec::new();
        };
        let Some(doc) = self.docs.get(uri) else {
            return Vec::new();
        };
        let lines = Lines::new(&doc.text);
        (c.prompts.get(&rel).into_iter().flatten())
            .filter(|r| r.result.lexical)
            .filter_map(|r| {
                let at = lines.position(r.result.span.end)?;
                (at >= range.start && at <= range.end).then(|| InlayHint {
                    position: at,
                    label: InlayHintLabel::String(shown(&label(r))),
                    kind: None,
                    text_edits: None,
                    tooltip: Some(InlayHintTooltip::String(shown(&top_three(r)))),
                    padding_left: Some(true),
                    padding_right: None,
                    data: None,
                })
            })
            .collect()
    }

    fn hover(&self, uri: &Url, at: Position) -> Option<Hover> {
        let (c, rel) = self.located(uri)?;
        let doc = self.docs.get(uri)?;
        let lines = Lines::new(&doc.text);
        let r = c.prompts.get(&rel)?.iter().find(|r| {
            let (Some(s), Some(e)) = (
                lines.position(r.result.span.start),
                lines.position(r.result.span.end),
            ) else {
                return false;
            };
            s <= at && at <= e
        })?;
        let range = Range::new(
            lines.position(r.result.span.start)?,
            lines.position(r.result.span.end)?,
        );
        Some(Hover {
            contents: HoverContents::Markup(MarkupContent {
                kind: MarkupKind::Markdown,
                value: format!(
                    "**{}**\n\n{}",
                    escape_md(&shown(&label(r))),
                    escape_md(&shown(&explained(r)))
                ),
            }),
            range: Some(range),
        })
    }
}

/// A prompt's hint: `#1`; `#3 → code-cleanup`; `tie → other`; for a
/// should-not prompt `#4 ✓ should not`, or `#1 ✗ should not`.
fn label(r: &super::commands::Ranked) -> String {
    use crate::catalog::cases::Side;
    let p = &r.result;
    match p.kind {
        Side::Positive if p.rank1 => "#1".to_string(),
        Side::Positive if p.tied_first => match &r.first {
            Some(f) => format!("tie → {f}"),
            None => "tie".to_string(),
        },
        Side::Positive if p.rank == 0 || p.score <= 0.0 => "no match".to_string(),
        Side::Positive => match &r.first {
            Some(f) => format!("#{} → {f}", p.rank),
            None => format!("#{}", p.rank),
        },
        Side::Negative if p.passed => format!("#{} ✓ should not", p.rank.max(1)),
        Side::Negative => format!("#{} ✗ should not", p.rank.max(1)),
    }
}

/// The three skills ranked first, one a line.
fn top_three(r: &super::commands::Ranked) -> String {
    if r.top.is_empty() {
        return "no skill shares a word with this prompt".to_string();
    }
    (r.top.iter().enumerate())
        .map(|(i, (name, score, _))| format!("{}. {name} ({score:.2})", i + 1))
        .collect::<Vec<_>>()
        .join("\n")
}

/// [`top_three`] with each skill's shared terms as `rank --explain`
/// gives them: the term, the prompt's weight × the skill's = its part.
fn explained(r: &super::commands::Ranked) -> String {
    if r.top.is_empty() {
        return top_three(r);
    }
    let mut out = Vec::new();
    for (i, (name, score, terms)) in r.top.iter().enumerate() {
        out.push(format!("{}. {name} ({score:.2})", i + 1));
        for c in terms {
            out.push(format!(
                "    {} {:.3} × {:.3} = {:.3}",
                c.term, c.prompt_weight, c.skill_weight, c.contribution
            ));
        }
    }
    out.join("\n")
}

/// The catalog's text as an editor may show it: controls, bidirectional
/// overrides and invisible characters as escapes (a skill's name or a
/// prompt is a stranger's text).
fn shown(s: &str) -> String {
    crate::escape::text(s).into_owned()
}

/// Markdown's special characters escaped (a skill name or a prompt is
/// the catalog's text).
fn escape_md(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if "\\`*_{}[]()<>#+-.!|~".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out.replace('\n', "  \n")
}

/// The line starts of a text, for LSP positions (UTF-16 code units).
struct Lines<'t> {
    text: &'t str,
    starts: Vec<usize>,
}

impl<'t> Lines<'t> {
    fn new(text: &'t str) -> Lines<'t> {
        let mut starts = vec![0];
        starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1));
        Lines { text, starts }
    }

    /// The byte offset of `at`; `None` past the end of its line or
    /// inside a character.
    fn offset(&self, at: Position) -> Option<usize> {
        let start = *self.starts.get(at.line as usize)?;
        let end = (self.starts.get(at.line as usize + 1).copied()).unwrap_or(self.text.len());
        let line = &self.text[start..end];
        let mut units = 0;
        for (i, c) in line.char_indices() {
            if units == at.character as usize {
                return Some(start + i);
            }
            units += c.len_utf16();
        }
        (units == at.character as usize).then_some(end)
    }

    /// The position of byte `at`; `None` past the end or inside a
    /// character.
    fn position(&self, at: usize) -> Option<Position> {
        let line = self.starts.partition_point(|&s| s <= at).checked_sub(1)?;
        let before = self.text.get(self.starts[line]..at)?;
        let col = before.encode_utf16().count();
        Some(Position::new(line as u32, col as u32))
    }
}

/// Where the editor shows a finding: its span, else the file's start.
fn range_of(d: &Diagnostic, lines: Option<&Lines>) -> Range {
    d.span
        .zip(lines)
        .and_then(|(s, l)| Some(Range::new(l.position(s.start)?, l.position(s.end)?)))
        .unwrap_or_default()
}

/// A finding as the editor shows it; `lines` places its span (built once
/// per file: a case file may hold thousands of findings).
fn to_lsp(d: &Diagnostic, lines: Option<&Lines>) -> lsp_types::Diagnostic {
    let range = range_of(d, lines);
    let mut message = shown(&d.message);
    if let Some(help) = &d.help {
        message.push_str("\nhelp: ");
        message.push_str(&shown(help));
    }
    lsp_types::Diagnostic {
        range,
        severity: Some(match d.severity {
            Severity::Error => lsp_types::DiagnosticSeverity::ERROR,
            Severity::Warning => lsp_types::DiagnosticSeverity::WARNING,
            Severity::Notice => lsp_types::DiagnosticSeverity::INFORMATION,
        }),
        code: Some(NumberOrString::String(d.rule.to_string())),
        code_description: None,
        source: Some("skillsift".to_string()),
        message,
        related_information: None,
        tags: None,
        data: None,
    }
}

fn publish(
    conn: &Connection,
    root: &Path,
    file: &str,
    diagnostics: Vec<lsp_types::Diagnostic>,
    version: Option<i32>,
) -> Result<(), Fatal> {
    let Ok(uri) = Url::from_file_path(root.join(file)) else {
        return Ok(());
    };
    let params = PublishDiagnosticsParams {
        uri,
        diagnostics,
        version,
    };
    let n = Notification::new(PublishDiagnostics::METHOD.to_string(), params);
    send(conn, Message::Notification(n))
}

/// A message for the editor's user: what stopped a catalog's check.
fn show(conn: &Connection, text: &str) -> Result<(), Fatal> {
    let params = lsp_types::ShowMessageParams {
        typ: lsp_types::MessageType::ERROR,
        message: shown(text),
    };
    let n = Notification::new(
        lsp_types::notification::ShowMessage::METHOD.to_string(),
        params,
    );
    send(conn, Message::Notification(n))
}

/// Where a configuration error says it is: its `skillsift.toml:LINE:COL:`.
fn config_position(message: &str) -> Option<Position> {
    let at = message.find(crate::config::CONFIG_FILE)? + crate::config::CONFIG_FILE.len();
    let mut parts = message[at..].strip_prefix(':')?.splitn(3, ':');
    let line: u32 = parts.next()?.parse().ok()?;
    let col: u32 = parts.next()?.parse().ok()?;
    Some(Position::new(line.checked_sub(1)?, col.saturating_sub(1)))
}

fn fatal_text(e: &Fatal) -> String {
    match &e.help {
        Some(help) => format!("skillsift: {}\nhelp: {help}", e.message),
        None => format!("skillsift: {}", e.message),
    }
}

fn invalid(id: RequestId) -> Response {
    Response::new_err(
        id,
        lsp_server::ErrorCode::InvalidParams as i32,
        "invalid parameters".to_string(),
    )
}

fn send(conn: &Connection, msg: Message) -> Result<(), Fatal> {
    conn.sender.send(msg).map_err(protocol)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_strangers_text_is_escaped_for_the_editor() {
        assert_eq!(shown("a\u{202e}b\x1b[2J"), "a\\u{202e}b\\x1b[2J");
        assert_eq!(
            escape_md("[x](javascript:y) <b>"),
            "\\[x\\]\\(javascript:y\\) \\<b\\>"
        );
    }

    #[test]
    fn a_configuration_error_is_placed_where_it_says() {
        assert_eq!(
            config_position("skillsift: /x/skillsift.toml:2:9: invalid configuration"),
            Some(Position::new(1, 8))
        );
        assert_eq!(
            config_position("skillsift: /x/skillsift.toml: unreadable"),
            None
        );
    }

    #[test]
    fn positions_count_utf16_code_units() {
        let l = Lines::new("ab\né😀x\n");
        assert_eq!(l.position(0), Some(Position::new(0, 0)));
        assert_eq!(l.position(3), Some(Position::new(1, 0)));
        // é is one unit, 😀 two
        assert_eq!(l.position(3 + 2 + 4), Some(Position::new(1, 3)));
        assert_eq!(l.position(4), None, "inside é");
        assert_eq!(l.position(99), None);
    }
}
