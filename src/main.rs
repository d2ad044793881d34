use clap::Parser;
use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = skillgate::cli::Cli::parse();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let exit = match skillgate::app::run(cli, &mut out) {
        Ok(exit) => exit,
        Err(fatal) => {
            let _ = out.flush();
            if !fatal.message.is_empty() {
                // a message may quote a path or a value from the input
                eprintln!("error: {}", skillgate::escape::text(&fatal.message));
                if let Some(help) = &fatal.help {
                    eprintln!("  help: {}", skillgate::escape::text(help));
                }
            }
            fatal.exit
        }
    };
    if let Err(e) = out.flush()
        && e.kind() != std::io::ErrorKind::BrokenPipe
    {
        eprintln!("error: cannot write output: {e}");
        return ExitCode::from(skillgate::exit::Exit::Usage.code());
    }
    ExitCode::from(exit.code())
}
