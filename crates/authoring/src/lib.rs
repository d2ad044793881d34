//! Commands for skill authors working on cases: `skillsift cases` lists
//! what skillsift found for a skill and where, `skillsift init` writes a
//! starter trigger set. Both read the catalog as `check` does; printing is
//! `report::cases`' job.

// The layers below, by the names the code used for them when it was one
// crate, so that a `crate::catalog::…` path reads the same in every layer.
use base::{diag, exit};
#[allow(clippy::single_component_path_imports)]
use {catalog, client, config, lint, route, score};

pub mod cases;
pub mod init;
pub mod sentence;
pub mod tune;
