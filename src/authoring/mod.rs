//! Commands for skill authors working on cases: `skillgate cases` lists
//! what skillgate found for a skill and where, `skillgate init` writes a
//! starter trigger set. Both read the catalog as `check` does; printing is
//! `report::cases`' job.

pub mod cases;
pub mod init;
pub mod sentence;
