//! What users install as a unit: the plugins and packs of a catalog.
//!
//! A marketplace or pack catalog is not installed whole. A user installs
//! one plugin (Claude Code lists its skills once it is installed, as
//! plugin skills named `<plugin>:<folder>`) or one pack (an APM pack's
//! `.apm/skills/` is copied into the project's skills folder). The
//! layouts read here, each directly below the catalog root:
//!
//! | layout | unit | kind |
//! | --- | --- | --- |
//! | `plugins/<p>/skills/<skill>/SKILL.md` | the plugin `<p>` | [`UnitKind::Plugin`] |
//! | `skills/<p>/skills/<skill>/SKILL.md` | the plugin `<p>` (a marketplace keeping its plugins under `skills/`) | [`UnitKind::Plugin`] |
//! | `packs/<p>/.apm/skills/<skill>/SKILL.md` | the pack `<p>` | [`UnitKind::Pack`] |
//!
//! A unit is named by its folder `<p>`. `<p>` is no unit when it is a skill
//! itself (`skills/<p>/SKILL.md`), when its name starts with `.` or `_`
//! (templates and fixtures by convention), or when it is a folder never
//! walked ([`super::discover::SKIP_DIRS`]). Nothing here reads a file:
//! only folder listings.

use std::path::Path;

/// How a unit is installed, and so how a client lists its skills.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum UnitKind {
    /// A plugin: Claude Code lists its skills as `<plugin>:<folder>`.
    Plugin,
    /// A pack: its skills are copied into the project's skills folder and
    /// listed as the project's own.
    Pack,
}

impl UnitKind {
    pub fn label(self) -> &'static str {
        match self {
            UnitKind::Plugin => "plugin",
            UnitKind::Pack => "pack",
        }
    }
}

/// One plugin or pack.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Unit {
    /// Its folder's name: the plugin's or pack's name.
    pub name: String,
    pub kind: UnitKind,
    /// Its folder, root-relative (`skills/b2c-cli`).
    pub dir: String,
    /// Its skills folder, root-relative (`skills/b2c-cli/skills`).
    pub skills_dir: String,
}

impl Unit {
    /// Whether the skill folder `rel_dir` (root-relative) lies in this
    /// unit's skills folder.
    pub fn holds(&self, rel_dir: &str) -> bool {
        rel_dir
            .strip_prefix(self.skills_dir.as_str())
            .is_some_and(|rest| rest.starts_with('/'))
    }

    /// Whether the folder `rel` (root-relative) is part of the unit but
    /// not of its skills (`skills/b2c-cli/.claude-plugin`: the plugin's
    /// manifest, no skill missing its SKILL.md).
    pub fn beside_skills(&self, rel: &str) -> bool {
        let inside = |dir: &str| {
            rel == dir
                || rel
                    .strip_prefix(dir)
                    .is_some_and(|rest| rest.starts_with('/'))
        };
        inside(&self.dir) && !inside(&self.skills_dir)
    }
}

/// The layouts: (parent folder, skills folder inside a unit, kind).
pub const LAYOUTS: &[(&str, &str, UnitKind)] = &[
    ("plugins", "skills", UnitKind::Plugin),
    ("skills", "skills", UnitKind::Plugin),
    ("packs", ".apm/skills", UnitKind::Pack),
];

/// The units of the catalog at `base`, sorted by skills folder.
pub fn find(base: &Path) -> Vec<Unit> {
    let mut out = Vec::new();
    for &(parent, inner, kind) in LAYOUTS {
        let Ok(rd) = std::fs::read_dir(base.join(parent)) else {
            continue;
        };
        let mut names: Vec<String> = rd
            .filter_map(|e| e.ok())
            .filter_map(|e| e.file_name().to_str().map(str::to_string))
            .filter(|n| {
                !n.starts_with('.')
                    && !n.starts_with('_')
                    && !super::discover::SKIP_DIRS.contains(&n.as_str())
            })
            .collect();
        names.sort();
        for name in names {
            let dir = base.join(parent).join(&name);
            if !dir.is_dir() || std::fs::symlink_metadata(dir.join("SKILL.md")).is_ok() {
                continue;
            }
            let skills = dir.join(inner);
            if !skills.is_dir() || std::fs::symlink_metadata(skills.join("SKILL.md")).is_ok() {
                continue;
            }
            let unit_dir = format!("{parent}/{name}");
            let skills_dir = format!("{unit_dir}/{inner}");
            out.push(Unit {
                name,
                kind,
                dir: unit_dir,
                skills_dir,
            });
        }
    }
    out.sort_by(|a, b| a.skills_dir.cmp(&b.skills_dir));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skill(root: &Path, rel: &str) {
        std::fs::create_dir_all(root.join(rel)).unwrap();
        std::fs::write(root.join(rel).join("SKILL.md"), "---\nname: x\n---\n").unwrap();
    }

    #[test]
    fn the_three_layouts_are_units() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path();
        skill(root, "plugins/tools/skills/a");
        skill(root, "skills/shop/skills/b");
        skill(root, "packs/core/.apm/skills/c");
        skill(root, "packs/_example/.apm/skills/d");
        skill(root, "skills/plain");
        skill(root, "skills/both/skills/e");
        skill(root, "skills/both");
        let units = find(root);
        let got: Vec<(&str, UnitKind, &str)> = units
            .iter()
            .map(|u| (u.name.as_str(), u.kind, u.skills_dir.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                ("core", UnitKind::Pack, "packs/core/.apm/skills"),
                ("tools", UnitKind::Plugin, "plugins/tools/skills"),
                ("shop", UnitKind::Plugin, "skills/shop/skills"),
            ]
        );
        assert!(units[2].holds("skills/shop/skills/b"));
        assert!(!units[2].holds("skills/shop/skillsx/b"));
        assert!(!units[2].holds("skills/shop/skills"));
        assert!(units[2].beside_skills("skills/shop/.claude-plugin"));
        assert!(!units[2].beside_skills("skills/shop/skills/b/x"));
        assert!(!units[2].beside_skills("skills/shopping"));
    }
}
