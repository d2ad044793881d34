//! Wires a parsed command line to the library and yields an exit code: the
//! only place that loads configuration, picks a renderer and maps outcomes
//! to exit codes. One file per subcommand; `check` and the subcommands
//! without a file of their own (`rules`, `rule`, `schema`) are here.

pub mod behave;
pub mod cases;
pub mod diff;
pub mod init;
pub mod listing;
pub mod merge;
pub mod rank;
pub mod report;
pub mod routing;
pub mod score;
pub mod triggers;
pub mod tune;

use crate::catalog::{self, Catalog};
use crate::cli::{CheckArgs, Cli, Command, Format, RuleArgs, RulesArgs};
use crate::config::Config;
use crate::diag::{Diagnostic, sort_diagnostics};
use crate::exit::{Exit, Fatal};
use crate::lint::{self, registry};
use crate::report::{Outcome, Summary};
use std::io::Write;
use std::path::Path;

/// Run one command, writing its report to `out`.
pub fn run(cli: Cli, out: &mut dyn Write) -> Result<Exit, Fatal> {
    match cli.command {
        Command::Check(args) => check(&args, out),
        Command::Rank(args) => rank::rank(&args, out),
        Command::Listing(args) => listing::listing(&args, out),
        Command::Cases(args) => cases::run(&args, out),
        Command::Init(args) => init::run(&args, out),
        Command::Tune(args) => tune::run(&args, out),
        Command::Diff(args) => diff::run(&args, out),
        Command::Score(args) => score::run(&args, out),
        Command::Merge(args) => merge::merge(&args, out),
        Command::Report(args) => report::run(&args, out),
        Command::Rules(args) => rules(&args, out),
        Command::Rule(args) => rule(&args, out),
        Command::Lsp(_) => Err(Fatal::usage(
            "skillsift lsp is started by an editor, before any output is written",
        )),
        Command::Schema(args) => {
            writeln!(out, "{}", crate::schema::schema(args.kind))
                .map_err(crate::report::write_error)?;
            Ok(Exit::Ok)
        }
    }
}

/// Load `skillsift.toml`: the `--config` file when given, else the one at the
/// catalog root when it exists, else defaults.
pub fn load_config(root: &Path, explicit: Option<&Path>) -> Result<Config, Fatal> {
    // A `--config` file is the user's; the catalog's own skillsift.toml is
    // read as every file of the catalog's (inside it, a regular file).
    let (config, text, origin) = match explicit {
        Some(p) => {
            let (config, text) = Config::load(p)?;
            (config, text, p.display().to_string())
        }
        None if root.is_dir() => match Config::load_catalog(root)? {
            Some((config, text)) => {
                let origin = root.join(crate::config::CONFIG_FILE).display().to_string();
                (config, text, origin)
            }
            None => return Ok(Config::default()),
        },
        None => return Ok(Config::default()),
    };
    // Every rule id or name the file mentions must exist (exit 2 with a
    // did-you-mean otherwise): the registry lives above the config crate.
    crate::suppress::check_config_rules(&text, &origin)?;
    Ok(config)
}

/// Most threads `--threads` starts.
const MAX_THREADS: usize = 1024;

/// Size rayon's global pool; only the first call takes effect.
pub fn set_threads(threads: Option<usize>) -> Result<(), Fatal> {
    if let Some(n) = threads {
        if n == 0 {
            return Err(Fatal::usage("--threads must be at least 1"));
        }
        if n > MAX_THREADS {
            return Err(Fatal::usage(format!(
                "--threads must be at most {MAX_THREADS}, not {n}"
            )));
        }
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global();
    }
    Ok(())
}

