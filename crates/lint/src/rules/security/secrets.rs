//! SG704: secrets in any text file of the skill folder.

use super::Text;
use crate::diag::Diagnostic;
use crate::rule;

rule! {
    /// ## What it does
    /// Reports credentials in SKILL.md or any other text file of the skill
    /// folder, and in every case file and case source (trigger prompts,
    /// expected outputs, expectations), by the formats that cannot be mistaken for anything else:
    /// AWS access key ids (`AKIA…`, `ASIA…`), GitHub tokens (`ghp_`,
    /// `gho_`, `ghu_`, `ghs_`, `ghr_`, `github_pat_`), GitLab personal
    /// access tokens (`glpat-`), Slack tokens (`xoxb-`, `xoxp-`, …) and
    /// webhook URLs, Anthropic (`sk-ant-api03-…`), OpenAI (`sk-proj-…`,
    /// `sk-…T3BlbkFJ…`), Google (`AIza…`) and Hugging Face (`hf_…`) API
    /// keys, private-key blocks (`-----BEGIN … PRIVATE KEY-----` with
    /// key material under it), and a random-looking value (letters and
    /// digits, 16 characters or more, 12 distinct) assigned to a name that
    /// says secret (`aws_secret_access_key = …`, `"client_secret": "…"`,
    /// `API_TOKEN=…`). Values that are plainly placeholders (`ghp_xxxx…`,
    /// `AKIAIOSFODNN7EXAMPLE`, `your-token`, `mySecretPassword123`) are
    /// left alone; a credential its vendor publishes for tests that looks
    /// real (Google's reCAPTCHA test keys) is a notice that says what it
    /// is, never masked and never "revoke it".
    ///
    /// The finding names the file, line, column and kind, **never the
    /// secret**. skillsift masks each value when it reads the file (the
    /// format's prefix stays, the rest becomes `X`), and every command,
    /// format and written file reads only that masked text: snippets,
    /// the listing, `cases`, JUnit, the HTML report, baselines, Tier 3's
    /// plans, workspaces and results. `--fix` and `tune --write` never
    /// rewrite a file that holds one.
    ///
    /// Part of the SG700–SG749 family (hostile skills: content that hides
    /// from a reviewer but reaches the model; `skillsift rules` lists them).
    ///
    /// ## Why is this bad?
    /// Skills are copied between repositories by the thousand: a key in
    /// one is public the day it is pushed, and every copy of the skill
    /// hands it to every model that loads it.
    ///
    /// ## Example
    /// `export GITHUB_TOKEN=ghp_…` (36 characters after `ghp_`) in a
    /// script of the skill.
    ///
    /// ## How to fix
    /// Revoke the key first (it is already out), then read it from the
    /// environment (`$GITHUB_TOKEN`) instead of writing it down.
    ///
    /// ## Measured
    /// 9 findings on `../shared/corpora/wild-sample` (1,000 skills), each
    /// read by hand: all are one vendor's API keys (`sk-` and a UUID) in a
    /// request header of 9 published skills of one catalog, real-looking
    /// keys (found as values assigned to `…-API-KEY`). 0 on the addyosmani
    /// catalog (24 skills) and `../shared/corpora/routing-bench` (273
    /// skills, 506 files). It fires on each variant of
    /// `tests/fixtures/security` and on none of its look-alikes.
    pub static SECRET = ("SG704", "secret", Error, "a credential is written in a skill file");
}

pub fn check(t: &Text, out: &mut Vec<Diagnostic>) {
    found(t.file, t.src, out);
}

/// Every case file and case source (prompts, expected outputs,
/// expectations, whatever they hold): a secret there is printed by `cases`,
/// JUnit and the dry run, and sent to the model, as one in a SKILL.md is.
pub fn check_cases(catalog: &crate::catalog::Catalog, out: &mut Vec<Diagnostic>) {
    for c in &catalog.cases {
        found(&c.file, &c.source, out);
    }
    for c in &catalog.case_sources {
        found(&c.file, &c.source, out);
    }
}

/// The secrets the loader found in `src` (and masked there: see
/// [`crate::catalog::secrets`]).
fn found(file: &str, src: &crate::catalog::Source, out: &mut Vec<Diagnostic>) {
    // a credential its vendor publishes for tests: said what it is, once
    // per value and file
    let mut told: Vec<&str> = Vec::new();
    for (start, end, what) in crate::catalog::secrets::documented_tests(&src.text) {
        if told.contains(&what) {
            continue;
        }
        told.push(what);
        let span = src.span(start, end);
        out.push(
            SECRET
                .diag(
                    file,
                    format!(
                        "{what} is written in line {}: public on purpose, not a secret to revoke",
                        span.line
                    ),
                )
                .with_severity(crate::diag::Severity::Notice)
                .with_span(span)
                .with_label("a documented test credential")
                .with_help(
                    "keep it to tests and examples; code that runs for real reads its own key from the environment",
                ),
        );
    }
    // a repeat of a value found elsewhere is masked, and reported there
    for f in src
        .secrets
        .iter()
        .filter(|f| f.kind != crate::catalog::secrets::REPEATED)
    {
        let span = src.span(f.start, f.end);
        out.push(
            SECRET
                .diag(
                    file,
                    format!(
                        "{} is written in line {}, column {} (value not shown)",
                        f.kind, span.line, span.col
                    ),
                )
                .with_span(span)
                .with_label(format!("{} (masked)", f.kind))
                .with_help(
                    "revoke it now (it is public wherever the skill was copied), then read it from the environment instead",
                ),
        );
    }
}
