//! Every finding of `skillsift check`, grouped by rule (sorted by id),
//! with counts by severity, each linking to its file and naming the line
//! and column. Findings on a trigger prompt are counted here and listed
//! once, under their skill in the Skills section, beside the prompt and
//! the skill ranked first. A rule with more than [`MAX_PER_RULE`] findings
//! lists that many and says how many more `--format json` has.

use super::{Esc, Href, thousands};
use crate::diag::{Diagnostic, Severity};
use crate::lint::registry;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Findings listed under one rule.
pub const MAX_PER_RULE: usize = 2000;

pub fn render(
    diagnostics: &[Diagnostic],
    at_prompt: &super::routing_page::AtPrompt,
    link_base: &str,
) -> String {
    let mut o = String::new();
    if diagnostics.is_empty() {
        o.push_str("<p class=\"empty good\">No findings.</p>\n");
        return o;
    }
    let mut by_rule: BTreeMap<&str, Vec<&Diagnostic>> = BTreeMap::new();
    for d in diagnostics {
        by_rule.entry(d.rule).or_default().push(d);
    }
    let count = |s: Severity| diagnostics.iter().filter(|d| d.severity == s).count();
    let _ = writeln!(
        o,
        "<p>{} of {}: {}, {}, {} (levels as configured). <code>skillsift rule ID</code> explains a rule.</p>",
        super::count_of(diagnostics.len(), "finding"),
        super::count_of(by_rule.len(), "rule"),
        super::count_of(count(Severity::Error), "error"),
        super::count_of(count(Severity::Warning), "warning"),
        super::count_of(count(Severity::Notice), "notice")
    );
    o.push_str("<table class=\"list rules\"><thead><tr><th>rule</th><th>name</th><th>errors</th><th>warnings</th><th>notices</th></tr></thead><tbody>\n");
    for (rule, list) in &by_rule {
        let n = |s: Severity| list.iter().filter(|d| d.severity == s).count();
        let _ = writeln!(
            o,
            "<tr><td><a href=\"#r-{rule}\">{rule}</a></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            Esc(registry::find(rule).map_or("", |r| r.name)),
            n(Severity::Error),
            n(Severity::Warning),
            n(Severity::Notice)
        );
    }
    o.push_str("</tbody></table>\n");
    for (rule, list) in &by_rule {
        let r = registry::find(rule);
        let elsewhere = list.iter().filter(|d| at_prompt.holds(d)).count();
        let list: Vec<&&Diagnostic> = list.iter().filter(|d| !at_prompt.holds(d)).collect();
        let _ = writeln!(
            o,
            "<details class=\"rule-group\" id=\"r-{rule}\"{}><summary><span class=\"rule\">{rule}</span> {} <span class=\"count\">{}</span> <small>{}</small></summary><ul class=\"findings\">",
            if list.len() <= 20 { " open" } else { "" },
            Esc(r.map_or("", |r| r.name)),
            thousands(list.len() + elsewhere),
            Esc(r.map_or("", |r| r.summary))
        );
        for d in list.iter().take(MAX_PER_RULE) {
            let place = match d.span {
                Some(s) => format!("{}:{}:{}", d.file, s.line, s.col),
                None => d.file.clone(),
            };
            let _ = write!(
                o,
                "<li class=\"{}\"><a href=\"{}\"><code>{}</code></a> <span class=\"sev\">{}</span> {}",
                d.severity.as_str(),
                Href(link_base, &d.file),
                Esc(&place),
                d.severity.as_str(),
                Esc(&d.message)
            );
            if let Some(h) = &d.help {
                let _ = write!(o, "<br><small>help: {}</small>", Esc(h));
            }
            o.push_str("</li>\n");
        }
        if elsewhere > 0 {
            let _ = writeln!(
                o,
                "<li class=\"more\">{} on trigger prompts: listed under each skill in <a href=\"#skills\">Skills</a>, with the prompt and the skill ranked first</li>",
                thousands(elsewhere)
            );
        }
        if list.len() > MAX_PER_RULE {
            let _ = writeln!(
                o,
                "<li class=\"more\">and {} more: <code>skillsift check --format json</code> lists them all</li>",
                thousands(list.len() - MAX_PER_RULE)
            );
        }
        o.push_str("</ul></details>\n");
    }
    o
}
