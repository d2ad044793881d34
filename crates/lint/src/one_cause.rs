//! One cause, one finding: where two rules say the same thing of the same
//! place, the second is dropped once the configured levels are applied
//! (so turning the first off brings the second back).

use crate::diag::Diagnostic;

/// `(kept, about, dropped)`: `dropped` goes when `kept`, whose message
/// starts with `about`, speaks in the same file on the same line (one
/// says the key, the other its value).
const SAME_CAUSE: &[(&str, &str, &str)] = &[
    // `disable-model-invocation: true`: SG110 says what the key does in
    // Claude Code and elsewhere; SG604 would repeat it (`paths:` keeps
    // both: SG604 says which files make the skill listed)
    ("SG110", "`disable-model-invocation`", "SG604"),
];

/// Drop every finding another one already says (see [`SAME_CAUSE`]).
pub fn dedupe(diags: &mut Vec<Diagnostic>) {
    let spoken: std::collections::HashSet<(&str, &str, u32)> = diags
        .iter()
        .filter(|d| {
            SAME_CAUSE
                .iter()
                .any(|(kept, about, _)| *kept == d.rule && d.message.starts_with(about))
        })
        .filter_map(|d| Some((d.rule, d.file.as_str(), d.span?.line)))
        .collect();
    if spoken.is_empty() {
        return;
    }
    let drop: Vec<bool> = diags
        .iter()
        .map(|d| {
            let Some(span) = d.span else { return false };
            SAME_CAUSE.iter().any(|(kept, _, dropped)| {
                *dropped == d.rule && spoken.contains(&(*kept, d.file.as_str(), span.line))
            })
        })
        .collect();
    let mut i = 0;
    diags.retain(|_| {
        i += 1;
        !drop[i - 1]
    });
}
