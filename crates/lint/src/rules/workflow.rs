//! A workflow's declared steps against its documented `Step N` headings.

use super::context::SkillCtx;
use super::markdown::Line;
use crate::diag::Diagnostic;
use crate::rule;

rule! {
    /// ## What it does
    /// Checks that a `## ` section which outlines a numbered workflow
    /// documents every step it declares, and no more. A section *declares*
    /// an N-step workflow when, before its first sub-heading, it has
    /// - a fenced block outlining the steps as a numbered list
    ///   (`1. MEASURE → …` up to `N.`) or a checklist
    ///   (`- [ ] Step 1: …` up to `Step N`), or
    /// - a heading that says so (`## The 5-Step Workflow`).
    ///
    /// It *documents* step k with a sub-heading starting `Step k`
    /// (`### Step 4: Verify`). Sections without `Step k` sub-headings are
    /// not checked.
    ///
    /// ## Why is this bad?
    /// The outline is what an agent reads first; a step it promises but the
    /// skill never explains gets skipped or improvised.
    ///
    /// ## Example
    /// ````markdown
    /// ## The Optimization Workflow
    /// ```
    /// 1. MEASURE  → …
    /// 2. FIX      → …
    /// 3. GUARD    → …
    /// ```
    /// ### Step 1: Measure
    /// ### Step 2: Fix
    /// ````
    /// declares three steps but documents two: add `### Step 3: Guard`.
    pub static WORKFLOW_STEPS = ("SG209", "workflow-steps", Error, "a workflow's outline and its `Step N` headings disagree");
}

const NUMBER_WORDS: &[&str] = &[
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve",
];

/// `N` from a numbered list item `N. text` / `N) text`.
fn numbered_item(line: &str) -> Option<u32> {
    let t = line.trim_start();
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 3 {
        return None;
    }
    let rest = &t[digits..];
    let rest = rest.strip_prefix(['.', ')'])?;
    if !rest.starts_with([' ', '\t']) || rest.trim().is_empty() {
        return None;
    }
    t[..digits].parse().ok()
}

/// `N` from `Step N` at the start of `text` (after list or checkbox
/// markers and emphasis).
fn step_number(text: &str) -> Option<u32> {
    let mut t = text.trim_start();
    for prefix in ["- [ ]", "- [x]", "- [X]", "* [ ]", "* [x]", "-", "*"] {
        if let Some(r) = t.strip_prefix(prefix) {
            t = r.trim_start();
            break;
        }
    }
    let t = t.trim_start_matches(['*', '_']);
    let word = t.get(..4)?;
    if !word.eq_ignore_ascii_case("step") {
        return None;
    }
    let rest = t[4..].trim_start();
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 3 {
        return None;
    }
    // `Step 10` must not read as `Step 1`.
    let after = &rest[digits..];
    if after.starts_with(|c: char| c.is_alphanumeric()) {
        return None;
    }
    rest[..digits].parse().ok()
}

/// N from a heading such as `The 5-Step Workflow` or `Five steps to …`.
fn heading_count(text: &str) -> Option<u32> {
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    for w in words.windows(2) {
        if w[1] == "step" || w[1] == "steps" {
            if let Ok(n) = w[0].parse::<u32>() {
                return Some(n);
            }
            if let Some(n) = NUMBER_WORDS.iter().position(|x| *x == w[0]) {
                return Some(n as u32);
            }
        }
    }
    None
}

/// Lines declaring steps 1..=N, in order, when `lines` hold such an outline.
fn outline<'a>(lines: &[Line<'a>]) -> Option<Vec<Line<'a>>> {
    let mut items: Vec<(u32, Line)> = Vec::new();
    for l in lines {
        if let Some(n) = numbered_item(l.text).or_else(|| {
            let t = l.text.trim_start();
            (t.starts_with("- [") || t.starts_with("* ["))
                .then(|| step_number(t))
                .flatten()
        }) {
            items.push((n, *l));
        }
    }
    if items.len() < 2 {
        return None;
    }
    // Must read 1, 2, …, N exactly.
    items
        .iter()
        .enumerate()
        .all(|(i, (n, _))| *n == i as u32 + 1)
        .then(|| items.into_iter().map(|(_, l)| l).collect())
}

