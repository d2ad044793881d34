//! `skillsift tune SKILL [ROOT]`: `authoring::tune` proposes and scores,
//! `report::tune` prints; this file writes the recommendation (`--write`,
//! with `--fix`'s writer) and runs `--behavioral` (the
//! `--behavioral-routing` machinery, `behave::routing`, on this skill's
//! validation prompts, once with each description).

use crate::authoring::tune::{self, MAX_ROUNDS, Tuned, split};
use crate::behave::routing::{self, Prompt};
use crate::catalog::Catalog;
use crate::cli::{Format, TuneArgs};
use crate::commands::load_config;
use crate::config::Config;
use crate::exit::{Exit, Fatal};
use crate::report::tune::{Done, ModelCheck};
use crate::report::write_error;
use crate::route::Router;
use crate::route::index::Query;
use crate::route::rank::Scorer;
use std::io::Write;
use std::path::Path;

pub fn run(args: &TuneArgs, out: &mut dyn Write) -> Result<Exit, Fatal> {
    if !args.root.is_dir() {
        return Err(
            Fatal::usage(format!("{}: not a catalog folder", args.root.display()))
                .with_help("pass the folder that holds the skills"),
        );
    }
    match args.rounds {
        Some(0) => {
            return Err(Fatal::usage("--rounds 0 runs no round")
                .with_help("give 1 or more, or leave --rounds out"));
        }
        Some(n) if n > MAX_ROUNDS => {
            return Err(Fatal::usage(format!("--rounds {n}: at most {MAX_ROUNDS}")));
        }
        _ => {}
    }
    if args.dry_run && args.write {
        return Err(
            Fatal::usage("--dry-run spawns nothing, so nothing is confirmed to --write")
                .with_help("run --behavioral --dry-run first, then --behavioral --write"),
        );
    }
    let config = load_config(&args.root, args.config.as_deref())?;
    let catalog = Catalog::load(&args.root, &config)?;
    if let Some(fatal) = crate::catalog::empty::nothing_found(&catalog, &config) {
        return Err(fatal);
    }
    let opts = tune::Opts {
        rounds: args.rounds,
        client: args.client,
    };
    let tuned = tune::tune(&catalog, &config, &args.skill, opts)?;
    let prefix = crate::commands::path_prefix(&catalog, &args.root);
    let mut done = Done::default();
    if args.behavioral {
        done.model = Some(behavioral(args, &catalog, &config, &tuned)?);
    }
    let confirmed = done.model.as_ref().is_none_or(ModelCheck::confirmed);
    let mut exit = Exit::Ok;
    if !confirmed {
        exit = Exit::Failed;
    }
    if let Some(ModelCheck::Ran { failed_runs, .. }) = &done.model
        && *failed_runs > 0
    {
        exit = Exit::Unavailable;
    }
    if args.write
        && let Some(rec) = &tuned.recommended
    {
        if confirmed {
            let i = catalog.require_skill(&args.skill)?;
            let s = &catalog.skills[i];
            let name = Path::new(&s.file).file_name().unwrap_or_default();
            crate::fix::write_file(
                &s.dir.join(name),
                &tuned.original,
                &rec.text,
                &format!("skillsift tune {}", args.skill),
            )?;
            done.written = true;
        } else {
            done.not_written = Some(
                "the model did not confirm the recommended description; nothing was written".into(),
            );
        }
    }
    let r = match args.format {
        Format::Json => crate::report::tune::json(&tuned, &prefix, &done, out),
        _ => crate::report::tune::human(&tuned, &prefix, &done, out),
    };
    r.map_err(write_error)?;
    Ok(exit)
}

/// Tier 2's first three for `prompt` over `router`, by the names a load
/// is called by.
fn tier2(router: &Router, scorer: &mut Scorer, prompt: &str) -> Vec<String> {
    let q = Query::new(prompt, &router.analyzer, &router.index);
    scorer
        .score(&q)
        .top(3)
        .into_iter()
        .map(|(d, _)| match router.skill(d) {
            Some(s) => s.name().unwrap_or(&s.folder).to_string(),
            None => router.index.doc(d).name.clone(),
        })
        .collect()
}

