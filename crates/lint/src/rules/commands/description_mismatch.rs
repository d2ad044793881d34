//! SG304: one command has the same description in every folder.

use super::Group;
use crate::diag::Diagnostic;
use crate::rule;
use std::collections::BTreeMap;

rule! {
    /// ## What it does
    /// Requires a command's `description` to be identical, character for
    /// character, in `.claude/commands/`, `.gemini/commands/` and
    /// `commands/`. The Claude file is the reference; the message names the
    /// first character that differs.
    ///
    /// ## Why is this bad?
    /// Descriptions drift when one copy is edited and the others are not;
    /// users of different clients then see different promises for one
    /// command.
    pub static DESCRIPTION_MISMATCH = ("SG304", "command-description-mismatch", Error, "a command's description differs between folders");
}

pub fn check(groups: &BTreeMap<&str, Group>, out: &mut Vec<Diagnostic>) {
    for (&name, group) in groups {
        let mut with_text = group
            .iter()
            .flatten()
            .filter_map(|c| c.description().map(|d| (c, d)))
            .filter(|(_, d)| !d.value.trim().is_empty());
        let Some((reference, ref_desc)) = with_text.next() else {
            continue;
        };
        for (cmd, desc) in with_text {
            if desc.value == ref_desc.value {
                continue;
            }
            let at = desc
                .value
                .chars()
                .zip(ref_desc.value.chars())
                .take_while(|(a, b)| a == b)
                .count()
                + 1;
            out.push(
                DESCRIPTION_MISMATCH
                    .diag(
                        &cmd.file,
                        format!(
                            "the description of `{name}` differs from `{}` (line {}) at character {at}",
                            reference.file, ref_desc.span.line
                        ),
                    )
                    .with_span(desc.span)
                    .with_label("differs")
                    .with_help(format!(
                        "use the same description in every command folder: {:?}",
                        ref_desc.value
                    )),
            );
        }
    }
}
