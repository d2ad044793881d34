//! One file per rule or small family of rules. Load-time rules (`SG0xx`)
//! are raised while the catalog is read; the others run over the loaded
//! catalog: spec rules `SG1xx`, catalog conventions `SG2xx`, slash-command
//! parity `SG3xx` (in `commands/`), case files `SG4xx` (in `cases/`).

pub mod cases;
pub mod commands;
pub mod context;
pub mod load;
pub mod markdown;
pub mod yaml_lines;

// SG1xx: the Agent Skills specification.
pub mod description;
pub mod fields;
pub mod keys;
pub mod name;
pub mod orphan;
pub mod portability;

// SG2xx: catalog conventions.
pub mod budget;
pub mod files;
pub mod references;
pub mod sections;
pub mod trigger;
pub mod workflow;