/// `skillsift check`: Tier 1, then Tier 2, then (when asked) Tier 3.
fn check(args: &CheckArgs, out: &mut dyn Write) -> Result<Exit, Fatal> {
    set_threads(args.threads)?;
    if !args.root.exists() {
        return Err(
            Fatal::usage(format!("{}: no such file or folder", args.root.display()))
                .with_help("pass a catalog folder, a skill folder or a SKILL.md"),
        );
    }
    if args.no_route
        && (args.baseline.is_some() || args.save_baseline.is_some() || args.min_rank1.is_some())
    {
        return Err(Fatal::usage(
            "--baseline, --save-baseline and --min-rank1 need Tier 2, which --no-route skips",
        )
        .with_help("drop --no-route, or drop the routing flags"));
    }
    if args.statistics && args.format != Format::Human {
        return Err(
            Fatal::usage("--statistics prints text: it needs --format human")
                .with_help("drop --statistics, or count `.diagnostics[].rule` of --format json"),
        );
    }
    let config = load_config(&args.root, args.config.as_deref())?;
    let mut fix_refused = Vec::new();
    if args.fix || args.diff {
        if args.behave.behavioral.is_some() || args.behave.behavioral_routing {
            return Err(
                Fatal::usage("--fix and --diff do not run with --behavioral")
                    .with_help("fix first, then run the behavioral evals"),
            );
        }
        let opts = crate::fix::Opts {
            unsafe_fixes: args.unsafe_fixes,
        };
        let human = args.format == Format::Human;
        match crate::fix::command(&args.root, &config, opts, args.diff, human, out)? {
            crate::fix::Done::Exit(exit) => return Ok(exit),
            crate::fix::Done::Check { refused } => fix_refused = refused,
        }
    } else if args.unsafe_fixes {
        return Err(
            Fatal::usage("--unsafe-fixes applies only with --fix or --diff")
                .with_help("add --fix (write) or --diff (show)"),
        );
    }
    if args.behave.behavioral_routing {
        let catalog = Catalog::load(&args.root, &config)?;
        return routing::check(&catalog, &config, &(&args.behave).into(), args.format, out);
    }
    if let Some(skill) = &args.behave.behavioral {
        if skill.is_empty() {
            return Err(Fatal::usage("--behavioral needs the skill to evaluate")
                .with_help("--behavioral SKILL (its frontmatter `name`, else its folder name)"));
        }
        let catalog = Catalog::load(&args.root, &config)?;
        return behave::check(
            &catalog,
            &config,
            skill,
            &(&args.behave).into(),
            args.format,
            out,
        );
    }
    // Tier 1's rules over the whole catalog (client listings, collisions,
    // much of it on one core) run below while Tier 2 ranks
    let (catalog, mut diagnostics, focus, rest) = match in_catalog(args)? {
        Some((catalog, diagnostics, focus)) => (catalog, diagnostics, focus, None),
        None => {
            let lint::Loaded { catalog, rest } = lint::load(&args.root, &config)?;
            (catalog, Vec::new(), None, Some(rest))
        }
    };
    let config = match &focus {
        Some(f) => f.config.clone(),
        None => config,
    };
    if let Some(fatal) = catalog::empty::nothing_found(&catalog, &config) {
        return Err(fatal);
    }
    let mut summary = Summary {
        skills_checked: if focus.is_some() {
            1
        } else {
            catalog.skills.len()
        },
        roots: catalog.roots.clone(),
        ..Summary::default()
    };
    if let Some(f) = &focus {
        summary.notes.push(f.note.clone());
    }
    let mut gate_failed = false;
    let mut prompts = Vec::new();
    let mut routed_files = Vec::new();
    let route = || {
        (!args.no_route).then(|| {
            crate::route::check(
                &catalog,
                &config,
                &crate::route::Opts {
                    min_rank1: args.min_rank1,
                    baseline: args.baseline.as_deref(),
                    save_baseline: args.save_baseline.as_deref(),
                    client: args.client,
                },
            )
        })
    };
    let routed = match rest {
        Some(rest) => {
            let (lint, routed) = rayon::join(|| rest.finish(&catalog, &config), route);
            diagnostics = tier1_findings(&catalog, lint);
            routed
        }
        None => route(),
    };
    if let Some(routed) = routed {
        let routed = routed?;
        diagnostics.extend(routed.diagnostics);
        if let Some(f) = &focus {
            diagnostics.retain(|d| f.concerns(&d.file));
        }
        gate_failed |= routed.gate_failed;
        summary.route = routed.summary;
        if let (Some(f), Some(r)) = (&focus, summary.route.as_mut()) {
            r.unroutable.retain(|file| f.concerns(file));
        }
        if args.format == Format::Junit {
            routed_files = routed
                .router
                .index
                .docs()
                .iter()
                .map(|d| d.file.clone())
                .collect();
            prompts = routed.prompts;
        }
        // see the end of this function; the collisions' shared words (a
        // fifth of a check's memory on the mirror) are no longer needed
        std::mem::forget(routed.router);
        rayon::iter::ParallelIterator::for_each(
            rayon::iter::IntoParallelIterator::into_par_iter(routed.collisions),
            drop,
        );
    }
    crate::suppress::apply(&mut diagnostics, &catalog, &config)?;
    lint::apply_levels(&mut diagnostics, &config);
    known_findings(args, &catalog, &mut diagnostics, &mut summary)?;
    if !args.no_route && catalog.target == catalog::Target::SkillDir {
        summary
            .notes
            .extend(crate::route::single_skill_note(&catalog));
    }
    summary
        .notes
        .extend(crate::fix::unfixable(&mut diagnostics, &fix_refused));
    lint::one_cause::fold_repeated_keys(&mut diagnostics);
    settle(&mut diagnostics, &mut summary, &config);
    summary.notes.extend(unread_trigger_tests(&diagnostics));
    let prefix = path_prefix(&catalog, &args.root);
    let files = if args.format == Format::Junit {
        checked_files(&catalog)
    } else {
        Vec::new()
    };
    let outcome = Outcome {
        diagnostics: &diagnostics,
        summary: &summary,
        sources: &catalog.sources,
        path_prefix: &prefix,
        checked: crate::report::junit::Checked {
            files: &files,
            prompts: &prompts,
            routed: &routed_files,
        },
    };
    if args.statistics {
        crate::report::statistics::render(&outcome, out).map_err(crate::report::write_error)?;
    } else {
        crate::report::render(args.format, &outcome, out)?;
    }
    // saving a baseline records the findings there are: its job is done
    // when the file is written, whatever they are
    let saved = args.save_baseline.is_some();
    // the process ends after this: the system takes back the catalog, the
    // router and 150,000 findings at once, where dropping them frees each
    // string one by one on one core (a tenth of a second on the mirror)
    std::mem::forget(diagnostics);
    std::mem::forget(catalog);
    Ok(if (summary.errors > 0 && !saved) || gate_failed {
        Exit::Failed
    } else {
        Exit::Ok
    })
}

