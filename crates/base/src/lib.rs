//! The bottom layer: the diagnostic model ([`diag`]), exit codes and fatal
//! errors ([`exit`]), rules' identity ([`Rule`], [`rule!`]) and the ids
//! several layers share ([`ClientId`], [`AgentKind`], [`Format`]; an exact
//! [`json::Json`] value), untrusted text escaped for a terminal
//! ([`escape`]) and the one way in for paths of the catalog's
//! ([`confine`]). Everything above depends on it; it depends on no
//! other layer.

pub mod confine;
pub mod diag;
pub mod escape;
pub mod exit;
pub mod ids;
pub mod json;
pub mod plural;
pub mod rule;
pub mod runs;

pub use ids::{AgentKind, ClientId, Format};
pub use rule::Rule;
