//! One file per rule. Load-time rules (`SG0xx`) are raised while the
//! catalog is read; the others run over the loaded catalog.

pub mod cases;
pub mod commands;
pub mod load;