/// The catalog loaded for a focused check, its findings, and the focus.
type Focused = (Catalog, Vec<Diagnostic>, Option<Focus>);

/// A skill folder checked as part of the catalog that holds it.
struct Focus {
    /// The skill folder, relative to the catalog root.
    rel_dir: String,
    /// The files its trigger prompts and evals come from.
    case_files: Vec<String>,
    /// The catalog's configuration.
    config: Config,
    /// What the summary says of it.
    note: String,
}

impl Focus {
    /// Whether a finding in `file` (catalog-relative) is the skill's.
    fn concerns(&self, file: &str) -> bool {
        file.strip_prefix(self.rel_dir.as_str())
            .is_some_and(|rest| rest.starts_with('/'))
            || self.case_files.iter().any(|f| f == file)
    }
}

/// A trigger prompt's result for an editor: the prompt as Tier 2 ranked
/// it, and the skill ranked first when it is not the prompt's own.
pub struct Ranked {
    pub result: crate::route::cases::PromptResult,
    /// The skill ranked first when another skill's (a positive's miss or
    /// tie, a negative's owner behind).
    pub first: Option<String>,
    /// The three skills ranked first, with their scores and each shared
    /// term's part in it (`rank --explain`'s).
    pub top: Vec<(String, f64, Vec<crate::route::rank::Contribution>)>,
}

/// `check` of the catalog at `root` as the language server needs it:
/// Tier 1 and Tier 2 with the catalog's suppressions, levels and per-skill
/// ignores applied, and the findings `baseline` lists dropped; with every
/// trigger prompt's result.
pub fn check_for_editor(
    root: &Path,
    config: &Config,
    baseline: Option<&Path>,
) -> Result<(Catalog, Vec<Diagnostic>, Vec<Ranked>), Fatal> {
    let (catalog, mut diagnostics) = tier1(root, config)?;
    let routed = crate::route::check(&catalog, config, &crate::route::Opts::default())?;
    diagnostics.extend(routed.diagnostics);
    let installs = crate::client::install::installs(&catalog, config)?;
    let ranked = ranked(&routed.router, routed.prompts, installs.as_deref(), config)?;
    crate::suppress::apply(&mut diagnostics, &catalog, config)?;
    lint::apply_levels(&mut diagnostics, config);
    if let Some(path) = baseline
        && let Some(old) = crate::route::baseline::Baseline::load(path)?.findings
    {
        crate::route::baseline::drop_known(&mut diagnostics, &old, &catalog.sources);
    }
    settle(&mut diagnostics, &mut Summary::default(), config);
    Ok((catalog, diagnostics, ranked))
}

