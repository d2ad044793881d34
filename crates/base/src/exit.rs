//! Exit codes shared by every subcommand (ARCHITECTURE.md, "Exit codes").

/// What a run concluded; `main` turns it into the process exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Exit {
    /// Everything checked passed its gates.
    Ok = 0,
    /// A check or gate failed.
    Failed = 1,
    /// Usage, configuration or input error.
    Usage = 2,
    /// Not enough evidence (fewer independent cases than the minimum).
    Insufficient = 3,
    /// Evidence could not be collected (agent, runner or grader failed).
    Unavailable = 4,
}

impl Exit {
    pub fn code(self) -> u8 {
        self as u8
    }

    /// The one that wins when several apply: 2 over 3, 3 over 4, 4 over 1,
    /// 1 over 0.
    pub fn worst(self, other: Exit) -> Exit {
        let rank = |e: Exit| match e {
            Exit::Ok => 0,
            Exit::Failed => 1,
            Exit::Unavailable => 2,
            Exit::Insufficient => 3,
            Exit::Usage => 4,
        };
        if rank(other) > rank(self) {
            other
        } else {
            self
        }
    }
}

/// An error that ends a command with a message and an exit code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fatal {
    pub exit: Exit,
    pub message: String,
    pub help: Option<String>,
}

impl Fatal {
    pub fn usage(message: impl Into<String>) -> Self {
        Fatal {
            exit: Exit::Usage,
            message: message.into(),
            help: None,
        }
    }

    pub fn new(exit: Exit, message: impl Into<String>) -> Self {
        Fatal {
            exit,
            message: message.into(),
            help: None,
        }
    }

    /// Add what to do about it; an empty help adds nothing (no empty
    /// `help:` line is ever printed).
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        let help = help.into();
        self.help = (!help.trim().is_empty()).then_some(help);
        self
    }
}

impl std::fmt::Display for Fatal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)?;
        if let Some(h) = &self.help {
            write!(f, "\n  help: {h}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Fatal {}
