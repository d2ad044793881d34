//! Case-file rules (`SG4xx`): `evals/cases/<skill>.json`, its shape, its
//! minimums and its fixtures. `load` holds the two rules raised while a
//! file is read; the others run over [`crate::catalog::cases::CaseFile`].

pub mod load;