/// Every trigger prompt of `catalog` ranked as `check` ranks it, and no
/// more (no findings, no collisions): what an editor shows after each
/// keystroke, in a fraction of a check's time.
pub fn rank_for_editor(catalog: &Catalog, config: &Config) -> Result<Vec<Ranked>, Fatal> {
    let mut config = config.clone();
    config.route.client = crate::client::chosen(&config, None);
    let r = crate::route::rank_prompts(catalog, &config)?;
    ranked(&r.router, r.outcome.prompts, r.installs.as_deref(), &config)
}

/// `prompts` with the skill ranked first and the three first by name,
/// each ranked where `check` ranks it: in a catalog installed in parts
/// (`installs`), within its skill's installation, with its own listing.
fn ranked(
    router: &crate::route::Router,
    prompts: Vec<crate::route::cases::PromptResult>,
    installs: Option<&[crate::client::install::Install]>,
    config: &Config,
) -> Result<Vec<Ranked>, Fatal> {
    let catalog = router.catalog;
    // each installation's router, built for the installations prompts
    // are ranked in
    let where_of = installs.map(|i| crate::client::install::where_of(catalog, i));
    let mut used: Vec<usize> = match &where_of {
        Some(w) => prompts
            .iter()
            .filter_map(|p| w.get(router.source_of(p.doc)).copied())
            .collect(),
        None => Vec::new(),
    };
    used.sort_unstable();
    used.dedup();
    let subs: Vec<(usize, Catalog)> = match installs {
        Some(list) => used
            .iter()
            .map(|&k| (k, catalog.subset(&list[k].skills, list[k].commands)))
            .collect(),
        None => Vec::new(),
    };
    let (builtins, _) = crate::route::builtins_for(config, None);
    let builtins = builtins.as_ref().map(|b| b.builtins.as_slice());
    let mut routers: std::collections::HashMap<usize, crate::route::Router> =
        std::collections::HashMap::new();
    for (k, sub) in &subs {
        routers.insert(
            *k,
            crate::route::Router::with_builtins(sub, config, builtins)?,
        );
    }
    let index = &router.index;
    Ok(prompts
        .into_iter()
        .map(|p| {
            let first = p
                .cell
                .and_then(|c| c.winner)
                .filter(|&w| w != p.doc)
                .map(|w| index.doc(w).name.clone());
            let within = (where_of.as_ref())
                .and_then(|w| w.get(router.source_of(p.doc)))
                .and_then(|k| routers.get(k))
                .unwrap_or(router);
            let top = if p.lexical {
                let index = &within.index;
                let q = crate::route::index::Query::new(&p.prompt, &within.analyzer, index);
                let mut scorer = crate::route::rank::Scorer::new(index);
                let scores = scorer.score(&q);
                (scores.top(3).into_iter())
                    .map(|(d, score)| {
                        let terms = crate::route::rank::explain(index, &q, d);
                        (index.doc(d).name.clone(), score, terms)
                    })
                    .collect()
            } else {
                Vec::new()
            };
            Ranked {
                result: p,
                first,
                top,
            }
        })
        .collect())
}

/// `check <skill folder>` inside a catalog: the catalog that holds it
/// ([`catalog::enclosing_catalog`]) loaded and checked whole, its trigger
/// prompts ranked among every sibling, and only the skill's own findings
/// kept. `None` when the folder is no skill, has no catalog above it, or
/// that catalog's walk does not find it (an excluded or unlisted folder
/// is then checked alone, as before).
fn in_catalog(args: &CheckArgs) -> Result<Option<Focused>, Fatal> {
    if !args.root.is_dir() || !args.root.join("SKILL.md").is_file() {
        return Ok(None);
    }
    let skill_abs = args.root.canonicalize().ok();
    for abs in catalog::enclosing_catalogs(&args.root) {
        if let Some(found) = check_in(args, &abs, skill_abs.as_deref())? {
            return Ok(Some(found));
        }
    }
    Ok(None)
}

