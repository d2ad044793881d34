//! SG022: a plugin manifest or marketplace file skillsift could not use.

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

/// The finding for `p`.
pub fn manifest_finding(p: &ManifestProblem) -> Diagnostic {
    PLUGIN_MANIFEST
        .diag(&p.file, format!("`{}`: {}", p.file, p.message))
        .with_help("make it JSON naming folders inside the plugin (`\"skills\": [\"./skills/x\"]`), as Claude Code's plugin reference describes")
}
