//! Folders under the skills root that hold files but no skill.

use super::context::Ctx;
use crate::diag::Diagnostic;
use crate::rule;

rule! {
    /// ## What it does
    /// Warns about a folder under a dedicated skills root (`skills/`, or a
    /// root from `[catalog] roots`) that holds files but no SKILL.md, in
    /// itself, above or below it.
    ///
    /// ## Why is this bad?
    /// It is usually a skill whose SKILL.md was misnamed (`skill.md`,
    /// `SKILL.MD`), moved or deleted: clients silently skip the folder.
    ///
    /// ## Example
    /// `skills/pdf-forms/skill.md` → rename it to `skills/pdf-forms/SKILL.md`.
    pub static ORPHAN_FOLDER = ("SG114", "orphan-folder", Warning, "folder under the skills root has files but no SKILL.md");
}

pub fn check_catalog(ctx: &Ctx, out: &mut Vec<Diagnostic>) {
    for dir in &ctx.catalog.orphan_dirs {
        out.push(
            ORPHAN_FOLDER
                .diag(
                    dir.clone(),
                    format!("folder `{dir}` holds files but no SKILL.md"),
                )
                .with_help("add the missing SKILL.md (the name is case-sensitive), or move the folder out of the skills root"),
        );
    }
}
