//! CSV files of trigger tests: rows as records of header → text, each
//! spanning its row, so that detection ([`super::detect`]) and declared
//! sources read them as they read JSON records.

use crate::detect::{Node, NodeKind};
use crate::rules::cases as rules;
use base::diag::Diagnostic;

/// The rows of a CSV file as objects of header → text, each spanning its
/// row; a field's span is found in its row's text when written unquoted.
pub fn rows(file: &str, text: &str, diags: &mut Vec<Diagnostic>) -> Option<Vec<Node>> {
    let mut reader = ::csv::ReaderBuilder::new()
        .has_headers(true)
        .flexible(true)
        .from_reader(text.as_bytes());
    let headers: Vec<String> = match reader.headers() {
        Ok(h) => h.iter().map(str::to_string).collect(),
        Err(e) => {
            diags.push(
                rules::UNREADABLE
                    .diag(file, format!("cannot read the CSV header: {e}"))
                    .with_help("the first row names the fields"),
            );
            return None;
        }
    };
    let mut rows = Vec::new();
    let mut record = ::csv::StringRecord::new();
    loop {
        let start = reader.position().byte() as usize;
        match reader.read_record(&mut record) {
            Ok(false) => break,
            Ok(true) => {
                let end = (reader.position().byte() as usize).min(text.len());
                let start = start.min(end);
                let row_text = &text[start..end];
                let mut entries = Vec::new();
                let mut from = 0;
                for (k, v) in headers.iter().zip(record.iter()) {
                    // the value as written, when it is (unquoted)
                    let (s, e) = match row_text[from..].find(v).filter(|_| !v.is_empty()) {
                        Some(i) => {
                            from += i + v.len();
                            (start + from - v.len(), start + from)
                        }
                        None => (start, end),
                    };
                    entries.push((
                        k.clone(),
                        Node {
                            kind: NodeKind::Str(v.to_string()),
                            start: s,
                            end: e,
                        },
                    ));
                }
                rows.push(Node {
                    kind: NodeKind::Map(entries),
                    start,
                    end: end.max(start),
                });
            }
            Err(e) => {
                diags.push(
                    rules::UNREADABLE
                        .diag(file, format!("invalid CSV: {e}"))
                        .with_help(
                            "fix the row, or quote fields that hold commas, quotes or line breaks",
                        ),
                );
                return None;
            }
        }
    }
    Some(rows)
}
