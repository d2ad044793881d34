//! The skillsift binary: clap definitions ([`cli`]) and one file per
//! subcommand ([`commands`]) over the library crates under `crates/`.

mod cli;
mod commands;
mod fix;
mod schema;
mod suppress;

// The layers below, by the names the code used for them when it was one
// crate, so that a `crate::catalog::…` path reads the same in every layer.
use base::{diag, escape, exit};
#[allow(clippy::single_component_path_imports)]
use {authoring, behave, catalog, client, config, lint, report, route, score};

use clap::Parser;
use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let exit = match commands::run(cli, &mut out) {
        Ok(exit) => exit,
        Err(fatal) => {
            let _ = out.flush();
            if !fatal.message.is_empty() {
                // a message may quote a path or a value from the input
                eprintln!("error: {}", crate::escape::text(&fatal.message));
                if let Some(help) = &fatal.help {
                    eprintln!("  help: {}", crate::escape::text(help));
                }
            }
            fatal.exit
        }
    };
    if let Err(e) = out.flush()
        && e.kind() != std::io::ErrorKind::BrokenPipe
    {
        eprintln!("error: cannot write output: {e}");
        return ExitCode::from(exit::Exit::Usage.code());
    }
    ExitCode::from(exit.code())
}