/// [`in_catalog`] for the catalog at `abs`: `None` when its walk does not
/// find the skill at `skill_abs`.
fn check_in(
    args: &CheckArgs,
    abs: &Path,
    skill_abs: Option<&Path>,
) -> Result<Option<Focused>, Fatal> {
    // the catalog as the user would name it: relative to the working
    // folder when it lies below it
    let shown = std::env::current_dir()
        .ok()
        .and_then(|c| c.canonicalize().ok())
        .and_then(|c| {
            abs.strip_prefix(c).ok().map(|r| {
                if r.as_os_str().is_empty() {
                    std::path::PathBuf::from(".")
                } else {
                    r.to_path_buf()
                }
            })
        })
        .unwrap_or_else(|| abs.to_path_buf());
    let config = load_config(&shown, args.config.as_deref())?;
    let (mut catalog, mut diagnostics) = tier1(&shown, &config)?;
    let Some(i) = catalog
        .skills
        .iter()
        .position(|s| s.dir.canonicalize().ok().as_deref() == skill_abs)
    else {
        return Ok(None);
    };
    let rel_dir = catalog.skills[i].rel_dir.clone();
    // only its own prompts are ranked; every sibling competes
    catalog.suites.retain(|s| s.skill == Some(i));
    catalog.suite_by_skill = catalog::cases::suite_index(&catalog.suites, catalog.skills.len());
    let case_files: Vec<String> = catalog
        .suites
        .iter()
        .flat_map(|s| s.files.iter().cloned())
        .collect();
    let prompts: usize = catalog
        .suites
        .iter()
        .map(|s| s.positive.len() + s.negative.len())
        .sum();
    let n = catalog.skills.len();
    let focus = Focus {
        note: format!(
            "checked {rel_dir}/ as part of the catalog at {} ({n} skill{}){}; the other skills' findings are not shown",
            shown.display(),
            if n == 1 { "" } else { "s" },
            if prompts > 0 && !args.no_route {
                ": its trigger prompts were ranked among them"
            } else {
                ""
            }
        ),
        rel_dir,
        case_files,
        config,
    };
    diagnostics.retain(|d| focus.concerns(&d.file));
    Ok(Some((catalog, diagnostics, Some(focus))))
}

/// The findings half of `--save-baseline` and `--baseline` (the routing
/// half is Tier 2's): record this run's findings in the file Tier 2 just
/// wrote, and drop the findings the baseline lists.
fn known_findings(
    args: &CheckArgs,
    catalog: &Catalog,
    diagnostics: &mut Vec<Diagnostic>,
    summary: &mut Summary,
) -> Result<(), Fatal> {
    use crate::route::baseline::{Baseline, drop_known, findings_of};
    let record = args
        .save_baseline
        .as_ref()
        .map(|_| findings_of(diagnostics, &catalog.sources));
    if let Some(path) = &args.baseline
        && let Some(old) = Baseline::load(path)?.findings
    {
        let known = drop_known(diagnostics, &old, &catalog.sources);
        summary.baseline = Some(crate::report::BaselineSummary {
            known: known.known,
            fixed: known.fixed,
        });
    }
    if let (Some(path), Some(record)) = (&args.save_baseline, record) {
        let mut b = Baseline::load(path)?;
        let n = record.len();
        b.findings = Some(record);
        b.save(path)?;
        summary.notes.push(format!(
            "wrote {}: {} and {} recorded; `skillsift check --baseline {}` reports only what is new",
            path.display(),
            ::base::plural::count(n, "finding"),
            ::base::plural::count(b.prompts.len(), "trigger prompt"),
            path.display()
        ));
    }
    Ok(())
}

/// Load the catalog and run Tier 1 over it: the catalog and the loading
/// and lint findings. Tier 1 runs as each skill is read, so bodies need
/// not all be in memory at once.
pub fn tier1(root: &Path, config: &Config) -> Result<(Catalog, Vec<Diagnostic>), Fatal> {
    let (catalog, lint_diagnostics) = lint::load_and_run(root, config)?;
    let diagnostics = tier1_findings(&catalog, lint_diagnostics);
    Ok((catalog, diagnostics))
}

/// Tier 1's findings: the catalog's load findings (with their fixes), then
/// the rules'.
pub(crate) fn tier1_findings(catalog: &Catalog, lint: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let mut diagnostics = catalog.diagnostics.clone();
    lint::rules::portability::attach_load_fixes(catalog, &mut diagnostics);
    diagnostics.extend(lint);
    diagnostics
}

