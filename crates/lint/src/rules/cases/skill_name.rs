//! SG404: `skill_name` is present and equals the file name.

use super::root;
use crate::catalog::Catalog;
use crate::diag::Diagnostic;
use crate::rule;

rule! {
    /// ## What it does
    /// Requires every case file to carry a `skill_name` equal to its file
    /// name without `.json`: `evals/cases/tdd.json` holds
    /// `"skill_name": "tdd"`.
    ///
    /// ## Why is this bad?
    /// Tools find a skill's cases by file name and check them against
    /// `skill_name`; when the two disagree (a renamed skill, a copied file)
    /// the cases test the wrong skill or none.
    pub static SKILL_NAME = ("SG404", "case-skill-name", Error, "skill_name is missing or differs from the file name");
}

pub fn check(catalog: &Catalog, out: &mut Vec<Diagnostic>) {
    for case in &catalog.cases {
        let Some(root) = root(case) else { continue };
        match root.get("skill_name") {
            None => out.push(
                SKILL_NAME
                    .diag(&case.file, "case file has no `skill_name`")
                    .with_span(case.span(root.start, root.start + 1))
                    .with_help(format!("add \"skill_name\": \"{}\"", case.stem)),
            ),
            Some(v) => {
                if let Some(name) = v.as_str()
                    && name != case.stem
                {
                    out.push(
                        SKILL_NAME
                            .diag(
                                &case.file,
                                format!(
                                    "`skill_name` is `{name}` but the file is named `{}.json`",
                                    case.stem
                                ),
                            )
                            .with_span(case.value_span(v))
                            .with_label(format!("expected \"{}\"", case.stem))
                            .with_help(format!(
                                "rename the file to `{name}.json`, or set \"skill_name\": \"{}\"",
                                case.stem
                            )),
                    );
                }
            }
        }
    }
}
