//! A rule's identity and documentation, and [`rule!`](crate::rule!) that
//! declares one. Every layer that reports findings declares its rules with
//! it: the catalog loader (SG0xx, SG301, SG41x load-time), the lint rules,
//! routing and Tier 3.

use crate::diag::{Diagnostic, Severity};

/// A rule's identity and documentation.
#[derive(Debug)]
pub struct Rule {
    /// Stable id, e.g. `SG101`.
    pub id: &'static str,
    /// Stable kebab-case name, e.g. `name-format`.
    pub name: &'static str,
    /// Severity unless `[lint.rules]` says otherwise.
    pub severity: Severity,
    /// One line.
    pub summary: &'static str,
    /// The doc comment: what it does, why it matters, an example.
    pub doc: &'static str,
    /// A judgement of style that no specification or client asks for
    /// (file names in kebab-case, every bundled file mentioned): such a
    /// rule is a notice or off unless a catalog raises it.
    pub taste: bool,
}

impl Rule {
    /// A diagnostic of this rule at its default severity.
    pub fn diag(&'static self, file: impl Into<String>, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(self.id, self.severity, file, message)
    }
}

/// Declare a rule: `rule! { /// docs… pub static RULE = (id, name, Severity, summary); }`;
/// a rule of taste ends with `taste`: `(id, name, Notice, summary, taste)`.
#[macro_export]
macro_rules! rule {
    ($(#[doc = $doc:literal])* $vis:vis static $ident:ident = ($id:literal, $name:literal, $sev:ident, $summary:literal $(,)?);) => {
        $(#[doc = $doc])*
        $vis static $ident: $crate::Rule = $crate::Rule {
            id: $id,
            name: $name,
            severity: $crate::diag::Severity::$sev,
            summary: $summary,
            doc: concat!($($doc, "\n"),*),
            taste: false,
        };
    };
    ($(#[doc = $doc:literal])* $vis:vis static $ident:ident = ($id:literal, $name:literal, $sev:ident, $summary:literal, taste $(,)?);) => {
        $(#[doc = $doc])*
        $vis static $ident: $crate::Rule = $crate::Rule {
            id: $id,
            name: $name,
            severity: $crate::diag::Severity::$sev,
            summary: $summary,
            doc: concat!($($doc, "\n"),*),
            taste: true,
        };
    };
}
