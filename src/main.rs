//! The skillsift binary: clap definitions ([`cli`]) and one file per
//! subcommand ([`commands`]) over the library crates under `crates/`.

mod cli;
mod commands;
mod fix;
mod lsp;
mod schema;
mod suppress;

// The layers below, by the names the code used for them when it was one
// crate, so that a `crate::catalog::…` path reads the same in every layer.
use base::{diag, escape, exit};
#[allow(clippy::single_component_path_imports)]
use {authoring, behave, catalog, client, config, lint, process, report, route, score};

use clap::Parser;
use std::io::Write;
use std::process::ExitCode;

/// mimalloc: a full check of 15,728 skills allocates some 30,000 times a
/// MB read, on every core; glibc's allocator spent a seventh of the cpu
/// there and a sixth of the wall in `mprotect` growing its thread arenas
/// (docs/performance.md).
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `mi_option_purge_delay` in mimalloc 3's `mi_option_e` (mimalloc.h),
/// which `libmimalloc-sys` names no constant for.
const MI_OPTION_PURGE_DELAY: std::ffi::c_int = 15;

fn main() -> ExitCode {
    // memory freed goes back to the system after 50 ms, not a second: the
    // same peak as glibc's allocator (the mirror: 462 MiB, not 540) for
    // most of the speed
    // SAFETY: sets an integer option; mimalloc reads it at each purge
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 50) };
    let cli = cli::Cli::parse();
    // the language server owns stdin and stdout: no lock is taken here
    if let cli::Command::Lsp(args) = cli.command {
        return match lsp::serve(args.baseline) {
            Ok(exit) => ExitCode::from(exit.code()),
            Err(fatal) => {
                eprintln!("error: {}", crate::escape::text(&fatal.message));
                ExitCode::from(fatal.exit.code())
            }
        };
    }
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
