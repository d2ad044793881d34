//! skillgate: tests catalogs of Agent Skills.
//!
//! Data flow (see ARCHITECTURE.md): [`catalog`] loads every file once into one
//! [`catalog::Catalog`]; [`lint`] (Tier 1), [`route`] (Tier 2), [`behave`]
//! (Tier 3) and [`score`] read that model and return [`diag::Diagnostic`]s
//! and results; [`report`] renders them; [`app`] wires a parsed command line
//! to all of this and yields an [`exit::Exit`].

pub mod app;
pub mod authoring;
pub mod behave;
pub mod catalog;
pub mod cli;
pub mod client;
pub mod config;
pub mod diag;
pub mod escape;
pub mod exit;
pub mod fuzz;
pub mod lint;
pub mod loopback;
pub mod report;
pub mod route;
pub mod schema;
pub mod score;
