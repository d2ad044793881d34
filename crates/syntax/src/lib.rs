//! The syntax layer: what every file's text becomes before anything reads
//! its meaning. JSON ([`json`]) and YAML ([`yaml`]) parsed with every
//! value's exact byte range, the one copy of a file's text with its
//! secrets masked ([`source`], [`secrets`]), and the byte windows that
//! find a secret standing in another file ([`grams`]).

pub mod grams;
pub mod json;
pub mod secrets;
pub mod source;
pub mod yaml;

pub use source::{Source, SourceMap};

use base::diag::Span;

/// A value read from a file and where it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Spanned<T> {
    pub value: T,
    pub span: Span,
}