/// Every file Tier 1 checks: SKILL.md files, case files, command files.
fn checked_files(catalog: &Catalog) -> Vec<String> {
    let mut files: Vec<String> = catalog.skills.iter().map(|s| s.file.clone()).collect();
    files.extend(catalog.cases.iter().map(|c| c.file.clone()));
    files.extend(catalog.commands.all().map(|c| c.file.clone()));
    files.sort();
    files.dedup();
    files
}

/// Apply the configured rule levels, sort, and count what is left.
pub fn settle(diagnostics: &mut Vec<Diagnostic>, summary: &mut Summary, config: &Config) {
    lint::apply_levels(diagnostics, config);
    lint::one_cause::dedupe(diagnostics);
    sort_diagnostics(diagnostics);
    summary.count(diagnostics);
}

/// The summary's word on trigger tests found by shape and not read in
/// full (SG437, SG438, as reported after suppressions and levels): the
/// counts above leave their prompts out, and a green run must not hide it.
fn unread_trigger_tests(diagnostics: &[Diagnostic]) -> Option<String> {
    let mut files: Vec<&str> = diagnostics
        .iter()
        .filter(|d| {
            d.rule == catalog::rules::shaped::NOT_READ.id
                || d.rule == catalog::rules::shaped::UNKNOWN_SKILL.id
        })
        .map(|d| d.file.as_str())
        .collect();
    files.sort_unstable();
    files.dedup();
    (!files.is_empty()).then(|| {
        format!(
            "trigger tests found by shape were not read in full in {} {} (SG437, SG438): the trigger counts above leave those prompts out",
            files.len(),
            if files.len() == 1 { "file" } else { "files" }
        )
    })
}

/// The root as given on the command line, joined with file paths in
/// annotations (a single SKILL.md: its folder).
pub fn path_prefix(catalog: &Catalog, root: &Path) -> String {
    match catalog.target {
        catalog::Target::SkillFile => root
            .parent()
            .map(|p| p.display().to_string())
            .unwrap_or_default(),
        _ => catalog.display_root.clone(),
    }
}

/// `skillsift rules`.
fn rules(args: &RulesArgs, out: &mut dyn Write) -> Result<Exit, Fatal> {
    let w = |out: &mut dyn Write| -> std::io::Result<()> {
        if args.format == Format::Json {
            let list: Vec<_> = registry::RULES
                .iter()
                .map(|r| {
                    serde_json::json!({"id": r.id, "name": r.name, "severity": r.severity.as_str(), "summary": r.summary, "fix": lint::fix_kind(r), "taste": r.taste})
                })
                .collect();
            crate::escape::to_writer_pretty(&mut *out, &list)?;
            writeln!(out)
        } else {
            writeln!(
                out,
                "{:<6} {:<8} {:<6} {:<5} {:<28} SUMMARY",
                "ID", "SEVERITY", "FIX", "KIND", "NAME"
            )?;
            for r in registry::RULES {
                writeln!(
                    out,
                    "{:<6} {:<8} {:<6} {:<5} {:<28} {}",
                    r.id,
                    r.severity.as_str(),
                    lint::fix_kind(r).unwrap_or("-"),
                    if r.taste { "taste" } else { "-" },
                    r.name,
                    r.summary
                )?;
            }
            writeln!(
                out,
                "\nKIND taste: a judgement of style no specification or client asks for; a notice unless [lint.rules] raises it."
            )?;
            Ok(())
        }
    };
    w(out).map_err(crate::report::write_error)?;
    Ok(Exit::Ok)
}

/// `skillsift rule ID`.
fn rule(args: &RuleArgs, out: &mut dyn Write) -> Result<Exit, Fatal> {
    let Some(r) = registry::find(&args.id) else {
        return Err(Fatal::usage(format!("no rule `{}`", args.id))
            .with_help("`skillsift rules` lists every rule"));
    };
    let text = format!(
        "# {} {}\n\n{} (default: {}{})\n\n{}",
        r.id,
        r.name,
        r.summary,
        r.severity,
        if r.taste { "; a rule of taste" } else { "" },
        r.doc
            .lines()
            .map(|l| l.strip_prefix(' ').unwrap_or(l))
            .collect::<Vec<_>>()
            .join("\n")
    );
    writeln!(out, "{}", text.trim_end()).map_err(crate::report::write_error)?;
    Ok(Exit::Ok)
}