pub fn check(s: &SkillCtx, out: &mut Vec<Diagnostic>) {
    let body = &s.body;
    for (hi, end) in body.sections() {
        let head = &body.headings[hi];
        let sub: Vec<_> = body.headings[hi + 1..]
            .iter()
            .take_while(|h| h.line < end)
            .collect();
        let mut documented: Vec<(u32, usize)> = sub
            .iter()
            .filter_map(|h| step_number(h.text).map(|n| (n, h.line)))
            .collect();
        if documented.is_empty() {
            continue;
        }
        documented.sort_unstable();
        documented.dedup_by_key(|d| d.0);
        let intro_end = sub.first().map(|h| h.line).unwrap_or(end);
        // The first fenced block of the intro that outlines steps.
        let mut declared: Option<(u32, Vec<Line>)> = None;
        for f in &body.fences {
            if f.open <= head.line || f.open >= intro_end {
                continue;
            }
            let content = f.content(body.len());
            let content = content.start..content.end.min(intro_end);
            if let Some(items) = outline(&body.lines(content)) {
                declared = Some((items.len() as u32, items));
                break;
            }
        }
        if declared.is_none()
            && let Some(n) = heading_count(head.text)
        {
            declared = Some((n, Vec::new()));
        }
        let Some((n, items)) = declared else { continue };
        if n < 2 {
            continue;
        }
        let nums: Vec<u32> = documented.iter().map(|d| d.0).collect();
        let missing: Vec<u32> = (1..=n).filter(|k| !nums.contains(k)).collect();
        let heading_line = s.body.line(head.line).map_or(1, |l| l.number);
        if !missing.is_empty() {
            let contiguous = nums.iter().enumerate().all(|(i, k)| *k == i as u32 + 1);
            let message = if contiguous && nums.len() as u32 == n - missing.len() as u32 {
                let last = nums.last().copied().unwrap_or(0);
                let range = if last == 1 {
                    "`Step 1`".to_string()
                } else {
                    format!("`Step 1`–`{last}`")
                };
                format!(
                    "`## {}` declares a {n}-step workflow but documents only {range}",
                    head.text
                )
            } else {
                format!(
                    "`## {}` declares a {n}-step workflow but has no {}",
                    head.text,
                    missing
                        .iter()
                        .map(|k| format!("`Step {k}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            let first = missing[0];
            let span = items
                .get(first as usize - 1)
                .map(|l| s.line_span(l.number))
                .unwrap_or_else(|| s.line_span(heading_line));
            let level = sub
                .iter()
                .find(|h| step_number(h.text).is_some())
                .map(|h| "#".repeat(h.level as usize))
                .unwrap_or_else(|| "###".into());
            out.push(
                WORKFLOW_STEPS
                    .diag(s.file(), message)
                    .with_span(span)
                    .with_label(format!("step {first} is declared here"))
                    .with_help(format!(
                        "document it under a `{level} Step {first}: …` heading, or drop it from the outline"
                    )),
            );
        }
        for &(k, line) in documented.iter().filter(|d| d.0 > n) {
            out.push(
                WORKFLOW_STEPS
                    .diag(
                        s.file(),
                        format!(
                            "`Step {k}` is documented but `## {}` declares a {n}-step workflow",
                            head.text
                        ),
                    )
                    .with_span(s.line_span(body.line(line).map_or(1, |l| l.number)))
                    .with_help(format!(
                        "add step {k} to the outline, or merge this section into another step"
                    )),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn step_numbers() {
        assert_eq!(step_number("Step 4: Verify"), Some(4));
        assert_eq!(step_number("**Step 2** — Fix"), Some(2));
        assert_eq!(step_number("- [ ] Step 3: DOUBT"), Some(3));
        assert_eq!(step_number("Steps"), None);
        assert_eq!(step_number("Step 1a"), None);
        assert_eq!(step_number("Stepping"), None);
    }

    #[test]
    fn numbered_items() {
        assert_eq!(numbered_item("1. MEASURE  → baseline"), Some(1));
        assert_eq!(numbered_item("  12) twelve"), Some(12));
        assert_eq!(numbered_item("1.5 release"), None);
        assert_eq!(numbered_item("2024. a year"), None);
    }

    #[test]
    fn heading_counts() {
        assert_eq!(heading_count("The 5-Step Workflow"), Some(5));
        assert_eq!(heading_count("Three steps to ship"), Some(3));
        assert_eq!(heading_count("Next steps"), None);
    }
}
