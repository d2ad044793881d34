//! SG022: a plugin manifest or marketplace file skillsift could not use;
//! SG024: a marketplace entry Claude Code installs and loads nothing of.

use crate::diag::Diagnostic;
use crate::rule;
use crate::units::ManifestProblem;

rule! {
    /// ## What it does
    /// Warns when a plugin manifest (`.claude-plugin/plugin.json`) or the
    /// marketplace file (`.claude-plugin/marketplace.json`) cannot be
    /// used as Claude Code uses it: it is not JSON, is over 1 MiB, or a
    /// `skills` path or a plugin `source` leaves the plugin or the
    /// catalog, or names no folder.
    ///
    /// ## Why is this bad?
    /// The manifest decides the name every skill of the plugin is listed
    /// under (`<name>:<skill>`) and which folders hold them. skillsift
    /// then lists the plugin by its folder's name and its `skills/`
    /// folder alone, which may not be what Claude Code shows.
    pub static PLUGIN_MANIFEST = ("SG022", "plugin-manifest", Warning, "a plugin manifest or marketplace file cannot be used");
}

rule! {
    /// ## What it does
    /// Reports a marketplace entry (`.claude-plugin/marketplace.json`)
    /// that Claude Code loads nothing of: one with `"strict": false` that
    /// declares components (`skills`, `commands`, …) while its folder has
    /// a `.claude-plugin/plugin.json` too (conflicting manifests), or one
    /// whose `skills` are not paths (objects such as `{"name", "path"}`,
    /// which Claude Code 2.1.197 refuses to install). Its skills are
    /// linted, and listed as not shown.
    ///
    /// ## Why is this bad?
    /// A user who installs the entry gets none of its skills. With
    /// conflicting manifests `claude plugin install` even says it
    /// succeeded, so nobody notices. Keep one manifest: drop
    /// `"strict": false` (the plugin.json stays the authority), remove
    /// the entry's components, or remove the plugin.json; give `skills`
    /// as paths (`"skills": ["./avatar"]`).
    pub static PLUGIN_LOADS_NOTHING = ("SG024", "plugin-loads-nothing", Error, "a marketplace entry Claude Code installs and loads nothing of");
}

/// The finding for `p`.
pub fn manifest_finding(p: &ManifestProblem) -> Diagnostic {
    if p.loads_nothing {
        return PLUGIN_LOADS_NOTHING
            .diag(&p.file, format!("`{}`: {}", p.file, p.message))
            .with_span_opt(p.span)
            .with_help("keep one manifest and give `skills` as paths inside the plugin (`\"skills\": [\"./skills/x\"]`): drop `\"strict\": false` or the entry's components, or the plugin.json");
    }
    PLUGIN_MANIFEST
        .diag(&p.file, format!("`{}`: {}", p.file, p.message))
        .with_help("make it JSON naming folders inside the plugin (`\"skills\": [\"./skills/x\"]`), as Claude Code's plugin reference describes")
}
