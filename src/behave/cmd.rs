//! `skillgate check --behavioral` and `skillgate merge`.

use crate::catalog::Catalog;
use crate::cli::{BehaveArgs, Format, MergeArgs};
use crate::config::Config;
use crate::exit::{Exit, Fatal};
use std::io::Write;

pub fn check(
    catalog: &Catalog,
    config: &Config,
    skill: &str,
    args: &BehaveArgs,
    format: Format,
    out: &mut dyn Write,
) -> Result<Exit, Fatal> {
    let _ = (catalog, config, skill, args, format, out);
    Err(Fatal::usage("`--behavioral` is not available yet"))
}

pub fn merge(args: &MergeArgs, out: &mut dyn Write) -> Result<Exit, Fatal> {
    let _ = (args, out);
    Err(Fatal::usage("`skillgate merge` is not available yet"))
}