/// `--behavioral`: the skill's validation prompts through the client with
/// its installation installed (the whole catalog, or its plugin), with the current SKILL.md and then with
/// the recommended one.
fn behavioral(
    args: &TuneArgs,
    catalog: &Catalog,
    config: &Config,
    tuned: &Tuned,
) -> Result<ModelCheck, Fatal> {
    let Some(rec) = &tuned.recommended else {
        return Ok(ModelCheck::Skipped {
            why: "no description is recommended, so there is nothing to confirm".into(),
        });
    };
    let bargs = crate::behave::BehaveArgs {
        trials: args.trials,
        jobs: args.jobs,
        agent: args.agent.clone(),
        dry_run: args.dry_run,
        allow_personal_copy: args.allow_personal_copy,
        ..Default::default()
    };
    let kind = routing::client(&bargs, config)?;
    let mut config = config.clone();
    config.route.client = kind.client();
    let i = catalog.require_skill(&args.skill)?;
    let s = &catalog.skills[i];
    let name = s.name().unwrap_or(&s.folder).to_string();
    let suite = catalog
        .suite_of(i)
        .ok_or_else(|| Fatal::usage(format!("`{name}` has no trigger prompts")))?;
    let plan = split::split(suite);
    // the runs install the skill's installation (its plugin, marketplace
    // entry or pack; the whole catalog when it is installed whole)
    let installs = routing::installations(catalog, &config)?;
    let k = (installs.iter())
        .position(|inst| inst.skills.contains(&i))
        .ok_or_else(|| Fatal::usage(format!("`{name}` is in no installation of the catalog")))?;
    let inst = &installs[k];
    let sub = catalog.subset(&inst.skills, inst.commands);
    // Tier 2's answer with each description, for routing.json
    let before = Router::new(&sub, &config)?;
    let mut swapped = sub.subset(&(0..sub.skills.len()).collect::<Vec<_>>(), true);
    let at = (inst.skills.iter()).position(|&j| j == i).unwrap_or(0);
    swapped.skills[at] = s.reread(&rec.text).0;
    let after = Router::new(&swapped, &config)?;
    let mut prompts: Vec<Prompt> = Vec::new();
    let mut later: Vec<Vec<String>> = Vec::new();
    let (mut sb, mut sa) = (Scorer::new(&before.index), Scorer::new(&after.index));
    for t in &plan.validation {
        prompts.push(Prompt {
            prompt: t.prompt.value.clone(),
            skill: name.clone(),
            positive: t.side == crate::catalog::cases::Side::Positive,
            owner: (t.owner.as_ref())
                .map(|o| o.value.clone())
                .filter(|o| super::routing::has(&sub, o)),
            with: (t.with.iter())
                .map(|w| w.value.clone())
                .filter(|w| super::routing::has(&sub, w))
                .collect(),
            lexical: t.lexical,
            file: t.file.clone(),
            tier2: tier2(&before, &mut sb, &t.prompt.value),
            installation: k,
        });
        later.push(tier2(&after, &mut sa, &t.prompt.value));
    }
    let n = prompts.len();
    let mut run = routing::plan(catalog, &config, &bargs, prompts)?;
    let client = run.agent_mode().agent.product().to_string();
    if args.dry_run {
        let runs = 2 * run.runs();
        return Ok(ModelCheck::Planned {
            client,
            prompts: n,
            trials: run.trials,
            runs,
            max_model_turns: runs as u64 * u64::from(run.turn_limit),
        });
    }
    routing::prepare(&mut run)?;
    let (first, first_dir) = routing::run(catalog, &run)?;
    if !run.replace_skill_md(k, &name, &rec.text) {
        return Err(Fatal::usage(format!(
            "--behavioral: `{name}` is not among the skills each run installs"
        )));
    }
    for (p, t) in run.prompts.iter_mut().zip(later) {
        p.tier2 = t;
    }
    let (second, second_dir) = routing::run(catalog, &run)?;
    Ok(ModelCheck::Ran {
        client,
        client_version: second.client_version.clone(),
        prompts: n,
        trials: run.trials,
        before: first.summary.model_correct,
        after: second.summary.model_correct,
        failed_runs: first.summary.failed_runs + second.summary.failed_runs,
        results: [first_dir, second_dir]
            .iter()
            .map(|d| d.join("routing.json").display().to_string())
            .collect(),
    })
}
