//! Routing what users install as a unit as a unit.
//!
//! A catalog of plugins or packs ([`crate::catalog::units`]) is not
//! installed whole (its installations are [`crate::client::install`]'s).
//! Routing every unit in one listing measures a listing no user has (129
//! skills of 21 packs overflow Claude Code's budget, most shown by name
//! only), so each installation is routed against its own skills, and its
//! skills collide only with each other.
//!
//! Each installation gets its own listing (the client's budget applies to
//! it), index and IDF, with the client's built-ins when `[route] builtins`
//! models them. A positive prompt is ranked in its skill's installation. A
//! negative's `owner` in another installation is never in the same
//! listing: SG513 notes it and the owner check (SG504) is skipped; the
//! negative is still checked in its own installation (SG503). A `with`
//! skill of another installation cannot compete, so it is ignored.
//!
//! The results are mapped back onto the documents of the router over the
//! whole catalog (the one `check` reports collisions and the HTML report
//! from), so a prompt's `doc` and `cell` mean what they always did.

use super::Router;
use super::cases::{Outcome, PromptResult};
use crate::client::install::{Install, installed, where_of};
use crate::config::Config;
use crate::diag::Diagnostic;
use crate::exit::Fatal;
use std::collections::HashMap;

/// What routing each installation found.
#[derive(Debug, Default)]
pub struct Checked {
    /// The trigger checks of every installation, on the whole catalog's
    /// documents.
    pub outcome: Outcome,
    /// Each installation's listing against the client's budget.
    pub listing: Vec<Diagnostic>,
}

/// Route each installation's trigger prompts against its own listing, and
/// map the results onto `full`, the router over the whole catalog.
pub fn check(
    full: &Router,
    installs: &[Install],
    config: &Config,
    builtins: Option<&[crate::client::Builtin]>,
) -> Result<Checked, Fatal> {
    let catalog = full.catalog;
    let where_of = where_of(catalog, installs);
    // the whole catalog's built-ins and commands, by name
    let competitors: HashMap<(&str, bool), u32> = (0..full.index.len() as u32)
        .filter(|&d| full.is_competitor(d))
        .map(|d| ((full.index.doc(d).name.as_str(), full.is_builtin(d)), d))
        .collect();
    // each installation on its own (in parallel), merged in their order
    use rayon::prelude::*;
    type One = (
        Vec<Diagnostic>,
        super::cases::Outcome,
        Vec<(usize, PromptResult)>,
    );
    let each: Vec<Result<One, Fatal>> = installs
        .par_iter()
        .enumerate()
        .map(|(k, inst)| {
            let (sub, elsewhere) = installed(catalog, installs, &where_of, k);
            let mut router = Router::with_builtins(&sub, config, builtins)?;
            router.elsewhere = elsewhere;
            let listing = super::listing::check(&router, &config.route);
            let mut o = super::cases::check(&router, &config.route);
            let map = |d: u32| -> Option<u32> {
                let src = router.source_of(d);
                if src < sub.skills.len() {
                    full.doc_of(inst.skills[src])
                } else {
                    competitors
                        .get(&(router.index.doc(d).name.as_str(), router.is_builtin(d)))
                        .copied()
                }
            };
            let mut prompts = Vec::new();
            for mut p in std::mem::take(&mut o.prompts) {
                // a skill the whole catalog's listing does not hold has no
                // row in the reports: its prompt is counted, not listed
                let Some(doc) = map(p.doc) else { continue };
                let src = inst.skills[router.source_of(p.doc)];
                p.doc = doc;
                p.cell = p.cell.and_then(|mut c| {
                    c.owner = map(c.owner)?;
                    c.winner = match c.winner {
                        Some(w) => Some(map(w)?),
                        None => None,
                    };
                    Some(c)
                });
                prompts.push((src, p));
            }
            Ok((listing, o, prompts))
        })
        .collect();
    let mut out = Checked::default();
    let mut prompts: Vec<(usize, PromptResult)> = Vec::new();
    for one in each {
        let (listing, o, p) = one?;
        out.listing.extend(listing);
        let r = &mut out.outcome;
        r.rank1 += o.rank1;
        r.not_lexical += o.not_lexical;
        r.top3 += o.top3;
        r.tied_first += o.tied_first;
        r.positives += o.positives;
        r.checks += o.checks;
        r.checks_passed += o.checks_passed;
        // the smallest listing whose top-k was lowered says it
        if let Some((k, n)) = o.lowered_top_k
            && r.lowered_top_k.is_none_or(|(_, m)| n < m)
        {
            r.lowered_top_k = Some((k, n));
        }
        r.diagnostics.extend(o.diagnostics);
        prompts.extend(p);
    }
    // in the catalog's order of skills, each skill's prompts as they came
    prompts.sort_by_key(|(src, _)| *src);
    out.outcome.prompts = prompts.into_iter().map(|(_, p)| p).collect();
    Ok(out)
}
