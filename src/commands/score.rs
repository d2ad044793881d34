//! `skillsift score` and `skillsift score triggers`.

use crate::cli::{ScoreArgs, ScoreSub};
use crate::exit::{Exit, Fatal};
use crate::report::write_error;
use crate::score::{Inputs, Options};
use std::io::Write;

pub fn run(args: &ScoreArgs, out: &mut dyn Write) -> Result<Exit, Fatal> {
    if let Some(ScoreSub::Triggers(t)) = &args.triggers {
        if args.skill.is_some() || args.cases.is_some() || args.observations.is_some() {
            return Err(Fatal::usage(
                "`score triggers` reads only its FILE; --skill, --cases and --observations belong to `score`",
            ));
        }
        return super::triggers::run(t, out);
    }
    let missing: Vec<&str> = [
        ("--skill", args.skill.is_none()),
        ("--cases", args.cases.is_none()),
        ("--observations", args.observations.is_none()),
    ]
    .iter()
    .filter(|(_, m)| *m)
    .map(|(f, _)| *f)
    .collect();
    let (Some(skill), Some(cases), Some(observations)) =
        (&args.skill, &args.cases, &args.observations)
    else {
        return Err(
            Fatal::usage(format!("missing {}", missing.join(", "))).with_help(
                "skillsift score --skill DIR --cases cases.jsonl --observations observations.jsonl",
            ),
        );
    };
    let scored = crate::score::score_by_client(
        &Inputs {
            skill_dir: skill,
            cases,
            observations,
        },
        &Options::new(args.trials, args.gates.into()),
    )?;
    crate::report::scored::render_scored(&scored, args.format, out).map_err(write_error)?;
    Ok(scored.exit())
}
