//! SG417 and SG420: waza's `trigger_tests.yaml`, its YAML and its shape.

use crate::catalog::Catalog;
use crate::catalog::cases::waza::{self, CONFIDENCES};
use crate::catalog::cases::{CaseSource, Format};
use crate::catalog::yaml::Node;
use crate::diag::Diagnostic;
use crate::rule;

/// Raised while the file loads: declared with the loader.
pub use crate::catalog::rules::cases::YAML_SYNTAX;

rule! {
    /// ## What it does
    /// Checks a waza trigger-test file as waza does: the top level is a
    /// mapping with a `skill` (a non-empty string) and at least one prompt
    /// in `should_trigger_prompts` or `should_not_trigger_prompts`; each
    /// list is a sequence of mappings with a non-empty string `prompt`, an
    /// optional string `reason`, and an optional `confidence` of `high` or
    /// `medium`. (Unknown keys, which waza also refuses, are SG414.)
    ///
    /// ## Why is this bad?
    /// waza refuses the whole file; skillsift leaves the broken prompts
    /// out, so the skill looks tested when it is not.
    ///
    /// ## Example
    /// ```yaml
    /// skill: pdf-forms
    /// should_trigger_prompts:
    ///   - prompt: "Fill in this PDF form"
    ///     reason: "Direct request"
    ///     confidence: high
    /// ```
    pub static WAZA_SHAPE = ("SG420", "waza-shape", Error, "a waza trigger-test file has the wrong structure");
}

pub fn check(catalog: &Catalog, out: &mut Vec<Diagnostic>) {
    for src in catalog
        .case_sources
        .iter()
        .filter(|s| s.format == Format::Waza)
    {
        let Some(tree) = src.yaml() else { continue };
        let Some(root) = &tree.root else {
            out.push(
                WAZA_SHAPE
                    .diag(&src.file, "the file is empty")
                    .with_help("write `skill: <name>` and a `should_trigger_prompts:` list"),
            );
            continue;
        };
        let mut f = Findings { src, out };
        if root.as_map().is_none() {
            f.push(
                root,
                format!("the file is a YAML {}, not a mapping", root.type_name()),
                "write `skill: <name>`, then `should_trigger_prompts:` and `should_not_trigger_prompts:` lists",
            );
            continue;
        }
        match waza::get(root, "skill") {
            None => f.push_start(
                root,
                "the file has no `skill` (waza requires it)".into(),
                "add `skill: <the skill's name>` on the first line",
            ),
            Some(n) => match n.as_str() {
                Some(s) if !s.trim().is_empty() => {}
                _ => f.push(
                    n,
                    format!("`skill` is {}, not the skill's name", what(n)),
                    "write `skill: <the skill's name>`",
                ),
            },
        }
        let mut prompts = 0;
        let sensei = waza::is_sensei(root);
        for (key, _) in waza::lists(root) {
            let Some(list) = waza::get(root, key) else {
                continue;
            };
            if list.is_null() {
                continue;
            }
            let Some(items) = waza::items(list) else {
                f.push(
                    list,
                    format!("`{key}` is {}, not a list", what(list)),
                    "write one `- prompt: \"…\"` item per line under it",
                );
                continue;
            };
            for (i, item) in items.iter().enumerate() {
                let at = format!("item {} of `{key}`", i + 1);
                if let Some(text) = item.as_str().filter(|_| sensei && item.as_map().is_none()) {
                    // sensei's plain-string prompt
                    if text.trim().is_empty() {
                        f.push(
                            item,
                            format!("the prompt of {at} is empty"),
                            "write what a user would type, or remove the item",
                        );
                    } else {
                        prompts += 1;
                    }
                    continue;
                }
                if item.as_map().is_none() {
                    f.push(
                        item,
                        format!("{at} is {}, not a mapping", what(item)),
                        "write `- prompt: \"what a user would type\"` (waza reads `prompt`, `reason` and `confidence`)",
                    );
                    continue;
                }
                match waza::get(item, "prompt") {
                    None => f.push_start(
                        item,
                        format!("{at} has no `prompt`"),
                        "add `prompt: \"what a user would type\"`",
                    ),
                    Some(p) => match p.as_str() {
                        Some(s) if !s.trim().is_empty() => prompts += 1,
                        Some(_) => f.push(
                            p,
                            format!("the prompt of {at} is empty"),
                            "write what a user would type, or remove the item",
                        ),
                        None => f.push(
                            p,
                            format!("the prompt of {at} is {}, not a string", what(p)),
                            "quote the prompt",
                        ),
                    },
                }
                if let Some(r) = waza::get(item, "reason")
                    && r.as_str().is_none()
                    && !r.is_null()
                {
                    f.push(
                        r,
                        format!("the reason of {at} is {}, not a string", what(r)),
                        "quote the reason",
                    );
                }
                if let Some(c) = waza::get(item, "confidence")
                    && !c.as_str().is_some_and(|c| CONFIDENCES.contains(&c))
                {
                    f.push(
                        c,
                        format!(
                            "the confidence of {at} is `{}`, not `high` or `medium`",
                            c.scalar_text().unwrap_or("…")
                        ),
                        "use `high` or `medium` (waza accepts nothing else), or remove it",
                    );
                }
            }
        }
        if prompts == 0 {
            f.push_start(
                root,
                "the file holds no prompts (waza requires at least one)".into(),
                "add `should_trigger_prompts:` and `should_not_trigger_prompts:` items",
            );
        }
    }
}

/// A node's type with its article, for messages.
fn what(n: &Node) -> &'static str {
    match n.type_name() {
        "null" => "empty",
        "boolean" => "a boolean",
        "number" => "a number",
        "string" => "a string",
        "sequence" => "a list",
        _ => "a mapping",
    }
}

struct Findings<'a> {
    src: &'a CaseSource,
    out: &'a mut Vec<Diagnostic>,
}

impl Findings<'_> {
    fn push(&mut self, n: &Node, message: String, help: &str) {
        self.out.push(
            WAZA_SHAPE
                .diag(&self.src.file, message)
                .with_span(waza::span(&self.src.source, n))
                .with_help(help.to_string()),
        );
    }

    /// At the first character of `n` (a mapping: its first key, since the
    /// parser marks a block mapping where its first value starts).
    fn push_start(&mut self, n: &Node, message: String, help: &str) {
        let start = n
            .as_map()
            .and_then(|m| m.first())
            .map_or(n.start, |(k, _)| k.start);
        let at = start.min(self.src.source.text.len());
        let end = self.src.source.text[at..]
            .chars()
            .next()
            .map_or(at, |c| at + c.len_utf8());
        self.out.push(
            WAZA_SHAPE
                .diag(&self.src.file, message)
                .with_span(self.src.span(at, end))
                .with_help(help.to_string()),
        );
    }
}
